import XCTest
@testable import PlistModel
@testable import SettingsCode
@testable import SettingsStore

/// Issue 47: keys, and domain names (file names), are bytes in settings as code. "é"
/// precomposed and decomposed are two keys to a property list; Swift's `String` takes
/// them for one, so a `[String: …]` or `==` on keys merged them. Keys are compared here as
/// their bytes (`XCTAssertEqual` on `String`s would take the two for equal).
final class KeysAsBytesTests: XCTestCase {
    let composed = "\u{E9}", decomposed = "e\u{301}"

    func bytes(_ keys: [String]) -> [[UInt8]] { keys.map { Array($0.utf8) } }

    /// The report: an undo of one change that touched both keys.
    func testUndoPlansEachKeyOnItsOwn() {
        let entries = [
            JournalEntry(
                time: 1, writer: "w", pid: 1,
                changes: [KeyChange(key: decomposed, old: 2, new: 4), KeyChange(key: composed, old: 1, new: 3)])
        ]
        let plan = Undo.plan(entries, .steps(1)) ?? []
        XCTAssertEqual(bytes(plan.map(\.key)), bytes([decomposed, composed]))
        XCTAssertEqual(plan.map(\.old), [4, 3])
        XCTAssertEqual(plan.map(\.new), [2, 1])
    }

    func testChangesAndPathsAreEqualOnlyByteForByte() {
        XCTAssertNotEqual(KeyChange(key: composed, old: nil, new: 1), KeyChange(key: decomposed, old: nil, new: 1))
        XCTAssertNotEqual(PlistKeyPath([composed, "x"]), PlistKeyPath([decomposed, "x"]))
        XCTAssertEqual(PlistKeyPath([composed, "x"]), PlistKeyPath(["\u{E9}", "x"]))
    }

    func testAStateKeepsTwoDomainsWhoseNamesDifferOnlyInNormalization() {
        let a = "com.example.\(composed)", b = "com.example.\(decomposed)"
        let old = SettingsState([(a, ["k": 1]), (b, ["k": 2])])
        let new = SettingsState([(a, ["k": 3]), (b, ["k": 4])])
        XCTAssertEqual(old[a], ["k": 1])
        XCTAssertEqual(old[b], ["k": 2])
        XCTAssertFalse(SettingsState([(a, ["k": 1])]).names(b))
        XCTAssertNotEqual(SettingsState([(a, ["k": 1])]), SettingsState([(b, ["k": 1])]))
        let difference = StateDiff(from: old, to: new)
        XCTAssertEqual(bytes(difference.domains.map(\.name)), bytes([a, b]))
        XCTAssertEqual(difference.domains.map { $0.leaves.map(\.new) }, [[3], [4]])
        var complete = SettingsState([(a, ["k": 1])], complete: true)
        complete.unreadable = [b]
        XCTAssertTrue(complete.covers(a))
        XCTAssertFalse(complete.covers(b))
        XCTAssertTrue(complete.covers("com.example.other"))
    }

    func testApplyEditsEachKeyOnItsOwn() throws {
        var values: PlistDictionary = [composed: 1, decomposed: 2, "d": ["x": 1]]
        try DesiredState.perform(
            [
                .init(path: PlistKeyPath([composed]), value: 3),
                .init(path: PlistKeyPath([decomposed]), value: nil),
                .init(path: PlistKeyPath(["d", composed]), value: 4),
                .init(path: PlistKeyPath(["d", decomposed]), value: 5),
            ], on: &values)
        XCTAssertEqual(bytes(values.keys), bytes(["d", composed]))
        XCTAssertEqual(values[composed], 3)
        XCTAssertEqual(values["d"], ["x": 1, composed: 4, decomposed: 5])
        guard case .dict(let d)? = values["d"] else { return XCTFail() }
        XCTAssertEqual(d.count, 3)
    }
}
