import Foundation
import XCTest

@testable import PlistModel
@testable import PlistTools
import TestSupport

/// plutil's printed forms: `-p`, `raw`, JSON, literals, and the order of keys they share.
final class PlutilTextTests: XCTestCase {
    /// `%f` as C's printf writes it, on every kind of double: ties at the sixth decimal go
    /// to even on the binary value (0.0078125 is 0.007812), huge ones print every digit.
    func testFixedIsCsPercentF() {
        var random = SplitMix(state: 7)
        var values: [Double] = [
            0, -0.0, 0.0078125, 0.5e-6, 1.5e-6, 2.5, 1e20, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
            123456.7890125, 0.1, 1 / 3,
        ]
        for _ in 0..<2000 { values.append(Double(bitPattern: random.next())) }
        for value in values where value.isFinite {
            XCTAssertEqual(CFormat.fixed(value, decimals: 6), String(format: "%f", value), "\(value)")
        }
    }

    /// Finder's order: numbers by value, case ignored, accents after their letter, space
    /// and punctuation before digits before letters.
    func testKeysSortAsFinderSortsNames() {
        let sorted = ["z", "é", "e", "a10", "a9", "B", "a", "_x", "1", " y", "E", "ez"].sorted(by: PlutilText.precedes)
        XCTAssertEqual(sorted, [" y", "_x", "1", "a", "a9", "a10", "B", "E", "e", "é", "ez", "z"])
    }

    /// `-p` as macOS prints it: data with two hex digits a byte, and from 25 bytes the first
    /// and last 8 (Apple's Linux port drops the leading zeros, swift-corelibs-foundation#5284, PR #5421).
    func testPrintShowsDataAsMacOSDoes() {
        let value: PlistValue = .dict([
            "short": .data([0x01, 0xAB]), "long": .data(Array(0..<30)), "n": .array([1, .double(1), "s"]),
        ])
        XCTAssertEqual(
            PlutilText.printed(value),
            """
            {
              "long" => {length = 30, bytes = 0x0001020304050607... 161718191a1b1c1d}
              "n" => [
                0 => 1
                1 => 1.0
                2 => "s"
              ]
              "short" => {length = 2, bytes = 0x01ab}
            }

            """)
    }

    func testRawIsAScalarsTextAKeysListOrACount() {
        XCTAssertEqual(PlutilText.raw(.dict(["b": 1, "a10": 2, "a9": 3])), "a9\na10\nb")
        XCTAssertEqual(PlutilText.raw(.array([1, 2])), "2")
        XCTAssertEqual(PlutilText.raw(.double(1.5)), "1.500000")
        XCTAssertEqual(PlutilText.raw(.data([1, 2, 3])), "AQID")
        XCTAssertEqual(PlutilText.raw(.date(PlistDate(secondsSince2001: 0))), "2001-01-01T00:00:00Z")
        XCTAssertEqual(PlutilText.raw(.bool(false)), "false")
    }

    /// JSON as Foundation writes it: `/` escaped, empty containers indented with an empty
    /// line, no newline at the end; a scalar root, a date or data refused.
    func testJSONIsFoundationsAndRefusesWhatJSONCannotSay() throws {
        let value: PlistValue = .dict(["p": "a/b", "e": .array([]), "d": .dict([:]), "r": .double(1), "i": -3])
        XCTAssertEqual(
            String(decoding: try PlutilOutput.encode(value, as: .json, readable: true), as: UTF8.self),
            "{\n  \"d\" : {\n\n  },\n  \"e\" : [\n\n  ],\n  \"i\" : -3,\n  \"p\" : \"a\\/b\",\n  \"r\" : 1\n}")
        XCTAssertThrowsError(try PlutilOutput.encode(.string("x"), as: .json)) {
            XCTAssertEqual($0 as? PlutilError, .notForJSON(datesOrData: false))
        }
        XCTAssertThrowsError(try PlutilOutput.encode(.array([.data([])]), as: .json)) {
            XCTAssertEqual($0 as? PlutilError, .notForJSON(datesOrData: true))
        }
    }

    /// Literals name their constant for the file, and escape every backslash (Apple's
    /// leaves a trailing one, which does not compile).
    func testLiteralsNameTheFileAndEscapeBackslashes() throws {
        let value: PlistValue = .dict(["k": "a\\", "n": 1])
        XCTAssertEqual(
            String(
                decoding: try PlutilOutput.encode(value, as: .swift, source: "dir/My-App Info.plist"), as: UTF8.self),
            "/// Generated from My-App Info.plist\nlet My_App_Info : [String : Any] = [\n    \"k\" : \"a\\\\\",\n    \"n\" : 1,\n]\n"
        )
        XCTAssertEqual(
            String(
                decoding: try PlutilOutput.encode(value, as: .objc, source: "Info.plist", output: "Info.m"),
                as: UTF8.self),
            "#import \"Info.h\"\n\n/// Generated from Info.plist\n__attribute__((visibility(\"hidden\")))\n"
                + "NSDictionary * const Info = @{\n    @\"k\" : @\"a\\\\\",\n    @\"n\" : @1,\n};\n")
        XCTAssertThrowsError(try PlutilOutput.encode(.array([.data([1])]), as: .objc))
    }

    /// -integer, -float and -bool read as Apple's do: the number at the start, else 0.
    func testValuesReadAsApplesDo() throws {
        XCTAssertEqual(try PlutilValue.parse(["-integer", " -7x"]).0, -7)
        XCTAssertEqual(try PlutilValue.parse(["-integer", "99999999999999999999"]).0, .int(PlistInteger(Int64.max)))
        XCTAssertEqual(try PlutilValue.parse(["-float", "2.5e1abc"]).0, .double(25))
        XCTAssertEqual(try PlutilValue.parse(["-float", "abc"]).0, .double(0))
        XCTAssertEqual(try PlutilValue.parse(["-bool", "Yes"]).0, true)
        XCTAssertEqual(try PlutilValue.parse(["-bool", "1"]).0, false)
        XCTAssertEqual(try PlutilValue.parse(["-data", "AQ ID\n"]).0, .data([1, 2, 3]))
        XCTAssertThrowsError(try PlutilValue.parse(["-date", "yesterday"]))
        XCTAssertEqual(try PlutilValue.parse(["-array", "ignored"]).1, 1)
        XCTAssertThrowsError(try PlutilValue.parse(["-string"])) {
            XCTAssertEqual($0 as? PlutilError, .insertNeedsArguments)
        }
    }

    func testTheCommandLineIsReadAsApplesIs() throws {
        let lint = try PlutilInvocation(["-s", "a.plist"])
        guard case .lint = lint.command else { return XCTFail("\(lint.command)") }
        XCTAssertTrue(lint.silent)
        XCTAssertEqual(try PlutilInvocation(["-p", "--", "-x"]).paths, ["-x"])
        XCTAssertThrowsError(try PlutilInvocation(["-p"])) { XCTAssertEqual($0 as? PlutilError, .noFiles) }
        XCTAssertThrowsError(try PlutilInvocation(["-lint", "-o", "x", "f"])) {
            XCTAssertEqual(($0 as? PlutilError)?.message, "-o is not used with -lint.")
        }
        let convert = try PlutilInvocation(["-convert", "swift", "-e", "txt", "dir.d/Info"])
        XCTAssertEqual(convert.destination(of: "dir.d/Info", format: .swift), "dir.swift")
        XCTAssertEqual(convert.destination(of: "Info.plist", format: .swift), "Info.swift")
    }
}
