import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
import TestSupport

/// Every file of the conformance corpus through our readers, judged against plistlib's
/// reading of the same file. The corpus is a copy of public samples kept in the repository
/// (`Tests/Fixtures/corpus`, provenance in its README.txt), so every clone runs these.
final class CorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/corpus").standardized.path
    static let canonScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Support/plist_canon.py").standardized.path

    /// Where we part from plistlib, and why. Every other file: same verdict, same values.
    static let deliberate: [String: (valid: Bool, why: String)] = [
        "cpython/edge/cycle_dict.bin.plist": (false, "a dictionary that contains itself"),
        "libplist/recursion.bplist": (false, "a reference cycle"),
        "gnustep/cyclic.plist": (false, "a reference cycle"),
        "swift-foundation/xml_errors/empty_plist.plist": (false, "<plist> with no value"),
        "swift-foundation/xml_errors/enormous_int.plist": (false, "an integer beyond 64 bits"),
        "swift-foundation/xml_errors/extra_plist_object.plist": (false, "two values in <plist>"),
        "swift-foundation/xml_errors/fake_inline_dtd.plist": (false, "a DTD internal subset"),
        "libplist/o1.ostep": (true, "OpenStep, which plistlib does not read"),
        "libplist/o2.ostep": (true, "OpenStep"),
        "libplist/o3.ostep": (true, "OpenStep with comments"),
        "libplist/test.strings": (true, "a .strings file: a dictionary body without braces"),
        "gnustep/non_ascii_utf8.plist": (true, "OpenStep"),
        "gnustep/non_ascii_utf16.plist": (true, "OpenStep in UTF-16 with a BOM"),
        "gnustep/non_ascii_utf8.strings": (true, "a .strings file"),
        "swift-foundation/test_oldStylePlist_getSlashedChars_octal.plist": (true, "OpenStep octal escapes"),
    ]

    func testEveryCorpusFile() throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.corpus), "no corpus at \(Self.corpus)")
        let reference = try plistlibVerdicts()
        var checked = 0
        for (path, verdict) in reference.sorted(by: { $0.key < $1.key }) {
            guard
                path.hasSuffix("plist") || path.hasSuffix(".ostep") || path.hasSuffix(".strings")
                    || path.hasSuffix(".bad")
            else { continue }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + path)))
            let expectValid = Self.deliberate[path]?.valid ?? verdict.ok
            do {
                let value = try PropertyList.read(bytes).0
                XCTAssertTrue(
                    expectValid,
                    "\(path): read, but should be refused (\(Self.deliberate[path]?.why ?? "plistlib refuses it"))")
                if verdict.ok && expectValid {
                    XCTAssertTrue(canonical(value) == verdict.canon, "\(path): values differ from plistlib's")
                }
            } catch {
                XCTAssertFalse(expectValid, "\(path): refused (\(error.message)), but it is valid")
                XCTAssertFalse(error.message.isEmpty)
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 120)
    }

    func testOpenStepOctalEscapesMatchTheirExpectedReading() throws {
        let dir = Self.corpus + "/swift-foundation/"
        let escaped = try PropertyList.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: dir + "test_oldStylePlist_getSlashedChars_octal.plist"))))
        let expected = try PropertyList.read(
            Array(
                try Data(
                    contentsOf: URL(fileURLWithPath: dir + "test_oldStylePlist_getSlashedChars_octal_expected.plist"))))
        XCTAssertEqual(escaped.1, .openStep)
        XCTAssertEqual(escaped.0, expected.0)
    }

    func testOpenStepSamplesReadAsWritten() throws {
        let dir = Self.corpus + "/libplist/"
        let o3 = try PropertyList.read(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "o3.ostep")))).0
        XCTAssertEqual(
            o3,
            .array([
                .dict(["AFirstKey": .string("A First Value"), "ASecondKey": .string("A Second Value")]),
                .dict(["CFirstKey": .string("C First Value"), "CSecondKey": .string("C Second Corrected Value")]),
            ]))
        let strings = try PropertyList.read(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "test.strings")))).0
        guard case .dict(let d) = strings else { return XCTFail("not a dictionary") }
        XCTAssertEqual(d["ENTRY1"], .string("日本語"))
        XCTAssertEqual(d["BAR"], .string("Foo"))
        XCTAssertEqual(d.count, 12)
    }

    // MARK: plistlib

    struct Verdict { var ok: Bool; var canon: String }

    private func plistlibVerdicts() throws -> [String: Verdict] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.canonScript, "canon-tree", Self.corpus]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        var verdicts: [String: Verdict] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            verdicts[String(fields[0])] = Verdict(ok: fields[1] == "OK", canon: String(fields[2]))
        }
        return verdicts
    }
}
