import XCTest
@testable import SettingsCore

final class OpenStepTests: XCTestCase {
    private func read(_ text: String) throws -> PlistValue { try OpenStepReader.read(Array(text.utf8)) }

    func testSyntax() throws {
        XCTAssertEqual(try read("{ a = 1; b = (x, \"y z\", ); c = { d = <0a0B 0c>; }; }"), .dict([
            "a": .string("1"), "b": .array([.string("x"), .string("y z")]),
            "c": .dict(["d": .data([10, 11, 12])]),
        ]))
        XCTAssertEqual(try read("()"), .array([]))
        XCTAssertEqual(try read("{}"), .dict(PlistDictionary()))
        XCTAssertEqual(try read("bare/path:x.y-z_$"), .string("bare/path:x.y-z_$"))
        XCTAssertEqual(try read("{ key; }"), .dict(["key": .string("key")]))
        XCTAssertEqual(try read("// line\n{ /* block */ a = b; // end\n}"), .dict(["a": .string("b")]))
        XCTAssertEqual(try read("a = b;\n\"c\" = \"d\";"), .dict(["a": .string("b"), "c": .string("d")]))
        XCTAssertEqual(try read("'single'"), .string("single"))
    }

    func testEscapes() throws {
        XCTAssertEqual(try read(#""a\nb\tc\"d\\e\U00e9\101\341\Ud83d\Ude00""#), .string("a\nb\tc\"d\\eéAÆ😀"), "\\341 is Æ in NeXTSTEP")
    }

    func testErrorsNameTheLine() {
        let bad: [(String, Int)] = [
            ("{\n a = b\n}", 3), ("(a, b", 1), ("\"unterminated", 1), ("{ a = <0g>; }", 1), ("{ a = b; } extra", 1),
            ("/* open", 1), ("", 1), ("(a b)", 1), ("{ = b; }", 1), ("<0a0>", 1), ("\"\\Ud83d\"", 1),
        ]
        for (text, line) in bad {
            XCTAssertThrowsError(try read(text), text) { error in
                switch error as? PlistError {
                case .malformed(.openStep, _, let l)?: XCTAssertEqual(l, line, text)
                default: XCTFail("\(text): \(error)")
                }
            }
        }
    }

    func testDeepNestingFailsCleanly() {
        XCTAssertThrowsError(try read(String(repeating: "(", count: 200_000))) { error in
            guard case .tooDeep(.openStep, _, _)? = error as? PlistError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try read(String(repeating: "{a=", count: 200_000)))
    }

    func testLiteralsOnTheCommandLine() throws {
        XCTAssertEqual(try CommandLineValue.literal("<0a0b>"), .data([10, 11]))
        XCTAssertEqual(try CommandLineValue.literal("<true/>"), .bool(true))
        XCTAssertEqual(try CommandLineValue.literal("<integer>5</integer>"), .int(5))
        XCTAssertEqual(try CommandLineValue.literal("<dict><key>a</key><real>1.5</real></dict>"), .dict(["a": .double(1.5)]))
        XCTAssertEqual(try CommandLineValue.literal(#"{"enabled" = 1;"name" = "APPLICATIONS";}"#),
                       .dict(["enabled": .string("1"), "name": .string("APPLICATIONS")]))
        XCTAssertEqual(PropertyList.sniff(Array("<dead beef>".utf8)), .openStep)
        XCTAssertEqual(PropertyList.sniff(Array("<array/>".utf8)), .xml)
        XCTAssertEqual(PropertyList.sniff(Array("<date>2020-01-01T00:00:00Z</date>".utf8)), .xml)
    }
}
