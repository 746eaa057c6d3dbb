import Foundation
import XCTest
@testable import settings

/// What a person reads, byte for byte: `help`, every `help VERB` and the man page as `man`
/// renders it. A change to any of them shows in review as a change to a file in `Golden/`.
/// (The completion scripts' golden copies are `completions/` itself: CompletionFilesTests
/// holds `settings completion SHELL` to them byte for byte.) After a change you mean,
/// re-record them:
///
///     SETTINGS_RECORD_GOLDEN=1 swift test --disable-swift-testing --filter GoldenTests
final class GoldenTests: XCTestCase {
    private var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden")
    private static let recording = ProcessInfo.processInfo.environment["SETTINGS_RECORD_GOLDEN"] != nil

    /// Compares `text` with the file `name` in Golden/, or writes it there when recording.
    private func check(_ text: String, _ name: String, line: UInt = #line) {
        let url = Self.folder.appendingPathComponent(name)
        if Self.recording {
            XCTAssertNoThrow(try Data(text.utf8).write(to: url), line: line)
            return
        }
        guard let recorded = try? String(contentsOf: url, encoding: .utf8) else {
            return XCTFail("no Golden/\(name): record it with SETTINGS_RECORD_GOLDEN=1", line: line)
        }
        if recorded != text {
            let a = recorded.split(separator: "\n", omittingEmptySubsequences: false)
            let b = text.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            XCTFail(
                "Golden/\(name) differs at line \(first + 1): recorded \(a.count > first ? String(a[first]).debugDescription : "end"), now \(b.count > first ? String(b[first]).debugDescription : "end")",
                line: line)
        }
    }

    func testHelpForEveryVerb() {
        let bare = h.run([])
        XCTAssertEqual(bare.status, 2)
        check(bare.stderr, "bare.txt")
        check(h.ok("help"), "help.txt")
        for verb in Verb.all where !verb.name.hasPrefix("-") {
            let r = h.run(["help", verb.name])
            XCTAssertEqual(r.status, 0, verb.name)
            XCTAssertEqual(r.stderr, "", verb.name)
            check(r.stdout, "help-\(verb.name).txt")
        }
    }

    /// The man page as `man -Tutf8` renders it, with no warning from groff (a table wider
    /// than the page was one).
    func testManPage() throws {
        try Harness.require("man", package: "man-db")
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../man/settings.1"
        ).standardized.path
        let r = h.exec(
            "/usr/bin/env", ["man", "-l", "-Tutf8", page], environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "groff warned")
        check(r.stdout, "man.txt")
    }
}
