import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class TypeTableTests: XCTestCase {
    private func parse(_ flag: String, _ text: String, line: UInt = #line) -> PlistValue? {
        guard let (row, _) = TypeTable.row(forFlag: flag) else { XCTFail("no row for \(flag)", line: line); return nil }
        return row.parse?(text)
    }

    /// The type table owns every type word: read-type's, the schema's, and the phrase with
    /// its article that messages use (issue 20: they were in five places).
    func testEveryTypeWordComesFromTheTable() {
        let samples: [PlistValue] = [
            .bool(true), .int(1), .float(1), .double(1), .string("s"), .data([1]),
            .date(PlistDate(secondsSince2001: 0)), .array([]), .dict([:]),
        ]
        XCTAssertEqual(
            samples.map { TypeTable.row(for: $0).schemaWord },
            ["boolean", "integer", "real", "real", "string", "data", "date", "array", "dictionary"])
        XCTAssertEqual(
            samples.map { TypeTable.row(for: $0).phrase },
            [
                "a boolean", "an integer", "a float", "a float", "a string", "a data", "a date", "an array",
                "a dictionary",
            ])
        for type in SchemaType.allCases {
            XCTAssertEqual(samples.filter(type.matches).map { TypeTable.row(for: $0).schemaWord }.first, type.rawValue)
            XCTAssertEqual(samples.filter(type.matches).count, type == .real ? 2 : 1, type.rawValue)
        }
        XCTAssertEqual(SchemaType.integer.phrase, "an integer")
        XCTAssertEqual(SchemaType.real.phrase, "a real")
        XCTAssertEqual(
            StoreError.notADictionary(path: "/p", .array).message,
            "cannot use /p: its root is an array, not a dictionary")
    }

    func testUnicodeEscapesInUntypedText() {
        let rows: [(String, String, UInt)] = [
            (#"@\U21a9"#, "@\u{21A9}", #line), (#"\U232B"#, "\u{232B}", #line),
            (#"\Ud83d\Ude00!"#, "\u{1F600}!", #line),
            (#"x\U00e9y\U00E9"#, "xéyé", #line), (#"C:\Users\me"#, #"C:\Users\me"#, #line),
            (#"a\nb\\"#, #"a\nb\\"#, #line),
            (#"\U21"#, #"\U21"#, #line), (#"\u21a9"#, #"\u21a9"#, #line), (#"\Ud800"#, #"\Ud800"#, #line),
            (#"\Udc00\Ud83d"#, #"\Udc00\Ud83d"#, #line), (#"\U0001\U0000"#, #"\U0001\U0000"#, #line),
            (#"\U0009"#, "\t", #line), (#"\Uffff"#, #"\Uffff"#, #line), ("plain", "plain", #line), ("", "", #line),
        ]
        for (text, expected, line) in rows {
            XCTAssertEqual(CommandLineText.unicodeEscapesDecoded(text), expected, text, line: line)
        }
    }

    func testEveryTypeHasOneRow() {
        XCTAssertEqual(TypeTable.rows.map(\.type), ValueType.allCases)
        XCTAssertEqual(Set(TypeTable.allFlags).count, TypeTable.allFlags.count)
    }

    func testAcceptedText() {
        let rows: [(String, String, PlistValue, UInt)] = [
            ("-bool", "YES", .bool(true), #line), ("-boolean", "false", .bool(false), #line),
            ("-bool", "1", .bool(true), #line),
            ("-int", "-9223372036854775808", .int(Int64.min), #line), ("-integer", "+42", .int(42), #line),
            ("-float", "75.1", .float(75.1), #line), ("-double", "-0.0", .double(-0.0), #line),
            ("-double", "1e-300", .double(1e-300), #line), ("-string", "-not a flag", .string("-not a flag"), #line),
            ("-data", "0A0b", .data([10, 11]), #line), ("-data", "", .data([]), #line),
            ("-date", "2020-10-10 06:15:40 +0000", .date(PlistDate(unixSeconds: 1_602_310_540)), #line),
            ("-date", "2020-10-10T06:15:40Z", .date(PlistDate(unixSeconds: 1_602_310_540)), #line),
            ("-date", "2020-10-10 08:15:40 +0200", .date(PlistDate(unixSeconds: 1_602_310_540)), #line),
        ]
        for (flag, text, expected, line) in rows {
            XCTAssertEqual(parse(flag, text), expected, "\(flag) \(text)", line: line)
        }
    }

    /// Junk is nil, never a default value.
    func testJunkIsRefused() {
        let rows: [(String, String, UInt)] = [
            ("-bool", "maybe", #line), ("-bool", "", #line), ("-int", "abc", #line), ("-int", "1.5", #line),
            ("-int", "9223372036854775808", #line), ("-int", "", #line), ("-int", "0x10", #line),
            ("-float", "1e39", #line), ("-float", "nan", #line), ("-double", "inf", #line), ("-double", "1e400", #line),
            ("-double", "", #line), ("-data", "zz", #line), ("-data", "abc", #line), ("-date", "yesterday", #line),
            ("-date", "2020-02-30 00:00:00 +0000", #line), ("-date", "2020-10-10 25:00:00", #line),
        ]
        for (flag, text, line) in rows {
            XCTAssertNil(parse(flag, text), "\(flag) \(text)", line: line)
        }
    }

    func testReadTypeWords() {
        XCTAssertEqual(TypeTable.row(for: .float(1)).word, "float")
        XCTAssertEqual(TypeTable.row(for: .double(1)).word, "float")
        XCTAssertEqual(TypeTable.row(for: .dict(PlistDictionary())).word, "dictionary")
        XCTAssertEqual(TypeTable.row(for: .bool(true)).word, "boolean")
    }

    func testLocalTimeUsesTZ() {
        // Without a zone a date is local time; TZ is read by the C library.
        setenv("TZ", "UTC+2", 1)
        tzset()
        defer { unsetenv("TZ"); tzset() }
        XCTAssertEqual(parse("-date", "2020-10-10 04:15:40"), .date(PlistDate(unixSeconds: 1_602_310_540)))
    }

    func testCivilDates() {
        for civil in [
            CivilTime(year: 1900, month: 1, day: 1),
            CivilTime(year: 3000, month: 12, day: 31, hour: 23, minute: 59, second: 59),
            CivilTime(year: 2000, month: 2, day: 29, hour: 12),
        ] {
            XCTAssertEqual(PlistDate(civil).components, civil)
        }
        XCTAssertEqual(
            PlistDate(secondsSince2001: -0.5).components,
            CivilTime(year: 2000, month: 12, day: 31, hour: 23, minute: 59, second: 59))
    }
}
