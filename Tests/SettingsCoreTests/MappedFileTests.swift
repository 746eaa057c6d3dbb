import Foundation
import XCTest

@testable import SettingsStore

/// A library maps no file and sets no signal handler: a mapped file another program cuts
/// short raises SIGBUS, which only a program may choose to catch. A program that does says
/// so through `ProgramChoices.mappings` and is told each file mapped and unmapped.
final class MappedFileTests: XCTestCase {
    func testOnlyAProgramThatCatchesSIGBUSGetsAMapping() throws {
        let path = NSTemporaryDirectory() + "mapped-\(getpid()).plist"
        try Data("<plist><dict/></plist>".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let saved = ProgramChoices.mappings.withLock { $0 }
        defer { ProgramChoices.mappings.withLock { $0 = saved } }

        // The test's own handler stands for an application's: a mapping never replaces it.
        var mine = sigaction()
        mine.__sigaction_handler.sa_handler = { _ in }
        var before = sigaction()
        XCTAssertEqual(sigaction(SIGBUS, &mine, &before), 0)
        defer { sigaction(SIGBUS, &before, nil) }

        ProgramChoices.mappings.withLock { $0 = nil }
        XCTAssertNil(MappedFile(path), "read whole, not mapped")

        let told = Paths()
        ProgramChoices.mappings.withLock { $0 = { told.add($0) } }
        do {
            let mapped = try XCTUnwrap(MappedFile(path))
            XCTAssertEqual(Array(mapped.bytes), Array("<plist><dict/></plist>".utf8))
            XCTAssertEqual(told.paths, [path])
        }
        XCTAssertEqual(told.paths, [path, nil], "told when unmapped")

        var now = sigaction()
        XCTAssertEqual(sigaction(SIGBUS, nil, &now), 0)
        XCTAssertEqual(
            unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self),
            unsafeBitCast(mine.__sigaction_handler.sa_handler, to: Int.self), "the application's handler is kept")
    }
}

/// The paths a hook was told, from any thread.
final class Paths: @unchecked Sendable {
    private let lock = NSLock()
    private var told: [String?] = []
    func add(_ path: String?) { lock.withLock { told.append(path) } }
    var paths: [String?] { lock.withLock { told } }
}
