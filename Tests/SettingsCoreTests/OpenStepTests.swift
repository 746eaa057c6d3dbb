import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class OpenStepTests: XCTestCase {
    private func read(_ text: String) throws -> PlistValue { try OpenStepReader.read(Array(text.utf8)) }

    func testSyntax() throws {
        XCTAssertEqual(
            try read("{ a = 1; b = (x, \"y z\", ); c = { d = <0a0B 0c>; }; }"),
            .dict([
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
        XCTAssertEqual(
            try read(#""a\nb\tc\"d\\e\U00e9\101\341\Ud83d\Ude00""#), .string("a\nb\tc\"d\\eéAÆ😀"),
            "\\341 is Æ in NeXTSTEP")
    }

    func testErrorsNameTheLine() {
        let bad: [(String, PlistError.OpenStepCode, line: Int)] = [
            ("{\n a = b\n}", .expectedSemicolon(key: "a"), 3), ("(a, b", .unterminatedArray, 1),
            ("(a,", .unterminatedArray, 1),
            ("\"unterminated", .unterminatedString, 1), ("\n'open", .unterminatedString, 2),
            ("{ a = <0g>; }", .invalidDataCharacter, 1),
            ("{ a = <0a", .unterminatedData, 1), ("{ a = b; } extra", .textAfterValue, 1),
            ("/* open", .unterminatedComment, 1), ("/*/", .unterminatedComment, 1),
            // A string or comment that runs on is named by the line it starts on.
            ("(a,\n\"b\nc\nd", .unterminatedString, 2), ("(a,\n/* b\nc\nd", .unterminatedComment, 2),
            ("(a, /* x\n*/ b) junk", .textAfterValue, 2), ("// only a comment", .noValue, 1),
            ("", .noValue, 1), ("(a b)", .expectedCommaOrParenthesis, 1),
            ("{ = b; }", .unexpectedCharacter(UInt8(ascii: "=")), 1),
            ("<0a0>", .oddHexDigits, 1), ("\"\\Ud83d\"", .unpairedSurrogate, 1),
            ("\"\\Ud83dx\"", .unpairedSurrogate, 1),
            ("\"\\Uzz\"", .escapeWithoutDigits, 1), ("{ a", .expectedEqualsOrSemicolon(key: "a"), 1),
            ("{ a : b; }", .expectedEquals(key: "a"), 1),
            ("{ a = b", .unexpectedEnd, 1), ("{ a = b;", .unterminatedDictionary, 1), ("{ a = ", .unexpectedEnd, 1),
            ("a = b", .unexpectedEnd, 1),
            ("{ a = \u{1}; }", .unexpectedCharacter(1), 1),
        ]
        for (text, code, line) in bad {
            XCTAssertThrowsError(try read(text), text) { error in
                XCTAssertEqual(error as? PlistError, .openStep(code, line: line), text)
            }
        }
        XCTAssertEqual(
            PlistError.openStep(.unexpectedCharacter(1), line: 2).message, "OpenStep line 2: unexpected byte 0x01")
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
        XCTAssertEqual(
            try CommandLineValue.literal("<dict><key>a</key><real>1.5</real></dict>"), .dict(["a": .double(1.5)]))
        XCTAssertEqual(
            try CommandLineValue.literal(#"{"enabled" = 1;"name" = "APPLICATIONS";}"#),
            .dict(["enabled": .string("1"), "name": .string("APPLICATIONS")]))
        XCTAssertEqual(PropertyList.sniff(Array("<dead beef>".utf8)), .openStep)
        XCTAssertEqual(PropertyList.sniff(Array("<array/>".utf8)), .xml)
        XCTAssertEqual(PropertyList.sniff(Array("<date>2020-01-01T00:00:00Z</date>".utf8)), .xml)
    }
}
