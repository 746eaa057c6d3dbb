import Foundation
import PlistModel
import XCTest

@testable import DesktopSettings

/// GVariant's text, printed and read as GLib does: each line of `printing.tsv` is a text
/// `dconf write` took and what `dconf read` then printed (or `!` and its refusal).
final class VariantTextTests: XCTestCase {
    func testPrintsWhatDconfPrints() throws {
        let cases = try Fixture.pairs("printing.tsv")
        XCTAssertGreaterThan(cases.count, 60)
        for (input, printed) in cases {
            if printed.hasPrefix("!") {
                XCTAssertThrowsError(try VariantParser.parse(input, as: nil), input)
                continue
            }
            let value = try VariantParser.parse(input, as: nil)
            XCTAssertEqual(value.gvariantText, printed, input)
            // What it prints reads back as the same value.
            XCTAssertEqual(try VariantParser.parse(printed, as: value.type), value, printed)
        }
    }

    func testGeneralFormatIsPrintfs() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0.1, 1e-5, 1e100, 123456789.123, 9.999999999999999e22, .leastNonzeroMagnitude, 1e17, 1e16, 0.0001,
        ]
        // Any double, and many in the range settings hold.
        for _ in 0..<300 { values.append(Double(bitPattern: generator.next())) }
        for _ in 0..<3_000 { values.append(Double.random(in: -1e6...1e6) * [1e-12, 1e-3, 1, 1e9].randomElement()!) }
        for value in values where value.isFinite && value != 0 {
            XCTAssertEqual(CFormat.general(value), String(format: "%.17g", value), "\(value)")
        }
    }

    func testTypesParseAndPrint() {
        for text in ["b", "as", "a{sv}", "(ii)", "mmi", "a(sa{sv})", "()", "ay", "v", "{sv}"] {
            XCTAssertEqual(VariantType(text)?.text, text)
        }
        for bad in ["", "a", "(i", "{vs}", "z", "ii", String(repeating: "a", count: 100) + "i"] {
            XCTAssertNil(VariantType(bad), bad)
        }
    }

    func testRefusesWhatTheTypeCannotHold() {
        XCTAssertThrowsError(try VariantParser.parse("-1", as: .basic(UInt8(ascii: "u"))))
        XCTAssertThrowsError(try VariantParser.parse("4294967296", as: .basic(UInt8(ascii: "u"))))
        XCTAssertThrowsError(try VariantParser.parse("256", as: .basic(UInt8(ascii: "y"))))
        XCTAssertThrowsError(try VariantParser.parse("'x'", as: .int32))
        XCTAssertThrowsError(try VariantParser.parse("(1, 2, 3)", as: VariantType("(ii)")))
        XCTAssertThrowsError(try VariantParser.parse("'not/a path'", as: .basic(UInt8(ascii: "o"))))
        XCTAssertThrowsError(try VariantParser.parse("[", as: nil))
        XCTAssertThrowsError(try VariantParser.parse("'open", as: nil))
        XCTAssertThrowsError(try VariantParser.parse(String(repeating: "[", count: 500), as: nil))
        XCTAssertEqual(
            try VariantParser.parse("4294967295", as: .basic(UInt8(ascii: "u"))),
            .unsigned(4_294_967_295, UInt8(ascii: "u")))
    }
}
