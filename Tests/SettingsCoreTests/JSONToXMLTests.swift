import XCTest
@testable import PlistModel
@testable import PlistCodecs
import TestSupport

/// JSON written straight as XML (`import --json` into a domain with no file) must be byte
/// for byte the XML of the values `JSONReader` reads from it, with the same keys and
/// values; whatever it cannot write so (errors, text XML cannot hold, a fraction of a
/// second, `$dict`, a key twice) must be left to the values' way.
final class JSONToXMLTests: XCTestCase {
    /// Checks `text` both ways; whether it was written straight.
    @discardableResult
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let json = Array(text.utf8)
        guard let direct = JSONReader.encodedDomain(json) else { return false }
        guard case .dict(let dict)? = try? JSONReader.read(json) else {
            XCTFail("written straight, but the reader refuses it: \(text)", file: file, line: line)
            return true
        }
        XCTAssertEqual(
            String(decoding: direct.xml, as: UTF8.self), String(decoding: XMLWriter.encode(.dict(dict)), as: UTF8.self),
            text, file: file, line: line)
        XCTAssertEqual((0..<direct.count).map(direct.key), dict.keys, text, file: file, line: line)
        for index in 0..<direct.count {
            XCTAssertEqual(direct.value(index), dict[direct.key(index)], "\(index) in \(text)", file: file, line: line)
        }
        // The long way would have written this XML too, not a binary file or an error.
        for entry in dict.entries {
            XCTAssertNil(PropertyList.unstorable(key: entry.key, value: entry.value, format: .xml), text)
            XCTAssertFalse(PropertyList.hasFractionalDate(entry.value), text)
        }
        return true
    }

    func testWhatPeopleAndProgramsWrite() {
        let written = [
            #"{"b": 1, "a": [true, false, -0, 1.50, 1e2, 2.5E-3, "x"], "c": {}}"#,
            #"{"z": {"y": [{"d": 1, "c": 2}], "x": 3}}"#,
            #"{"k": "a &amp; <b> \"q\" \\ \/ \n\t\r \u00e9 \u00E9 \ud83d\ude00 é"}"#,
            #"{"&<>": 1, "\u0041": 2, "": "", "é": "e\u0301"}"#,
            // Escaped text longer than any before it.
            "{\"long\": \"" + String(repeating: #"a\n\""#, count: 200) + "\", \"k\": \""
                + String(repeating: #"\t"#, count: 900) + "\"}",
            #"{"when": {"$date": "2001-01-01T04:00:00Z"}, "bytes": {"$data": "AAEC/w=="}, "r": {"$real": "-inf"}}"#,
            // Dates spelled as XML spells them are copied; any other spelling is worked out.
            #"{"a": {"$date": "2024-02-29T23:59:59Z"}, "b": {"$date": "2024-02-29t23:59:59z"}}"#,
            #"{"c": {"$date": "9999-12-31T23:59:59Z"}, "d": {"$date": "0001-01-01T00:00:00-00:30"}}"#,
            // Base64 as writers write it is copied into lines; any other is decoded.
            #"{"long": {"$data": "\#(String(repeating: "AQID", count: 40))"}, "odd": {"$data": "AAF="}}"#,
            #"{"spaced": {"$data": "AA\nAA"}, "nested": [[[[[[[[[{"$data": "AQIDBAUGBwgJ"}]]]]]]]]]}"#,
            #"{"deep": {"$real": "nan"}, "empty": {"$data": ""}, "o": {"$date": "2024-06-01T12:00:00+02:00"}}"#,
            #"{"big": 18446744073709551615, "small": -9223372036854775808, "tiny": 5e-324, "huge": 1e308}"#,
            "\u{FEFF}{\"bom\": 1}",
            " \r\n\t{ \"spaced\" : [ 1 , { \"a\" : 2 } ] } \n",
            #"{"first": 2, "$second": 1, "$dict": 3}"#,
            // U+FFFE is a character JSON may hold, and the writer writes it.
            #"{"a": "\uFFFE"}"#,
            #"{"a": {"b": 1, "$date": 2}, "tags": [{"$data": "AAAA"}, {"$date": "0001-01-01T00:00:00Z"}]}"#,
        ]
        for text in written { XCTAssertTrue(check(text), "written straight: \(text)") }
    }

    /// A big root whose keys and every object's keys come in reverse: each object's
    /// entries are moved into order while thousands of the root's wait on the stack.
    func testABigDocumentOutOfOrderEverywhere() {
        let members = (0..<3000).reversed().map { i in
            "\"k\(i)\": {\"z\": \(i), \"m\": [{\"b\": 1, \"a\": \"x\"}], \"a\": {\"$date\": \"2024-01-02T03:04:05Z\"}}"
        }
        XCTAssertTrue(check("{" + members.joined(separator: ", ") + "}"), "written straight")
    }

    /// Each is refused by the reader, or written another way (binary, the last of two
    /// keys): the values' way must take it.
    func testWhatIsLeftToTheValues() {
        let refused = [
            "", "[]", "{}", "1", #"{"a": 1} x"#, #"{"a": 1"#, #"{"a" 1}"#, #"{"a": 1,}"#, #"{"a": null}"#,
            #"{"a": "\u0001"}"#, #"{"\b": 1}"#, #"{"a": "\u0000"}"#, "{\"a\": \"\u{1}\"}",
            #"{"a": {"$date": "2001-01-01T00:00:00.5Z"}}"#, #"{"a": {"$date": 5}}"#, #"{"a": {"$date": "x"}}"#,
            #"{"a": {"$dict": {"$date": 1}}}"#, #"{"$dict": {"a": 1}}"#, #"{"a": 1, "a": 2}"#,
            #"{"a": {"b": 1, "b": 2}}"#, #"{"b": 1, "a": 2, "b": 3}"#, #"{"a": {"$data": "!"}}"#,
            #"{"a": {"$real": "1.5"}}"#, #"{"a": {"$date": "2023-02-29T00:00:00Z"}}"#,
            #"{"a": {"$date": "2024-01-01T24:00:00Z"}}"#, #"{"a": {"$date": "2024-01-01T00:00:60Z"}}"#,
            #"{"a": {"$what": 1}}"#, #"{"$date": "2001-01-01T00:00:00Z"}"#,
            #"{"a": {"$date": "2001-01-01T00:00:00Z", "b": 1}}"#, #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": -}"#,
            #"{"a": 1e}"#, #"{"a": 18446744073709551616}"#, #"{"a": 1e309}"#, #"{"a": "\ud83d"}"#,
            #"{"a": "\ude00"}"#, #"{"a": "\x"}"#, #"{"a": "\u12"}"#, #"{"a": tru}"#, #"{"a": [1 2]}"#,
            #"{"a": "unterminated}"#,
            // Deeper than 64 levels: the readers count depth.
            String(repeating: "{\"a\": [", count: 40) + "1" + String(repeating: "]}", count: 40),
        ]
        for text in refused { XCTAssertFalse(check(text), "left to the values: \(text)") }
        // Invalid UTF-8, in a key and in a value.
        for bytes: [UInt8] in [
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D],
        ] {
            XCTAssertNil(JSONReader.encodedDomain(bytes))
        }
    }

    /// Random documents, and the same with bytes broken: written straight, or not at all.
    func testRandomDocumentsBothWays() {
        var random = RandomJSON(rng: SplitMix(state: 43))
        var straight = 0, broken = 0
        for _ in 0..<500 {
            let text = random.document()
            if check(text) { straight += 1 }
            for _ in 0..<4 {
                var bytes = Array(text.utf8)
                let at = random.int(bytes.count)
                let edits: [UInt8] = Array(#""\{}[],:0.-e$n"#.utf8) + [0x01, 0xFF, 0xC3, 0x20]
                switch random.int(3) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(edits[random.int(edits.count)], at: at)
                default: bytes[at] = edits[random.int(edits.count)]
                }
                if check(String(decoding: bytes, as: UTF8.self)) { broken += 1 }
            }
        }
        XCTAssertGreaterThan(straight, 300, "most documents are written straight")
        XCTAssertGreaterThan(broken, 50, "and some with a byte changed")
    }
}

