import XCTest
@testable import SettingsCore

final class JSONReaderTests: XCTestCase {
    private func read(_ text: String) throws -> PlistValue { try JSONReader.read(Array(text.utf8)) }

    private func error(_ text: String) -> JSONError? {
        do { _ = try read(text); return nil } catch let error as JSONError { return error } catch { return nil }
    }

    /// Everything the writer writes reads back value for value and type for type.
    func testTheWritersOutputReadsBackExactly() throws {
        let value = PlistValue.dict(PlistDictionary(entries: [
            .init(key: "z", value: .bool(true)), .init(key: "", value: .string("")), .init(key: "a/b", value: .int(.min)),
            .init(key: "a~b", value: .int(.max)), .init(key: "a.b", value: .int(PlistInteger(unsigned: .max))),
            .init(key: "one", value: .double(1)), .init(key: "negzero", value: .double(-0.0)), .init(key: "nan", value: .double(.nan)),
            .init(key: "inf", value: .double(-.infinity)), .init(key: "tiny", value: .double(5e-324)),
            .init(key: "when", value: .date(PlistDate(secondsSince2001: 725_857_445.125))),
            .init(key: "empty", value: .data([])), .init(key: "bytes", value: .data(Array(0...255))),
            .init(key: "text", value: .string("é\u{301}\n\t\"\\\u{0}😀")),
            .init(key: "list", value: .array([.array([]), .dict([:]), .dict(["$date": .string("not a date")])])),
            .init(key: "$real", value: .dict(["$real": .dict(["$data": .int(1)])])),
        ]))
        for pretty in [false, true] {
            let back = try JSONReader.read(JSONWriter.encode(value, pretty: pretty))
            XCTAssertEqual(back, value)
            // Order too: the domain's order survives.
            if case .dict(let d) = back { XCTAssertEqual(d.entries.first?.key, "z") }
        }
    }

    func testNumbersAreIntegersUnlessTheyHaveAPointOrExponent() throws {
        XCTAssertEqual(try read("1"), .int(1))
        XCTAssertEqual(try read("-0"), .int(0))
        XCTAssertEqual(try read("1.0"), .double(1))
        XCTAssertEqual(try read("1e2"), .double(100))
        XCTAssertEqual(try read("-0.0"), .double(-0.0))  // equality is by bit pattern
        XCTAssertEqual(try read("18446744073709551615"), .int(PlistInteger(unsigned: .max)))
        XCTAssertEqual(error("18446744073709551616")?.message.contains("outside the 64-bit integer range"), true)
        XCTAssertEqual(error("[1e999]"), .value("1e999 is outside the range of a real; write {\"$real\": \"inf\"} for infinity", pointer: "/0"))
        for bad in ["01", "1.", ".5", "+1", "1e", "-", "0x10", "NaN", "Infinity"] { XCTAssertNotNil(error(bad), bad) }
    }

    func testTagsAndTheirErrorsNameThePointer() throws {
        XCTAssertEqual(try read(#"{"$date":"2024-01-02T03:04:05Z"}"#), .date(PlistDate(CivilTime(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5))))
        XCTAssertEqual(try read(#"{"$data":"AP8="}"#), .data([0, 255]))
        XCTAssertEqual(try read(#"{"$dict":{"$date":"x"}}"#), .dict(["$date": .string("x")]))
        // `$dict` with a sibling is an ordinary key whose value is read as usual.
        XCTAssertEqual(try read(#"{"$dict":{"$data":""},"b":1}"#), .dict(["$dict": .data([]), "b": .int(1)]))
        XCTAssertEqual(try read(#"{"$other":1,"b":2}"#), .dict(["$other": .int(1), "b": .int(2)]))
        XCTAssertEqual(error(#"{"a":[{"$Date":"2024-01-02T03:04:05Z"}]}"#)?.pointer, "/a/0")
        XCTAssertEqual(error(#"{"a~b":{"when":{"$date":"yesterday"}}}"#)?.pointer, "/a~0b/when")
        XCTAssertEqual(error(#"{"x":{"$data":"!!"}}"#)?.pointer, "/x")
        XCTAssertEqual(error(#"{"x":{"$real":"NaN"}}"#)?.pointer, "/x")
        // Found by fuzzing: a date no property-list reader takes is refused here too.
        XCTAssertEqual(error(#"[{"$date":-1222222222222222222222222.5}]"#), .value("the date is outside the years 1 to 9999", pointer: "/0"))
        XCTAssertEqual(error(#"{"$date":"0000-01-01T00:00:00Z"}"#), .value("the date is outside the years 1 to 9999", pointer: ""))
        XCTAssertEqual(try read(#"{"$date":-1.5}"#), .date(PlistDate(secondsSince2001: -1.5)))
        // Also found by fuzzing: a date of -0.0 seconds keeps its sign through JSON.
        for value in [PlistValue.date(PlistDate(secondsSince2001: -0.0)), try read(#"{"$date":"3938-12-31T23:59:59.999+01:00"}"#)] {
            XCTAssertEqual(try JSONReader.read(JSONWriter.encode(value)), value)
        }
        XCTAssertEqual(error(#"{"a":{"b":null}}"#), .value("null has no property-list type; leave the key out instead", pointer: "/a/b"))
    }

    func testStringsAndSyntax() throws {
        XCTAssertEqual(try read(#""\u00e9\ud83d\ude00\/""#), .string("é😀/"))
        XCTAssertEqual(try read("\u{FEFF} [ ] "), .array([]))
        XCTAssertEqual(error(#""\ud800""#)?.message.contains("lone surrogate"), true)
        XCTAssertEqual(error("\"a\u{1}\"")?.message.contains("control character"), true)
        XCTAssertThrowsError(try JSONReader.read([0x22, 0xC3, 0x28, 0x22])) {
            XCTAssertEqual($0 as? JSONError, .syntax("invalid UTF-8 in a string", line: 1))
        }
    }

    func testSyntaxErrorsNameTheLine() {
        XCTAssertEqual(error("{\n\"a\": 1,\n}"), .syntax("expected a key in quotes", line: 3))
        XCTAssertEqual(error("[1 2]"), .syntax("expected ',' or ']' after an element", line: 1))
        XCTAssertEqual(error("{} x"), .syntax("unexpected text after the value", line: 1))
        XCTAssertEqual(error(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))?.message.contains("deeper"), true)
        XCTAssertNotNil(error(""))
        XCTAssertNotNil(error("{\"a\" 1}"))
    }

}

extension JSONError {
    var pointer: String? { if case .value(_, let pointer) = self { pointer } else { nil } }
}
