import XCTest

@testable import SettingsSync

/// Issue 48 §16: the log of values that lost a conflict is bounded.
final class SyncLogTests: XCTestCase {
    /// The log's cut keeps whole lines, the newest, within the bound; the newest line
    /// alone when it is longer.
    func testTheLogIsCutToItsNewestWholeLines() {
        let log = Array("one\ntwo\nthree\n".utf8)
        func newest(_ bytes: Int) -> String { String(decoding: SyncSetup.newest(log, within: bytes), as: UTF8.self) }
        XCTAssertEqual(newest(100), "one\ntwo\nthree\n")
        XCTAssertEqual(newest(10), "two\nthree\n")
        XCTAssertEqual(newest(9), "three\n")
        XCTAssertEqual(newest(6), "three\n")
        XCTAssertEqual(newest(3), "three\n")
    }
}
