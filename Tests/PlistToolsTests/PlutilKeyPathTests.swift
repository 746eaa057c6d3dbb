import XCTest

@testable import PlistModel
@testable import PlistTools

/// plutil's key paths: `.` between keys, `\.` a dot in one, numbers index arrays; and
/// where a value is put, Apple's way.
final class PlutilKeyPathTests: XCTestCase {
    func testDotsSplitAndEscapedDotsStay() {
        XCTAssertEqual(PlutilKeyPath("a.b.0").components, ["a", "b", "0"])
        XCTAssertEqual(PlutilKeyPath(#"com\.app.x"#).components, ["com.app", "x"])
        XCTAssertEqual(PlutilKeyPath("").components, [""])
        XCTAssertEqual(PlutilKeyPath("a..b").components, ["a", "", "b"])
        XCTAssertEqual(PlutilKeyPath(#"a\b"#).components, [#"a\b"#])
    }

    func testAnArrayIndexInsertsAndTheCountAppends() throws {
        let root: PlistValue = .dict(["list": .array([1, 2])])
        let inserted = try PlutilKeyPath("list.0").inserting(9, into: root, replacing: false, appending: false)
        XCTAssertEqual(inserted, .dict(["list": .array([9, 1, 2])]))
        // -replace on an index inserts too, as Apple's plutil does.
        let replaced = try PlutilKeyPath("list.1").inserting(9, into: root, replacing: true, appending: false)
        XCTAssertEqual(replaced, .dict(["list": .array([1, 9, 2])]))
        let appended = try PlutilKeyPath("list.2").inserting(9, into: root, replacing: false, appending: false)
        XCTAssertEqual(appended, .dict(["list": .array([1, 2, 9])]))
        XCTAssertThrowsError(try PlutilKeyPath("list.3").inserting(9, into: root, replacing: false, appending: false)) {
            XCTAssertEqual($0 as? PlutilError, .indexOutOfBounds(3, "list.3"))
        }
        XCTAssertThrowsError(try PlutilKeyPath("list.-1").inserting(9, into: root, replacing: false, appending: false))
        // -append past the end is an error here; Apple's Linux port crashes on it.
        XCTAssertThrowsError(try PlutilKeyPath("list.7").inserting(9, into: root, replacing: false, appending: true))
    }

    func testInsertRefusesAPresentKeyAndReplaceSetsIt() throws {
        let root: PlistValue = .dict(["a": 1, "list": .array([])])
        XCTAssertThrowsError(try PlutilKeyPath("a").inserting(2, into: root, replacing: false, appending: false)) {
            XCTAssertEqual(($0 as? PlutilError)?.message, "Value already exists at key path a")
        }
        XCTAssertEqual(
            try PlutilKeyPath("a").inserting(2, into: root, replacing: true, appending: false),
            .dict(["a": 2, "list": .array([])]))
        XCTAssertEqual(
            try PlutilKeyPath("list").inserting(2, into: root, replacing: false, appending: true),
            .dict(["a": 1, "list": .array([2])]))
        XCTAssertThrowsError(try PlutilKeyPath("x.y").inserting(2, into: root, replacing: true, appending: false)) {
            XCTAssertEqual(($0 as? PlutilError)?.message, "Key path not found x.y")
        }
        XCTAssertThrowsError(try PlutilKeyPath("a.b").inserting(2, into: root, replacing: true, appending: false)) {
            XCTAssertEqual(($0 as? PlutilError)?.message, "Unable to insert value at key path a.b")
        }
    }

    func testRemoveAndLookUp() throws {
        let root: PlistValue = .dict(["a": .array([.dict(["b": true])]), "x.y": 1])
        XCTAssertEqual(PlutilKeyPath("a.0.b").value(in: root), true)
        XCTAssertEqual(PlutilKeyPath(#"x\.y"#).value(in: root), 1)
        XCTAssertNil(PlutilKeyPath("a.1").value(in: root))
        XCTAssertNil(PlutilKeyPath("").value(in: root))
        XCTAssertEqual(try PlutilKeyPath("a.0.b").removing(from: root), .dict(["a": .array([.dict([:])]), "x.y": 1]))
        XCTAssertThrowsError(try PlutilKeyPath("a.0.c").removing(from: root)) {
            XCTAssertEqual(($0 as? PlutilError)?.message, "No value to remove at key path a.0.c")
        }
    }
}
