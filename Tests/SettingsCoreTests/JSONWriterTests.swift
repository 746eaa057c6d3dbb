import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class JSONWriterTests: XCTestCase {
    private func json(_ value: PlistValue, pretty: Bool = false) -> String {
        String(decoding: JSONWriter.encode(value, pretty: pretty), as: UTF8.self)
    }

    func testScalarsKeepTheirTypes() {
        XCTAssertEqual(json(.int(1)), "1")
        XCTAssertEqual(json(.double(1)), "1.0")
        XCTAssertEqual(json(.double(-0.0)), "-0.0")
        XCTAssertEqual(json(.double(1e-300)), "1e-300")
        XCTAssertEqual(json(.double(0.1)), "0.1")
        XCTAssertEqual(json(.float(75.1)), "75.1")
        XCTAssertEqual(json(.int(.min)), "-9223372036854775808")
        XCTAssertEqual(json(.int(PlistInteger(unsigned: .max))), "18446744073709551615")
        XCTAssertEqual(json(.bool(false)), "false")
        XCTAssertEqual(json(.string("a\"b\\c\n\u{1}é")), #""a\"b\\c\n\u0001é""#)
    }

    /// Strings are scanned eight bytes at a time: every byte that must be escaped, at
    /// every place in a word and past it, against the escaping done byte by byte.
    func testEveryByteIsEscapedWhereverItIs() {
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for b in bytes {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), b]
                case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
                case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
                case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
                case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
                default: out.append(b)
                }
            }
            return out + [UInt8(ascii: "\"")]
        }
        assertEveryByte(
            inPrefixesOf: Array("abcdefghijklmnopqrstuvwxyz".utf8), lengths: [0, 1, 7, 8, 9, 16, 17, 23],
            JSONWriter.appendString, equals: expected)
    }

    func testWhatJSONCannotSayIsTagged() {
        XCTAssertEqual(json(.double(.nan)), #"{"$real":"nan"}"#)
        XCTAssertEqual(json(.double(-.infinity)), #"{"$real":"-inf"}"#)
        XCTAssertEqual(json(.data([])), #"{"$data":""}"#)
        XCTAssertEqual(json(.data([0, 1, 2, 255])), #"{"$data":"AAEC/w=="}"#)
        XCTAssertEqual(
            json(.date(PlistDate(CivilTime(year: 2024, month: 1, day: 2, hour: 3, minute: 4, second: 5)))),
            #"{"$date":"2024-01-02T03:04:05Z"}"#)
        // A dictionary that looks like a tag is wrapped, so it reads back as a dictionary.
        XCTAssertEqual(json(.dict(["$date": .string("x")])), #"{"$dict":{"$date":"x"}}"#)
        XCTAssertEqual(json(.dict(["$date": .string("x"), "b": .int(1)])), #"{"$date":"x","b":1}"#)
    }

    func testDictionariesKeepTheDomainsOrder() {
        let dict = PlistDictionary(entries: [
            .init(key: "z", value: .int(1)), .init(key: "a", value: .int(2)),
            .init(key: "z", value: .int(3)),
        ])
        XCTAssertEqual(json(.dict(dict)), #"{"a":2,"z":3}"#)
        XCTAssertEqual(json(.dict(["b": .int(1), "a": .array([])])), #"{"b":1,"a":[]}"#)
    }

    func testPrettyIsJqsLayout() {
        let value = PlistValue.dict([
            "a": .array([.int(1), .dict([:])]), "b": .dict(["$x": .bool(true)]), "c": .double(.nan),
        ])
        XCTAssertEqual(
            json(value, pretty: true),
            """
            {
              "a": [
                1,
                {}
              ],
              "b": {
                "$dict": {
                  "$x": true
                }
              },
              "c": {
                "$real": "nan"
              }
            }
            """)
    }

    func testDatesNameTheirFractionInTheFewestDigits() {
        func text(_ seconds: Double) -> String? { RFC3339.text(PlistDate(secondsSince2001: seconds)) }
        XCTAssertEqual(text(0), "2001-01-01T00:00:00Z")
        XCTAssertEqual(text(0.5), "2001-01-01T00:00:00.5Z")
        XCTAssertEqual(text(-0.25), "2000-12-31T23:59:59.75Z")
        XCTAssertEqual(text(725_857_445.123), "2024-01-02T03:04:05.123Z")
        XCTAssertEqual(text(-978_307_200), "1970-01-01T00:00:00Z")
        XCTAssertNil(text(.nan))
        XCTAssertNil(text(1e15))
        // A date RFC 3339 cannot name keeps its seconds.
        XCTAssertEqual(json(.date(PlistDate(secondsSince2001: 1e15))), #"{"$date":1000000000000000.0}"#)
    }

    func testDatesReadBackBitForBit() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = [
            0, 0.5, -0.5, -1e-9, 1e-9, Double.leastNonzeroMagnitude, -978_307_200.000001, 725_857_445.123, 2.5e11,
        ]
        for _ in 0..<20_000 {
            let scale = [1.0, 1e3, 1e6, 1e9, 3e10][Int.random(in: 0..<5, using: &generator)]
            samples.append(Double.random(in: -scale...scale, using: &generator))
        }
        for seconds in samples {
            guard let text = RFC3339.text(PlistDate(secondsSince2001: seconds)) else { XCTFail("\(seconds)"); continue }
            let back = RFC3339.parse(Array(text.utf8))
            XCTAssertEqual(back?.secondsSince2001.bitPattern, seconds.bitPattern, "\(seconds) -> \(text)")
        }
    }

    func testRFC3339ReadsOffsetsAndRefusesNonsense() {
        let utc = RFC3339.parse(Array("2024-01-02T03:04:05Z".utf8))
        XCTAssertEqual(RFC3339.parse(Array("2024-01-02T05:04:05+02:00".utf8)), utc)
        XCTAssertEqual(RFC3339.parse(Array("2024-01-02t03:04:05.000z".utf8)), utc)
        for bad in [
            "2024-01-02", "2024-13-02T03:04:05Z", "2024-02-30T03:04:05Z", "2024-01-02T03:04:05",
            "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05Zjunk", "x",
        ] {
            XCTAssertNil(RFC3339.parse(Array(bad.utf8)), bad)
        }
    }
}
