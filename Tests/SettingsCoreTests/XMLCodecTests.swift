import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class XMLCodecTests: XCTestCase {
    static let edgeCases: PlistDictionary = [
        "int64Min": .int(Int64.min), "int64Max": .int(Int64.max), "uint64Max": .int(PlistInteger(unsigned: .max)),
        "negZero": .double(-0.0), "denormal": .double(Double.leastNonzeroMagnitude), "tiny": .double(1e-300),
        "float": .float(75.1),
        "emoji": .string("😀 Åbenraa 日本"), "": .string("empty key"), "escapes": .string("a&b<c>d\"e'f"),
        "bytes": .data((0...255).map { UInt8($0) }), "emptyData": .data([]),
        "date": .date(PlistDate(secondsSince2001: -3_155_760_000)), "yes": .bool(true), "no": .bool(false),
        "emptyArray": .array([]), "emptyDict": .dict(PlistDictionary()),
        "nested": .array([.int(1), .dict(["k": .array([.string("v")])])]),
    ]

    func testRoundTripIsExact() throws {
        let bytes = XMLWriter.encode(.dict(Self.edgeCases))
        var expected = Self.edgeCases
        // XML has one real type; a Float comes back as the Double of its shortest text.
        expected["float"] = .double(75.1)
        XCTAssertEqual(try XMLReader.read(bytes), .dict(expected))
        // Writing what was read gives the same bytes.
        XCTAssertEqual(XMLWriter.encode(try XMLReader.read(bytes)), bytes)
    }

    /// `&`, `<` and `>` escaped, found eight bytes at a time: every byte at every place,
    /// against escaping byte by byte (and a text with many of them).
    func testEscapingEveryByteAtEveryPlace() {
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            bytes.flatMap { b -> [UInt8] in
                switch b {
                case UInt8(ascii: "&"): Array("&amp;".utf8)
                case UInt8(ascii: "<"): Array("&lt;".utf8)
                case UInt8(ascii: ">"): Array("&gt;".utf8)
                default: [b]
                }
            }
        }
        assertEveryByte(
            inPrefixesOf: Array("abcdefghijklmnopqrstuvwxyz".utf8), lengths: [0, 1, 7, 8, 9, 16, 17, 23],
            XMLWriter.appendEscaped, equals: expected)
        let many = Array("<<a&&b>>&lt;<>&é".utf8) + Array(repeating: UInt8(ascii: ">"), count: 19)
        var out: [UInt8] = []
        many.withUnsafeBufferPointer { XMLWriter.appendEscaped($0, &out) }
        XCTAssertEqual(out, expected(many))
    }

    /// A byte XML cannot hold is found eight bytes at a time, and tabs and line breaks
    /// are not taken for one: every byte at every place, against the byte-by-byte test.
    func testUnwritableBytesAtEveryPlace() {
        forEveryByte(
            inPrefixesOf: Array("a\tb\nc\rdefghijklmnopqrstuvwxyz".utf8), lengths: [0, 1, 7, 8, 9, 16, 17, 23]
        ) {
            bytes, place, b in
            let found = bytes.withUnsafeBufferPointer(XMLWriter.hasUnwritable)
            guard found == bytes.contains(where: XMLWriter.isUnwritable) else {
                XCTFail("byte \(b) at \(place) of \(bytes.count)")
                return false
            }
            return true
        }
    }

    func testWritesWhatFoundationWritesByteForByte() throws {
        let url = Bundle.module.url(forResource: "Fixtures/foundation-written", withExtension: "plist")!
        let original = Array(try Data(contentsOf: url))
        let value = try XMLReader.read(original)
        guard case .dict(let dict) = value else { return XCTFail("root is not a dictionary") }
        XCTAssertEqual(dict["umax"], .int(PlistInteger(unsigned: .max)))
        XCTAssertEqual(dict["text"], .string("a&b<c>\"' tab\there"))
        XCTAssertEqual(dict[""], .string("empty key"))
        XCTAssertEqual(
            String(decoding: XMLWriter.encode(value), as: UTF8.self), String(decoding: original, as: UTF8.self))
    }

    func testRealsUseShortestText() {
        let cases: [(PlistValue, String)] = [
            (.double(75), "75"), (.double(0.5), "0.5"), (.double(-0.0), "-0"),
            (.double(Double.leastNonzeroMagnitude), "5e-324"),
            (.float(75.1), "75.1"), (.double(.infinity), "+infinity"), (.double(1e16), "1e+16"),
        ]
        for (value, text) in cases {
            let xml = String(decoding: XMLWriter.encode(value), as: UTF8.self)
            XCTAssertTrue(xml.contains("<real>\(text)</real>"), "\(value) wrote \(xml)")
        }
    }

    func testReadsReferencesCDATACommentsAndHex() throws {
        let xml = """
            <?xml version="1.0"?><!DOCTYPE plist SYSTEM "x.dtd"><plist version="1.0"><dict>
            <key>a&amp;b</key><string>&lt;&#x1F600;&#65;<![CDATA[<raw>&]]><!-- c --></string>
            <key><!-- empty --></key><integer> 0x1F</integer>
            <key>t</key><true></true></dict></plist>
            """
        let value = try XMLReader.read(Array(xml.utf8))
        XCTAssertEqual(value, .dict(["a&b": .string("<😀A<raw>&"), "": .int(31), "t": .bool(true)]))
    }

    func testReadsUTF16WithBOM() throws {
        let text = "<plist><dict><key>k</key><string>Å</string></dict></plist>"
        var le: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { le += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        XCTAssertEqual(try XMLReader.read(le), .dict(["k": .string("Å")]))
    }

    func testRefusesWhatIsNotAPlist() {
        let bad: [(String, String, PlistError)] = [
            (
                "<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><string>&a;</string></plist>", "entity",
                .entityDeclaration(line: 1)
            ),
            (
                "<plist><dict><key>a</key></dict></plist>", "key without value",
                .xml(.keyWithoutValue("a"), line: 1)
            ),
            (
                "<plist><array><key>a</key></array></plist>", "key in array",
                .xml(.keyOutsideDictionary, line: 1)
            ),
            (
                "<plist><integer>abc</integer></plist>", "bad integer",
                .xml(.invalidValue(element: "integer", text: "abc"), line: 1)
            ),
            (
                "<plist><integer>18446744073709551616</integer></plist>", "integer too big",
                .xml(.invalidValue(element: "integer", text: "18446744073709551616"), line: 1)
            ),
            (
                "<plist><integer></integer></plist>", "empty integer",
                .xml(.invalidValue(element: "integer", text: ""), line: 1)
            ),
            (
                "<plist><real></real></plist>", "empty real",
                .xml(.invalidValue(element: "real", text: ""), line: 1)
            ),
            (
                "<plist><data>!!!!</data></plist>", "bad base64",
                .xml(.invalidValue(element: "data", text: "!!!!"), line: 1)
            ),
            (
                "<plist><date>yesterday</date></plist>", "bad date",
                .xml(.invalidValue(element: "date", text: "yesterday"), line: 1)
            ),
            (
                "<plist><string>a</plist>", "unterminated",
                .xml(.expectedClosingTag("string"), line: 1)
            ),
            (
                "<plist><foo/></plist>", "unknown tag",
                .xml(.unknownTag("foo"), line: 1)
            ),
            (
                "<plist><string>a</string><string>b</string></plist>", "two roots",
                .xml(.moreThanOneValue, line: 1)
            ),
            (
                "<plist><string>&bogus;</string></plist>", "unknown entity",
                .xml(.unknownEntity("bogus"), line: 1)
            ),
            (
                "<plist><string>a &amp b</string></plist>", "unterminated reference",
                .xml(.unterminatedReference, line: 1)
            ),
            (
                "<plist></plist>", "empty plist",
                .xml(.plistHoldsNoValue, line: 1)
            ),
            // Fuzzer finding: a reference past UInt32 trapped while it was being accumulated.
            (
                "<plist><string>&#x1D562D562;</string></plist>", "hex reference beyond 32 bits",
                .xml(.referenceBeyondUnicode, line: 1)
            ),
            (
                "<plist><string>&#99999999999;</string></plist>", "decimal reference beyond 32 bits",
                .xml(.referenceBeyondUnicode, line: 1)
            ),
            (
                "<plist><string>&#x110000;</string></plist>", "reference beyond Unicode",
                .xml(.referenceBeyondUnicode, line: 1)
            ),
            (
                "<plist><string>&#xD800;</string></plist>", "reference to a surrogate",
                .xml(.referenceToNoCharacter, line: 1)
            ),
        ]
        for (xml, what, expected) in bad {
            XCTAssertThrowsError(try XMLReader.read(Array(xml.utf8)), what) {
                XCTAssertEqual($0 as? PlistError, expected, what)
            }
        }
        // U+FFFD is a character like any other (it sat in the list above, never run).
        XCTAssertEqual(try XMLReader.read(Array("<plist><string>\u{FFFD}</string></plist>".utf8)), .string("\u{FFFD}"))
        XCTAssertThrowsError(
            try XMLReader.read([
                0x3C, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x3E, 0x3C, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67,
                0x3E, 0xFF, 0x3C, 0x2F, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x3E,
            ]), "invalid UTF-8"
        ) { error in
            XCTAssertEqual(error as? PlistError, .invalidEncoding(.xml, line: 1))
        }
    }

    /// Tags spelled exactly are read as words; every other spelling byte by byte. Each
    /// kind in each spelling, far from the end and in the last eight bytes, reads the
    /// same values; a wrong or unknown name is refused the same way either way.
    func testTagsReadTheSameAsWordsOrByteByByte() throws {
        let values: [(String, PlistValue)] = [
            ("<string>s</string>", "s"), ("<string/>", ""), ("<integer>7</integer>", 7),
            ("<real>1.5</real>", 1.5), ("<true/>", true), ("<false/>", false), ("<true></true>", true),
            ("<date>2001-01-01T00:00:00Z</date>", .date(PlistDate(secondsSince2001: 0))),
            ("<data>AAE=</data>", .data([0, 1])), ("<array/>", []), ("<array><true/></array>", [true]),
            ("<dict/>", PlistValue.dict([:])), ("<dict><key>k</key><false/></dict>", PlistValue.dict(["k": false])),
        ]
        for (xml, value) in values {
            let loose = xml.replacingOccurrences(of: "/>", with: " />")
                .replacingOccurrences(of: "</string>", with: "</string >")
                .replacingOccurrences(of: "</integer>", with: "</integer\n>")
                .replacingOccurrences(of: "</dict>", with: "</dict\t>")
            for spelling in [xml, loose] {
                for tail in ["", String(repeating: " ", count: 40)] {
                    let document = "<plist><dict><key>a</key>\(spelling)</dict></plist>\(tail)"
                    XCTAssertEqual(
                        try XMLReader.read(Array(document.utf8)), .dict(["a": value]), document)
                    XCTAssertEqual(
                        try XMLReader.text(Array(document.utf8), as: .json),
                        JSONWriter.encode(.dict(["a": value])) + [10], document)
                }
            }
        }
        for bad in [
            "<plist><string>s</strinG></plist>", "<plist><string>s</key></plist>", "<plist><keys>a</keys></plist>",
            "<plist><dict><key>a</key><integer>1</integr></dict></plist>", "<plist><datas>AA==</datas></plist>",
            "<plist><dict><key>a</key><dictionary/></dict></plist>",
        ] {
            for tail in ["", String(repeating: " ", count: 40)] {
                XCTAssertThrowsError(try XMLReader.read(Array((bad + tail).utf8)), bad)
            }
        }
    }

    /// The words the tags are compared with are the names' own bytes.
    func testTagWordsSpellTheNames() {
        func word(_ bytes: some Collection<UInt8>) -> UInt64 {
            bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        let kinds: [XMLReader.Kind] = [
            .plist, .dict, .array, .key, .string, .integer, .real, .true, .false, .date, .data,
        ]
        for kind in kinds {
            let name = Array("\(XMLReader.name(kind))".utf8)
            XCTAssertEqual(XMLReader.nameWord(kind).word, word(name), "\(kind)")
            XCTAssertEqual(XMLReader.nameWord(kind).count, name.count)
            let closing = Array("</".utf8) + name + [UInt8(ascii: ">")]
            let (first, rest, count) = XMLReader.closingWords(kind)
            XCTAssertEqual(first, word(closing.prefix(8)), "\(kind)")
            XCTAssertEqual(rest, word(closing.dropFirst(8)), "\(kind)")
            XCTAssertEqual(count, closing.count)
        }
    }

    func testEntityDeclarationsAreRefusedNotExpanded() {
        let bomb =
            "<!DOCTYPE plist [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><plist><string>&b;</string></plist>"
        XCTAssertThrowsError(try XMLReader.read(Array(bomb.utf8))) { error in
            XCTAssertEqual(error as? PlistError, .entityDeclaration(line: 1))
        }
    }

    func testNestingLimitFailsCleanly() {
        let ok = String(repeating: "<array>", count: 500) + String(repeating: "</array>", count: 500)
        XCTAssertNoThrow(try XMLReader.read(Array(ok.utf8)))
        let deep = String(repeating: "<array>", count: 200_000)
        XCTAssertThrowsError(try XMLReader.read(Array(deep.utf8))) { error in
            guard case .tooDeep(.xml, limit: maximumNestingDepth, _)? = error as? PlistError else {
                return XCTFail("\(error)")
            }
        }
    }

    func testErrorsNameTheLine() {
        XCTAssertThrowsError(
            try XMLReader.read(Array("<plist>\n<dict>\n<key>a</key>\n<integer>x</integer></dict></plist>".utf8))
        ) { error in
            guard case .xml(_, line: 4)? = error as? PlistError else { return XCTFail("\(error)") }
        }
    }

    func testBase64LayoutFollowsTheLevel() {
        let value = PlistValue.dict(["d": .data(Array(repeating: 7, count: 100))])
        let lines = String(decoding: XMLWriter.encode(value), as: UTF8.self).split(separator: "\n")
        let dataLines = lines.filter { $0.hasPrefix("\tBw") }
        XCTAssertEqual(dataLines.first?.count, 1 + 68)
    }

    /// Streaming in pieces changes how the bytes are handed over, never the bytes.
    func testChunkedEncodingEqualsTheWholeDocument() throws {
        let value = PlistValue.dict(
            PlistDictionary(
                entries: (0..<2000).map {
                    .init(
                        key: "k\($0)",
                        value: $0 % 2 == 0 ? .string("value \($0)") : .array([.int(Int64($0)), .data([1, 2, 3])]))
                }))
        for chunk in [1, 100, 4096, 1 << 20] {
            var pieces: [[UInt8]] = []
            try XMLWriter.encode(value, chunk: chunk) { pieces.append(Array($0)) }
            XCTAssertEqual(pieces.flatMap { $0 }, XMLWriter.encode(value), "chunk \(chunk)")
            if chunk == 1 << 20 { XCTAssertEqual(pieces.count, 1, "a small document is one write") }
        }
    }

    func testDuplicateKeysKeepTheLastValue() throws {
        let xml =
            "<plist><dict><key>a</key><integer>1</integer><key>b</key><true/><key>a</key><integer>2</integer></dict></plist>"
        guard case .dict(let d) = try XMLReader.read(Array(xml.utf8)) else { return XCTFail() }
        XCTAssertEqual(d["a"], .int(2))
        XCTAssertEqual(d.count, 2)
        XCTAssertEqual(d.sortedEntries.map(\.key), ["a", "b"])
    }
}
