import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class JSONReaderTests: XCTestCase {
    private func read(_ text: String) throws -> PlistValue { try JSONReader.read(Array(text.utf8)) }

    private func error(_ text: String) -> JSONError? {
        do { _ = try read(text); return nil } catch let error as JSONError { return error } catch { return nil }
    }

    /// Everything the writer writes reads back value for value and type for type.
    func testTheWritersOutputReadsBackExactly() throws {
        let value = PlistValue.dict(
            PlistDictionary(entries: [
                .init(key: "z", value: .bool(true)), .init(key: "", value: .string("")),
                .init(key: "a/b", value: .int(.min)),
                .init(key: "a~b", value: .int(.max)), .init(key: "a.b", value: .int(PlistInteger(unsigned: .max))),
                .init(key: "one", value: .double(1)), .init(key: "negzero", value: .double(-0.0)),
                .init(key: "nan", value: .double(.nan)),
                .init(key: "inf", value: .double(-.infinity)),
                .init(key: "tiny", value: .double(Double.leastNonzeroMagnitude)),
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
        XCTAssertEqual(error("18446744073709551616"), .value(.integerOutOfRange("18446744073709551616"), pointer: ""))
        XCTAssertEqual(error("[1e999]"), .value(.realOutOfRange("1e999"), pointer: "/0"))
        XCTAssertEqual(
            error("[1e999]")?.message,
            "JSON value at /0: 1e999 is outside the range of a real; write {\"$real\": \"inf\"} for infinity")
        let bad: [(String, JSONError.SyntaxCode)] = [
            ("01", .leadingZero), ("1.", .noDigitsAfterPoint),
            (".5", .unexpected(UInt8(ascii: "."), expecting: .value)),
            ("+1", .unexpected(UInt8(ascii: "+"), expecting: .value)), ("1e", .noDigitsInExponent),
            ("-", .numberWithoutDigits),
            ("0x10", .textAfterValue), ("NaN", .unexpected(UInt8(ascii: "N"), expecting: .value)),
            ("Infinity", .unexpected(UInt8(ascii: "I"), expecting: .value)),
        ]
        for (text, code) in bad { XCTAssertEqual(error(text), .syntax(code, line: 1), text) }
    }

    func testTagsAndTheirErrorsNameThePointer() throws {
        XCTAssertEqual(
            try read(#"{"$date":"2024-01-02T03:04:05Z"}"#),
            .date(PlistDate(CivilTime(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5))))
        XCTAssertEqual(try read(#"{"$data":"AP8="}"#), .data([0, 255]))
        XCTAssertEqual(try read(#"{"$dict":{"$date":"x"}}"#), .dict(["$date": .string("x")]))
        // `$dict` with a sibling is an ordinary key whose value is read as usual.
        XCTAssertEqual(try read(#"{"$dict":{"$data":""},"b":1}"#), .dict(["$dict": .data([]), "b": .int(1)]))
        XCTAssertEqual(try read(#"{"$other":1,"b":2}"#), .dict(["$other": .int(1), "b": .int(2)]))
        XCTAssertEqual(
            error(#"{"a":[{"$Date":"2024-01-02T03:04:05Z"}]}"#), .value(.unknownTag("$Date"), pointer: "/a/0"))
        XCTAssertEqual(
            error(#"{"a~b":{"when":{"$date":"yesterday"}}}"#), .value(.notADate("yesterday"), pointer: "/a~0b/when"))
        XCTAssertEqual(error(#"{"x":{"$data":"!!"}}"#), .value(.notBase64, pointer: "/x"))
        XCTAssertEqual(error(#"{"x":{"$real":"NaN"}}"#), .value(.notARealWord("NaN"), pointer: "/x"))
        XCTAssertEqual(error(#"{"x":{"$data":1}}"#), .value(.tagHolds(tag: "$data", .int), pointer: "/x"))
        XCTAssertEqual(
            error(#"{"x":{"$data":1}}"#)?.message,
            #"JSON value at /x: "$data" holds an integer, not what the tag takes"#)
        // Found by fuzzing: a date no property-list reader takes is refused here too.
        XCTAssertEqual(error(#"[{"$date":-1222222222222222222222222.5}]"#), .value(.dateOutOfRange, pointer: "/0"))
        XCTAssertEqual(error(#"{"$date":"0000-01-01T00:00:00Z"}"#), .value(.dateOutOfRange, pointer: ""))
        XCTAssertEqual(try read(#"{"$date":-1.5}"#), .date(PlistDate(secondsSince2001: -1.5)))
        // Also found by fuzzing: a date of -0.0 seconds keeps its sign through JSON.
        for value in [
            PlistValue.date(PlistDate(secondsSince2001: -0.0)), try read(#"{"$date":"3938-12-31T23:59:59.999+01:00"}"#),
        ] {
            XCTAssertEqual(try JSONReader.read(JSONWriter.encode(value)), value)
        }
        XCTAssertEqual(error(#"{"a":{"b":null}}"#), .value(.null, pointer: "/a/b"))
        XCTAssertEqual(
            error(#"{"a":{"b":null}}"#)?.message,
            "JSON value at /a/b: null has no property-list type; leave the key out instead")
    }

    func testStringsAndSyntax() throws {
        XCTAssertEqual(try read(#""\u00e9\ud83d\ude00\/""#), .string("é😀/"))
        XCTAssertEqual(try read("\u{FEFF} [ ] "), .array([]))
        let bad: [(String, JSONError.SyntaxCode)] = [
            (#""\ud800""#, .loneSurrogate(0xD800)), (#""\ud800\u0041""#, .loneSurrogate(0xD800)),
            (#""\udc00""#, .loneSurrogate(0xDC00)),
            ("\"a\u{1}\"", .controlCharacter), (#""\q""#, .unknownEscape(UInt8(ascii: "q"))),
            (#""\u12""#, .shortUnicodeEscape),
            (#""\u12g4""#, .shortUnicodeEscape), (#""abc"#, .unterminatedString), (#""ab\"#, .unterminatedString),
        ]
        for (text, code) in bad { XCTAssertEqual(error(text), .syntax(code, line: 1), text) }
        XCTAssertEqual(error(#""\ud800""#)?.message, #"JSON line 1: a lone surrogate \ud800 is not a character"#)
        XCTAssertThrowsError(try JSONReader.read([0x22, 0xC3, 0x28, 0x22])) {
            XCTAssertEqual($0 as? JSONError, .syntax(.invalidUTF8, line: 1))
        }
    }

    func testSyntaxErrorsNameTheLine() {
        XCTAssertEqual(error("{\n\"a\": 1,\n}"), .syntax(.unexpected(UInt8(ascii: "}"), expecting: .key), line: 3))
        XCTAssertEqual(error("[1 2]"), .syntax(.unexpected(UInt8(ascii: "2"), expecting: .elementEnd), line: 1))
        XCTAssertEqual(error("[1 2]")?.message, "JSON line 1: unexpected '2'; expected ',' or ']' after an element")
        XCTAssertEqual(
            error("{\"a\": 1 \n\n2}"), .syntax(.unexpected(UInt8(ascii: "2"), expecting: .memberEnd), line: 3))
        XCTAssertEqual(error("{} x"), .syntax(.textAfterValue, line: 1))
        XCTAssertEqual(
            error(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)),
            .syntax(.tooDeep(limit: maximumNestingDepth), line: 1))
        XCTAssertEqual(error(""), .syntax(.unexpectedEnd(expecting: .value), line: 1))
        XCTAssertEqual(error("{\"a\" 1}"), .syntax(.unexpected(UInt8(ascii: "1"), expecting: .colon), line: 1))
        XCTAssertEqual(error("{\"a\""), .syntax(.unexpectedEnd(expecting: .colon), line: 1))
        XCTAssertEqual(error("{\"a\":1"), .syntax(.unexpectedEnd(expecting: .memberEnd), line: 1))
        XCTAssertEqual(error("[1"), .syntax(.unexpectedEnd(expecting: .elementEnd), line: 1))
        XCTAssertEqual(error("{"), .syntax(.unexpectedEnd(expecting: .key), line: 1))
        XCTAssertEqual(error("{1}"), .syntax(.unexpected(UInt8(ascii: "1"), expecting: .key), line: 1))
        XCTAssertEqual(error("tru"), .syntax(.unexpected(UInt8(ascii: "t"), expecting: .value), line: 1))
        XCTAssertEqual(error("\u{7}"), .syntax(.unexpected(7, expecting: .value), line: 1))
        XCTAssertEqual(error("\u{7}")?.message, "JSON line 1: unexpected '\\x7'; expected a value")
    }

}

extension JSONError {
    var pointer: String? { if case .value(_, let pointer) = self { pointer } else { nil } }
}
