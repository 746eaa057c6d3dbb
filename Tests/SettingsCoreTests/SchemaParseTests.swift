import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Every way a schema file can be wrong has its own code and the JSON Pointer of the
/// fault; every way a value can break a key's schema has its own violation.
final class SchemaParseTests: XCTestCase {
    private func error(_ json: String) -> SchemaError? {
        do { _ = try Schema.parse(Array(json.utf8), path: "/s.json"); return nil } catch { return error }
    }

    func testEverySchemaFaultHasItsCode() {
        let rows: [(String, String, SchemaError.Code, UInt)] = [
            ("[]", "", .topLevelNotObject, #line),
            (#"{"strict": 1, "keys": {}}"#, "/strict", .strictNotBoolean, #line),
            (#"{"keys": []}"#, "/keys", .keysNotObject, #line),
            (#"{}"#, "/keys", .keysNotObject, #line),
            (#"{"keys": {"a": 1}}"#, "/keys/a", .keyNotObject, #line),
            (#"{"keys": {"a/b": {"type": "number"}}}"#, "/keys/a~1b", .unknownType, #line),
            (#"{"keys": {"a": {"type": 7}}}"#, "/keys/a", .unknownType, #line),
            (#"{"keys": {"a": {"minimum": "0"}}}"#, "/keys/a", .notANumber(field: "minimum"), #line),
            (#"{"keys": {"a": {"maximum": true}}}"#, "/keys/a", .notANumber(field: "maximum"), #line),
            (#"{"keys": {"a": {"summary": 1}}}"#, "/keys/a", .notText(field: "summary"), #line),
            (#"{"keys": {"a": {"enum": "x"}}}"#, "/keys/a", .enumNotArray, #line),
            (#"{"keys": {"a": {"enum": []}}}"#, "/keys/a", .enumEmpty, #line),
            (#"{"keys": {"a": {"type": "array", "items": {"type": "int"}}}}"#, "/keys/a/items", .unknownType, #line),
            (
                #"{"keys": {"a": {"type": "integer", "default": "x"}}}"#, "/keys/a",
                .defaultNotAllowed(.type(.string("x"), expected: .integer)), #line
            ),
            (
                #"{"keys": {"a": {"minimum": 0, "maximum": 9, "default": 10}}}"#, "/keys/a",
                .defaultNotAllowed(.range(.int(10), minimum: .int(0), maximum: .int(9))), #line
            ),
            ("{", "", .json(.syntax(.unexpectedEnd(expecting: .key), line: 1)), #line),
        ]
        for (json, pointer, code, line) in rows {
            XCTAssertEqual(error(json), SchemaError(path: "/s.json", pointer: pointer, code), json, line: line)
        }
        XCTAssertEqual(
            error(#"{"keys": {"a": {"type": "integer", "default": "x"}}}"#)?.message,
            #"ignoring the schema /s.json: /keys/a: the default is not allowed: 'x' is a string, not an integer"#)
    }

    func testEveryViolationHasItsCase() throws {
        let schema = try Schema.parse(
            Array(
                #"""
                {"keys": {"n": {"type": "integer", "minimum": 0, "maximum": 100},
                          "c": {"enum": ["a", "b"]},
                          "l": {"type": "array", "items": {"type": "real", "maximum": 1}}}}
                """#.utf8), path: "/s.json")
        func key(_ name: String) -> KeySchema { schema.keys.first { $0.name == name }! }
        XCTAssertNil(key("n").violation(.int(100)))
        XCTAssertEqual(key("n").violation(.int(101)), .range(.int(101), minimum: .int(0), maximum: .int(100)))
        XCTAssertEqual(key("n").violation(.int(101))?.message, "101 is not in 0…100")
        XCTAssertEqual(key("n").violation(.double(1)), .type(.double(1), expected: .integer))
        XCTAssertEqual(key("c").violation(.string("z")), .choice(.string("z"), choices: [.string("a"), .string("b")]))
        XCTAssertEqual(
            key("l").violation(.array([.double(0.5), .double(2)])),
            .element(1, .range(.double(2), minimum: nil, maximum: .int(1))))
        XCTAssertEqual(key("l").violation(.array([.double(0.5), .double(2)]))?.message, "element 1: 2 is not in …1")
        XCTAssertEqual(key("l").violation(.array([.int(1)])), .element(0, .type(.int(1), expected: .real)))
    }
}
