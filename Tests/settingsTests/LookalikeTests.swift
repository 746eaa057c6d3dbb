import XCTest
@testable import settings
import PlistModel
import PlistCodecs
import SettingsStore

/// Mistyped type flags and verbs (the CLI's warnings and "did you mean").
final class LookalikeTests: XCTestCase {
    func testLookalikesOfTypeFlags() {
        let rows: [(String, String?, UInt)] = [
            ("-interger", "-integer", #line), ("-boool", "-bool", #line), ("-BOOL", "-bool", #line),
            ("-in", "-int", #line),
            ("-dat", "-data", #line), ("-arrayadd", "-array-add", #line), ("-dict-ad", "-dict-add", #line),
            ("-bool", nil, #line), ("-launchd", nil, #line), ("-v", nil, #line), ("-5", nil, #line), ("-", nil, #line),
            ("-bogus", nil, #line), ("int", nil, #line), ("-NoMulticastAdvertisements", nil, #line),
        ]
        for (word, flag, line) in rows {
            XCTAssertEqual(TypeTable.flag(resembling: word), flag, word, line: line)
        }
    }

    func testTheClosestWithinTwoEditsCountsATranspositionAsOne() {
        XCTAssertEqual(Lookalike.distance(Array("wirte".utf8), Array("write".utf8), limit: 2), 1)
        XCTAssertEqual(
            Lookalike.distance(Array("abc".utf8), Array("xyzw".utf8), limit: 2), 3, "past the limit: limit + 1")
        XCTAssertEqual(Lookalike.closest(to: "WRTIE", among: ["read", "write"]), "write")
        XCTAssertNil(Lookalike.closest(to: "frobnicate", among: ["read", "write"]))
    }
}
