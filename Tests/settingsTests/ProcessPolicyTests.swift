import Foundation
import XCTest

@testable import SettingsStore
@testable import settings
import TestSupport

/// What the `settings` program chooses for its process (`ProcessPolicy`), which no library
/// does (`BackgroundTests`, `MappedFileTests`).
final class ProcessPolicyTests: XCTestCase {
    /// A big domain's second half is read on the CPUs the program may use but its own:
    /// Linux started a busy parent's new thread on the parent's CPU and ran it there 2 to
    /// 3 ms later, about the time half of a 100,000-key domain takes, so the halves ran
    /// one after the other.
    func testTheProgramStartsItsSecondThreadOnAnotherCPU() {
        let saved = ProgramChoices.threadSetup.withLock { $0 }
        defer { ProgramChoices.threadSetup.withLock { $0 = saved } }
        ProcessPolicy.adopt()
        let mine = CPUs.allowed()
        XCTAssertFalse(mine.isEmpty)
        for _ in 0..<3 {
            let allowed = Background { CPUs.allowed() }.join()
            if mine.count >= 2 {
                // All but the CPU its parent was on (which may have moved on since).
                XCTAssertEqual(allowed.count, mine.count - 1, "\(allowed) of \(mine)")
                XCTAssertTrue(allowed.isSubset(of: mine), "\(allowed) of \(mine)")
            } else {
                XCTAssertEqual(allowed, mine, "one CPU: it runs where there is room")
            }
        }
    }

    /// The program maps a big file (its pages given back as it goes) because it catches
    /// SIGBUS, and says which file was cut short while mapped (`ImportExportTests` cuts one).
    func testTheProgramMapsFilesAndNamesTheOneCutShort() {
        let saved = ProgramChoices.mappings.withLock { $0 }
        defer { ProgramChoices.mappings.withLock { $0 = saved } }
        ProcessPolicy.adopt()
        XCTAssertNotNil(ProgramChoices.mappings.withLock { $0 })
        var now = sigaction()
        XCTAssertEqual(sigaction(SIGBUS, nil, &now), 0)
        XCTAssertNotEqual(unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self), 0, "a handler, not SIG_DFL")
    }
}
