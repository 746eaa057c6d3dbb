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

    /// Each text is classed in one pass over its bytes: every byte, at every place, bare,
    /// quoted or escaped as the rule says byte by byte.
    func testEveryByteIsQuotedAsTheRuleSays() {
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            let bare =
                !bytes.isEmpty
                && bytes.allSatisfy { b in
                    (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                }
            if bare { return bytes }
            var out: [UInt8] = [0x22]
            for b in bytes {
                switch b {
                case 0x22, 0x5C: out += [0x5C, b]
                case 0x0A: out += [0x5C, UInt8(ascii: "n")]
                case 0x09: out += [0x5C, UInt8(ascii: "t")]
                default: out.append(b)
                }
            }
            return out + [0x22]
        }
        assertEveryByte(
            inPrefixesOf: Array("abcdefghi".utf8), lengths: [0, 1, 2, 9], DefaultsPrinter.appendQuoted,
            equals: expected)
    }

    func testDataIsPrintedInFull() {
        let text = String(
            decoding: DefaultsPrinter.renderBare(.data(Array(repeating: 0xAB, count: 100))), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{length = 100, bytes = 0x"))
        XCTAssertEqual(text.filter { $0 == "b" }.count, 101)
    }
}
