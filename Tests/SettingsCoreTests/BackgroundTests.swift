import Foundation
import XCTest

@testable import SettingsStore
import TestSupport

/// A library's second thread (a big domain's second half, git's fetch during sync) starts as
/// the system starts any: where threads run is the program's choice
/// (`ProgramChoices.threadSetup`, which the `settings` executable sets; `ProcessPolicyTests`).
final class BackgroundTests: XCTestCase {
    func testALibraryThreadIsPlacedOnlyByTheProgram() {
        let saved = ProgramChoices.threadSetup.withLock { $0 }
        defer { ProgramChoices.threadSetup.withLock { $0 = saved } }
        ProgramChoices.threadSetup.withLock { $0 = nil }
        let mine = CPUs.allowed()
        XCTAssertFalse(mine.isEmpty)
        for _ in 0..<3 {
            XCTAssertEqual(Background { CPUs.allowed() }.join(), mine, "no placement of its own")
        }
        // A program's choice is applied to each thread's attributes before it starts.
        let told = Told()
        ProgramChoices.threadSetup.withLock { $0 = { _ in told.add() } }
        XCTAssertTrue(Background { true }.join())
        XCTAssertEqual(told.count, 1)
    }

    func testTheWorkIsDoneAndHandedOver() {
        let values = (0..<8).map { i in Background { (0..<1000).reduce(i, +) } }
        XCTAssertEqual(values.map { $0.join() }, (0..<8).map { 499_500 + $0 })
    }
}

/// Counts calls from any thread.
final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    func add() { lock.withLock { calls += 1 } }
    var count: Int { lock.withLock { calls } }
}
