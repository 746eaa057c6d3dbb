import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class KeyPathTests: XCTestCase {
    func testPointersFollowRFC6901() throws {
        XCTAssertEqual(try PlistKeyPath(pointer: "").segments, [])
        XCTAssertEqual(try PlistKeyPath(pointer: "/").segments, [""])
        XCTAssertEqual(try PlistKeyPath(pointer: "/a~1b/~0/0//").segments, ["a/b", "~", "0", "", ""])
        XCTAssertEqual(try PlistKeyPath(pointer: "/a.b:c").segments, ["a.b:c"])
        XCTAssertThrowsError(try PlistKeyPath(pointer: "a")) {
            XCTAssertEqual($0 as? KeyPathError, .noLeadingSlash("a"))
        }
        XCTAssertThrowsError(try PlistKeyPath(pointer: "/a~2")) {
            XCTAssertEqual($0 as? KeyPathError, .badEscape("/a~2"))
        }
        XCTAssertThrowsError(try PlistKeyPath(pointer: "/a~")) {
            XCTAssertEqual($0 as? KeyPathError, .badEscape("/a~"))
        }
        for segments in [["a/b", "~1", "é"], [""], ["~0/~1"]] {
            XCTAssertEqual(try PlistKeyPath(pointer: PlistKeyPath(segments).pointer).segments, segments)
        }
    }

    func testSegmentsAreKeysInDictionariesAndCanonicalIndexesInArrays() {
        let domain: PlistDictionary = [
            "list": .array([.string("x"), .dict(["0": .int(7)])]), "": .int(1), "a/b": .int(2),
        ]
        XCTAssertEqual(PlistKeyPath(["list", "1", "0"]).value(in: domain), .int(7))
        XCTAssertEqual(PlistKeyPath(["list", "0"]).value(in: domain), .string("x"))
        XCTAssertNil(PlistKeyPath(["list", "01"]).value(in: domain))
        XCTAssertNil(PlistKeyPath(["list", "-"]).value(in: domain))
        XCTAssertNil(PlistKeyPath(["list", "2"]).value(in: domain))
        XCTAssertEqual(PlistKeyPath([""]).value(in: domain), .int(1))
        XCTAssertEqual(PlistKeyPath(["a/b"]).value(in: domain), .int(2))
        XCTAssertNil(PlistKeyPath(["a/b", "x"]).value(in: domain))
    }

    private func setting(_ pointer: String, _ new: PlistValue, in root: PlistValue?, insert: Bool = false) throws
        -> PlistValue?
    {
        var value = root
        try PlistKeyPath(pointer: pointer).set(new, in: &value, insert: insert)
        return value
    }

    func testSetCreatesDictionariesButNeverGuessesArrays() throws {
        XCTAssertEqual(
            try setting("/w/frame/title", .string("x"), in: nil), .dict(["frame": .dict(["title": .string("x")])]))
        XCTAssertEqual(
            try setting("/w/0", .int(1), in: .dict([:])), .dict(["0": .int(1)]), "in a dictionary 0 is a key")
        XCTAssertThrowsError(try setting("/list/0", .int(1), in: nil)) {
            XCTAssertEqual($0 as? KeyPathError, .missingArray("/list"))
        }
        XCTAssertThrowsError(try setting("/w/list/0", .int(1), in: .dict([:]))) {
            XCTAssertEqual($0 as? KeyPathError, .missingArray("/w/list"))
        }
        // Appending is unambiguous (issue 19): `-` under nothing makes the array.
        XCTAssertEqual(try setting("/w/list/-", .int(1), in: .dict([:])), .dict(["list": .array([.int(1)])]))
        XCTAssertEqual(try setting("/recent/-", .string("doc.txt"), in: nil), .array([.string("doc.txt")]))
        XCTAssertEqual(
            try setting("/w/list/-/name", .string("x"), in: nil),
            .dict(["list": .array([.dict(["name": .string("x")])])]))
        XCTAssertThrowsError(try setting("/w/a/b", .int(1), in: .dict(["a": .string("s")]))) {
            XCTAssertEqual(($0 as? KeyPathError)?.message, "/w/a holds a string, not a dictionary or an array")
        }
    }

    func testArraysReplaceInsertAppendAndRefuseTheRest() throws {
        let list = PlistValue.array([.string("a"), .string("b")])
        XCTAssertEqual(try setting("/l/1", .string("x"), in: list), .array([.string("a"), .string("x")]))
        XCTAssertEqual(
            try setting("/l/1", .string("x"), in: list, insert: true),
            .array([.string("a"), .string("x"), .string("b")]))
        XCTAssertEqual(try setting("/l/-", .string("x"), in: list), .array([.string("a"), .string("b"), .string("x")]))
        XCTAssertEqual(try setting("/l/2", .string("x"), in: list), .array([.string("a"), .string("b"), .string("x")]))
        XCTAssertThrowsError(try setting("/l/3", .string("x"), in: list)) {
            XCTAssertEqual($0 as? KeyPathError, .outOfRange("/l/3", count: 2))
        }
        XCTAssertThrowsError(try setting("/l/01", .string("x"), in: list)) {
            XCTAssertEqual($0 as? KeyPathError, .notAnIndex("/l/01"))
        }
        XCTAssertThrowsError(try setting("/l/x", .string("x"), in: list)) {
            XCTAssertEqual($0 as? KeyPathError, .notAnIndex("/l/x"))
        }
        XCTAssertEqual(try setting("/l/0/k", .int(1), in: .array([.dict([:])])), .array([.dict(["k": .int(1)])]))
    }

    func testRemoveShiftsArraysAndSaysWhenNothingWasThere() throws {
        var value: PlistValue? = .dict(["list": .array([.int(0), .int(1), .int(2)]), "k": .int(1)])
        XCTAssertTrue(try PlistKeyPath(pointer: "/w/list/1").remove(in: &value))
        XCTAssertEqual(value, .dict(["list": .array([.int(0), .int(2)]), "k": .int(1)]))
        XCTAssertFalse(try PlistKeyPath(pointer: "/w/nope/x").remove(in: &value))
        XCTAssertThrowsError(try PlistKeyPath(pointer: "/w/list/5").remove(in: &value)) {
            XCTAssertEqual($0 as? KeyPathError, .outOfRange("/w/list/5", count: 2))
        }
        XCTAssertTrue(try PlistKeyPath(pointer: "/w").remove(in: &value))
        XCTAssertNil(value)
    }

    func testJQPathsAreKeyPaths() throws {
        XCTAssertEqual(try PlistKeyPath(json: #"["a/b",0,""]"#).segments, ["a/b", "0", ""])
        for bad in ["/a", "[-1]", "[1.5]", "[null]", "{}", "["] {
            XCTAssertThrowsError(try PlistKeyPath(json: bad)) {
                XCTAssertEqual($0 as? KeyPathError, .notAJSONPath(bad))
            }
        }
    }
}
