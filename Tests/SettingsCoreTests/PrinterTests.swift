import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class PrinterTests: XCTestCase {
    /// The layout of SPEC §4, character for character.
    func testNestedDomainLayout() {
        let domain: PlistDictionary = [
            "Name": .string("Keynote"), "count": .int(42), "dashed": .string("en-CN"),
            "langs": .array([.string("en-CN"), .string("en")]), "ratio": .double(0.5),
            "tile": .dict(["tile-type": .string("file-tile")]),
            "when": .date(PlistDate(CivilTime(year: 2020, month: 10, day: 10, hour: 6, minute: 15, second: 40))),
        ]
        let expected = """
            {
                Name = Keynote;
                count = 42;
                dashed = "en-CN";
                langs =     (
                    "en-CN",
                    en
                );
                ratio = "0.5";
                tile =     {
                    "tile-type" = "file-tile";
                };
                when = "2020-10-10 06:15:40 +0000";
            }

            """
        XCTAssertEqual(String(decoding: DefaultsPrinter.render(.dict(domain)), as: UTF8.self), expected)
    }

    func testScalarsAndQuoting() {
        let cases: [(PlistValue, String)] = [
            (.bool(true), "1"), (.int(-3), "-3"), (.double(0.25), "0.25"), (.string("a b"), "a b"),
            (.data([0, 255, 16]), "{length = 3, bytes = 0x00ff10}"), (.string("é"), "é"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(String(decoding: DefaultsPrinter.renderBare(value), as: UTF8.self), text + "\n")
        }
        let inArray = DefaultsPrinter.render(
            .array([.int(-3), .string("q\"\\\n\t"), .string(""), .array([]), .data([1])]))
        XCTAssertEqual(
            String(decoding: inArray, as: UTF8.self),
            "(\n    \"-3\",\n    \"q\\\"\\\\\\n\\t\",\n    \"\",\n        (\n    ),\n    {length = 1, bytes = 0x01}\n)\n"
        )
    }

    func testDataIsPrintedInFull() {
        let text = String(
            decoding: DefaultsPrinter.renderBare(.data(Array(repeating: 0xAB, count: 100))), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{length = 100, bytes = 0x"))
        XCTAssertEqual(text.filter { $0 == "b" }.count, 101)
    }
}