/// Random JSON as people and programs write it: keys in any order and sometimes twice,
/// escapes spelled every way, numbers in every form, space anywhere, and the tags.
private struct RandomJSON {
    var rng: SplitMix

    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<max(n, 1), using: &rng) }
    mutating func pick(_ options: [String]) -> String { options[int(options.count)] }
    mutating func space() -> String { pick(["", "", "", " ", "\n  ", "\t", "\r\n"]) }

    mutating func document() -> String {
        space() + object(depth: 0) + space()
    }

    mutating func object(depth: Int) -> String {
        let n = depth == 0 ? 1 + int(8) : int(4)
        let members = (0..<n).map { _ in space() + string(key: true) + space() + ":" + value(depth: depth + 1) }
        return "{" + members.joined(separator: ",") + space() + "}"
    }

    mutating func value(depth: Int) -> String {
        let text: String
        switch int(depth > 3 ? 7 : 9) {
        case 0: text = pick(["true", "false"])
        case 1, 2: text = number()
        case 3, 4: text = string(key: false)
        case 5: text = tag()
        case 6: text = pick(["[]", "{}", "[1]"])
        case 7: text = "[" + (0..<int(4)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + space() + "]"
        default: text = object(depth: depth)
        }
        return space() + text + space()
    }

    mutating func number() -> String {
        switch int(3) {
        case 0:
            pick([
                "0", "-0", "7", "-12", "18446744073709551615", "-9223372036854775808", "1.5", "-0.0", "1e2", "1E+2",
                "2.5e-3", "0.1", "123456789.123456789", "1e308", "4.9e-324", "0.14285714285714285", "100.0",
            ])
        case 1: String(Int.random(in: -1_000_000...1_000_000, using: &rng))
        default: "\(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF))"
        }
    }

    mutating func string(key: Bool) -> String {
        let pieces = [
            "a", "b", "Z", "key", " ", "&", "<", ">", "é", "😀", #"\u00e9"#, #"\n"#, #"\t"#, #"\r"#, #"\""#, #"\\"#,
            #"\/"#, #"\ud83d\ude00"#, #"\u0041"#, "$", "日本",
        ]
        // Keys of a few pieces: now and then the same key twice in an object.
        let n = key ? int(5) : int(6)
        return "\"" + (0..<n).map { _ in pick(key ? Array(pieces.prefix(8)) : pieces) }.joined() + "\""
    }

    mutating func tag() -> String {
        switch int(3) {
        case 0:
            // Whole seconds, and now and then a fraction (binary only: the values' way).
            let seconds = Double(Int.random(in: -60_000_000_000...250_000_000_000, using: &rng))
            let date = PlistValue.date(PlistDate(secondsSince2001: seconds + (int(10) == 0 ? 0.5 : 0)))
            return String(decoding: JSONWriter.encode(date), as: UTF8.self)
        case 1:
            let data = PlistValue.data((0..<int(40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            return String(decoding: JSONWriter.encode(data), as: UTF8.self)
        default: return "{\"$real\":\"" + pick(["nan", "inf", "+inf", "-inf"]) + "\"}"
        }
    }
}
