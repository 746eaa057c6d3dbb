import XCTest
@testable import SettingsCore

final class KeyPathTests: XCTestCase {
    func testPointersFollowRFC6901() throws {
        XCTAssertEqual(try KeyPath(pointer: "").segments, [])
        XCTAssertEqual(try KeyPath(pointer: "/").segments, [""])
        XCTAssertEqual(try KeyPath(pointer: "/a~1b/~0/0//").segments, ["a/b", "~", "0", "", ""])
        XCTAssertEqual(try KeyPath(pointer: "/a.b:c").segments, ["a.b:c"])
        XCTAssertThrowsError(try KeyPath(pointer: "a")) { XCTAssertEqual($0 as? KeyPathError, .noLeadingSlash("a")) }
        XCTAssertThrowsError(try KeyPath(pointer: "/a~2")) { XCTAssertEqual($0 as? KeyPathError, .badEscape("/a~2")) }
        XCTAssertThrowsError(try KeyPath(pointer: "/a~")) { XCTAssertEqual($0 as? KeyPathError, .badEscape("/a~")) }
        for segments in [["a/b", "~1", "é"], [""], ["~0/~1"]] {
            XCTAssertEqual(try KeyPath(pointer: KeyPath(segments).pointer).segments, segments)
        }
    }

    func testSegmentsAreKeysInDictionariesAndCanonicalIndexesInArrays() {
        let domain: PlistDictionary = ["list": .array([.string("x"), .dict(["0": .int(7)])]), "": .int(1), "a/b": .int(2)]
        XCTAssertEqual(KeyPath(["list", "1", "0"]).value(in: domain), .int(7))
        XCTAssertEqual(KeyPath(["list", "0"]).value(in: domain), .string("x"))
        XCTAssertNil(KeyPath(["list", "01"]).value(in: domain))
        XCTAssertNil(KeyPath(["list", "-"]).value(in: domain))
        XCTAssertNil(KeyPath(["list", "2"]).value(in: domain))
        XCTAssertEqual(KeyPath([""]).value(in: domain), .int(1))
        XCTAssertEqual(KeyPath(["a/b"]).value(in: domain), .int(2))
        XCTAssertNil(KeyPath(["a/b", "x"]).value(in: domain))
    }
}
