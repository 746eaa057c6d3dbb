import Foundation
import Synchronization
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
import TestSupport

/// A binary property list written as an XML document is read (`export D PATH` of an XML
/// domain) must be byte for byte what `BinaryWriter` writes for the values read from it,
/// in one piece or in halves on two threads; a document it cannot so write (keys out of
/// order or repeated, a `CF$UID` key, no dictionary at the root) must be left to the
/// values' way, and a broken one never written.
final class XMLToBinaryTests: XCTestCase {
    private let threads = SecondThreads()
    /// Small documents read in halves, as big ones are (`XMLToTextTests.halvesFrom`).
    private let halvesFrom = XMLToTextTests.halvesFrom

    /// What the values' way writes.
    private func valuesBinary(_ text: [UInt8]) throws -> [UInt8] {
        BinaryWriter.encode(try PropertyList.read(text).0)
    }

    /// The straight way, in one piece and in halves, and from the text where it lies (a
    /// mapped file's way, for UTF-8 as it is): the same, or all nil.
    private func straight(_ text: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8]? {
        let one = try XMLReader.binary(text)
        let halves = try XMLReader.binary(text, inParallel: { self.threads.run($0) }, halvesFrom: halvesFrom)
        XCTAssertEqual(one, halves, "in halves as in one piece", file: file, line: line)
        if TextDecoding.isUTF8AsIs(Array(text.prefix(512))) {
            let drops = Drops(), others = SecondThreads()
            let mapped = try text.withUnsafeBufferPointer { buffer in
                try XMLReader.binaryPlist(
                    mapped: buffer, owner: nil, dropPages: { drops.count.withLock { $0 += 1 } },
                    inParallel: { others.run($0) }, halvesFrom: halvesFrom
                )?.bytes
            }
            XCTAssertEqual(mapped, one, "from where it lies as from an array", file: file, line: line)
            if one != nil { XCTAssertGreaterThan(drops.count.withLock { $0 }, 0, file: file, line: line) }
        }
        return one
    }

    /// Only a file `TextDecoding.utf8` would hand back as it is may be read where it lies:
    /// any other is read into an array and decoded first.
    func testOnlyUTF8AsItIsIsReadWhereItLies() {
        func head(_ text: String) -> [UInt8] { Array(text.utf8) }
        let body = "<plist><dict/></plist>"
        XCTAssertTrue(TextDecoding.isUTF8AsIs(head(body)))
        XCTAssertTrue(TextDecoding.isUTF8AsIs(head("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + body)))
        XCTAssertTrue(TextDecoding.isUTF8AsIs(head("<?xml version='1.0' encoding='us-ascii'?>" + body)))
        XCTAssertTrue(TextDecoding.isUTF8AsIs(head("<?xml version=\"1.0\"?>" + body)))
        XCTAssertFalse(TextDecoding.isUTF8AsIs(head("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + body)))
        XCTAssertFalse(TextDecoding.isUTF8AsIs(head("<?xml version=\"1.0\" encoding=\"EBCDIC\"?>" + body)))
        XCTAssertFalse(TextDecoding.isUTF8AsIs([0xEF, 0xBB, 0xBF] + head(body)), "a UTF-8 BOM, dropped by decoding")
        XCTAssertFalse(TextDecoding.isUTF8AsIs(XMLToTextTests.utf16(body)), "UTF-16 with a BOM")
        XCTAssertFalse(TextDecoding.isUTF8AsIs([0, 0x3C, 0, 0x70]), "UTF-16 without one")
        XCTAssertFalse(TextDecoding.isUTF8AsIs([0x3C, 0, 0x70, 0]))
        XCTAssertFalse(TextDecoding.isUTF8AsIs([0, 0, 0xFE, 0xFF, 0, 0, 0, 0x3C]), "UTF-32")
        XCTAssertFalse(TextDecoding.isUTF8AsIs([0x3C]))
    }

    /// How many times pages were given back.
    private final class Drops: Sendable {
        let count = Mutex(0)
    }

    /// A mapped file can change under the writer (only truncation is the mapping's to
    /// catch). The writer works out a string's size before it stores it, and again for the
    /// offset table, so a string that is not ASCII, whose size in UTF-16 depends on its
    /// bytes, is copied as it is read: its bytes changed to another spelling once it is read
    /// (here, each time pages are given back, which they are while the rest is read,
    /// numbered and written) change nothing written. Without the copy the writer writes the
    /// other spelling, of another size.
    func testAMappedTextChangedUnderTheWriterNeverChangesAStringsSize() throws {
        // ééé is 6 bytes and 3 UTF-16 units, €€ is 6 bytes and 2. The string is read first;
        // the root's other entries are more than are read between givings back.
        let entries = XMLNodeReading.progressEntries + 600
        var document = "<plist><dict>\n<key>a</key><string>ééé tail</string>\n"
        for i in 0..<entries { document += "<key>k\(String(format: "%05d", i))</key><true/>\n" }
        let text = Array((document + "</dict></plist>\n").utf8)
        let expected = try XCTUnwrap(try XMLReader.binary(text))
        let pattern = Array("ééé".utf8), other = Array("€€".utf8)
        XCTAssertEqual(pattern.count, other.count)
        let place = try XCTUnwrap(
            (0...(text.count - pattern.count)).first { text[$0..<($0 + pattern.count)].elementsEqual(pattern) })
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: text)
        let shared = SharedBuffer(buffer)
        let drops = Drops()
        let written = try XMLReader.binaryPlist(
            mapped: UnsafeBufferPointer(buffer), owner: nil,
            dropPages: {
                drops.count.withLock { $0 += 1 }
                for (i, byte) in other.enumerated() { shared.buffer[place + i] = byte }
            })?.bytes
        XCTAssertGreaterThan(drops.count.withLock { $0 }, 4, "given back while read, numbered and written")
        XCTAssertEqual(written, expected)
    }

    /// The test's text, changed from the writer's callback.
    private final class SharedBuffer: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }
    }

    /// Written straight, and what the values give.
    private func check(_ text: [UInt8], _ name: String = "", line: UInt = #line) throws {
        let written = try XCTUnwrap(try straight(text, line: line), name, line: line)
        XCTAssertEqual(written, try valuesBinary(text), name, line: line)
    }

    /// A document of `count` entries in key order, `middle` put in the middle of them;
    /// values repeat, so most scalars are written once for many entries. Its numbers and
    /// dates are of every width a node keeps: in the node (0 to 2³² - 1), or beside it
    /// (a real, a date, a negative integer, one of 2³² or more), equal ones in both halves.
    /// By default 200 of them (66 KB), over the `halvesFrom` from which a document is read
    /// in halves, as `testABigDocumentIsReadInHalvesAndWrittenInPieces` checks; the plain
    /// one is made once.
    private func document(_ count: Int = XMLToBinaryTests.entries, middle: String = "") -> String {
        count == Self.entries && middle.isEmpty ? Self.plain : Self.document(count, middle: middle)
    }

    private static let entries = 200
    private static let plain = document(entries, middle: "")

    private static func document(_ count: Int, middle: String) -> String {
        XMLToTextTests.document(count, middle: middle) { i, key in
            "\t<key>\(key)</key>\n\t<array>\n\t\t<integer>\(i % 300)</integer>\n\t\t<string>v &amp; \(i % 7)</string>\n"
                + "\t\t<dict><key>a</key><real>\(Double(i) / 7)</real><key>b</key><true/>"
                + "<key>c</key><data>AAEC</data><key>d</key><string>\(key)</string>"
                + "<key>e</key><integer>\([4_294_967_295, 4_294_967_296, -1, -(1 << 40), i][i % 5])</integer>"
                + "<key>f</key><date>20\(10 + i % 13)-01-01T00:00:00Z</date></dict>\n\t</array>\n"
        }
    }

    /// A big document's nodes are most of what exporting it holds (issue 34: peak memory
    /// at most twice the file): one is 8 bytes, its scalars hashed as they are numbered
    /// and wide numbers kept beside it, not 16.
    func testANodeIsEightBytes() {
        XCTAssertEqual(MemoryLayout<XMLNodes.Node>.stride, 8)
    }

    /// Integers at the edges of what a node holds, each once however often it is written,
    /// and never one object for two that differ only past 32 bits.
    func testEveryWidthOfIntegerIsOneObjectAsTheWriterNumbersIt() throws {
        let numbers = [
            "0", "1", "4294967295", "4294967296", "4294967297", "-1", "-4294967296", "-4294967295",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
            "0x100000000", "0xFFFFFFFF",
        ]
        let items = (numbers + numbers.reversed()).map { "<integer>\($0)</integer>" }.joined()
        try check(
            Array(
                "<plist><dict><key>a</key><array>\(items)</array><key>b</key><integer>4294967296</integer></dict></plist>"
                    .utf8))
    }

    func testEveryKindOfValueIsWrittenAsTheValuesAre() throws {
        var domain = XMLCodecTests.edgeCases
        domain["nested"] = .dict(["a": .array([.dict([:]), .array([]), .data([1, 2, 3])]), "b": .double(.nan)])
        domain["list of lists"] = .array([
            .array([.string("a b"), .int(1)]), .dict(["k": .string("q\"t\\")]), .array([]),
        ])
        domain["long"] = .string(String(repeating: "long text ", count: 40))
        domain["unicode"] = .array([.string("é"), .string("😀"), .string("日本"), .string("e\u{301}")])
        try check(XMLWriter.encode(.dict(domain)))
        try check(XMLWriter.encode(.dict([:])), "an empty root")
        try check(Array("<plist><dict/></plist>".utf8), "a self-closed root")
    }

    /// One object for equal scalars however they are spelled, and only for those: a key
    /// and a string of the same bytes, a number with spaces, zeros or in hex, text with
    /// references or CDATA; but never `0` and `-0`, `1` and `true`, or text and data.
    func testEqualScalarsAreOneObjectAsTheWriterNumbersThem() throws {
        let sample = """
            <plist><dict>
            <key>a</key><array><string>a</string><string>&#97;</string><string><![CDATA[a]]></string></array>
            <key>b</key><array><integer>7</integer><integer> 007</integer><integer>0x7</integer><integer>+7</integer></array>
            <key>c</key><array><real>0</real><real>-0</real><real>0.0</real><integer>0</integer><false/></array>
            <key>d</key><array><integer>1</integer><true/><real>1</real><date>2001-01-01T00:00:01Z</date></array>
            <key>e</key><array><data>YQ==</data><string>a</string><data>YQ==</data><data>Y Q = =</data></array>
            <key>f</key><array><integer>18446744073709551615</integer><integer>-1</integer><integer>0xFFFFFFFFFFFFFFFF</integer></array>
            <key>g</key><array><real>nan</real><real>NaN</real><real>inf</real><real>1e400</real></array>
            <key>h</key><array><string/><string></string><data></data><dict/><array/><dict></dict></array>
            </dict></plist>
            """
        try check(Array(sample.utf8))
    }

    /// Comments, CDATA, references, no `<plist>` wrapper, UTF-16: read as the reader reads them.
    func testTheTextIsReadAsTheReaderReadsIt() throws {
        let samples =
            XMLToTextTests.readerSamples + [
                "<plist><dict><key>&#x1F600;</key><data>\n\tAAEC\n\tAwQF\n</data><key>&#x1F601;</key><string>&#x1F600;</string></dict></plist>"
            ]
        for sample in samples {
            try check(Array(sample.utf8), sample)
        }
        try check(XMLToTextTests.utf16(samples[0]), "UTF-16")
    }

    /// A big document is read in halves on two threads, and written in pieces (never
    /// whole, nor its objects' offsets kept): any piece size gives the same bytes, no piece
    /// is bigger than asked but an object that is, alone. Its data makes it over 64 KiB, so
    /// its offsets are three bytes each.
    func testABigDocumentIsReadInHalvesAndWrittenInPieces() throws {
        let text = Array(
            document(middle: "\t<key>k000099x</key>\n\t<data>\(String(repeating: "AAEC", count: 22_000))</data>\n")
                .utf8)
        XCTAssertGreaterThan(text.count, halvesFrom)
        try check(text)
        XCTAssertEqual(threads.started, 1, "the text's second half read on another")
        // The first half is read while the second is: the reader joins the other thread
        // once it reaches the middle, not before it reads (which made them one after the other).
        threads.assertEachRanBeside(count: 1)
        let whole = try XCTUnwrap(try XMLReader.binary(text))
        XCTAssertEqual(whole[whole.count - 32 + 6], 3, "three-byte offsets")
        for chunk in [64, 500, 4096, 1 << 18] {
            var pieces: [[UInt8]] = []
            try text.withUnsafeBufferPointer { buffer in
                try XMLReader.binaryPlist(mapped: buffer, owner: nil, dropPages: {})?.write(chunk: chunk) {
                    pieces.append(Array($0))
                }
            }
            XCTAssertEqual(Array(pieces.joined()), whole, "pieces of \(chunk)")
            // Two objects are bigger than some pieces: the root (201 entries, two 2-byte
            // references each, behind a 3-byte header) and the 66,000-byte data (6). Each of
            // them is a piece alone; every other piece fits.
            let over = pieces.filter { $0.count > chunk }.map(\.count)
            XCTAssertEqual(over, [807, 66_006].filter { $0 > chunk }, "pieces of \(chunk)")
            XCTAssertGreaterThanOrEqual(pieces.count, (whole.count - 807 - 66_006) / chunk, "pieces of \(chunk)")
        }
    }

    func testAMiddleLineInCDATAOrACommentIsNoEntry() throws {
        for middle in XMLToTextTests.middlesThatAreNoEntries(entries: Self.entries) {
            try check(Array(document(middle: middle).utf8))
        }
    }

    /// Left to the values' way: keys out of order, a key twice (in one half, and one in
    /// each half, and the halves out of order), `CF$UID`, a root that is no dictionary.
    func testWhatCannotBeWrittenAsItIsRead() throws {
        let refused = [
            "<plist><dict><key>b</key><true/><key>a</key><true/></dict></plist>",
            "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>",
            "<plist><dict><key>a</key><dict><key>y</key><true/><key>x</key><true/></dict></dict></plist>",
            "<plist><dict><key>a</key><dict><key>CF$UID</key><integer>3</integer></dict></dict></plist>",
            "<plist><dict><key>CF$UID</key><integer>3</integer><key>z</key><true/></dict></plist>",
            "<plist><array><true/></array></plist>",
            "<plist><string>a</string></plist>",
        ]
        for sample in refused {
            XCTAssertNil(try straight(Array(sample.utf8)), sample)
        }
        // A UID's key that is not `CF$UID` byte for byte is a key like any other.
        try check(
            Array("<plist><dict><key>CF$UIDs</key><integer>3</integer><key>cf$uid</key><true/></dict></plist>".utf8))
        let big = document()
        let twice = big.replacingOccurrences(of: "<key>k000199</key>", with: "<key>k000001</key>")
        XCTAssertNil(try straight(Array(twice.utf8)), "a key in both halves")
        // The second half's first key, in order with its own half's but before the first's last.
        var swapped = Array(big.utf8)
        let split = try XCTUnwrap(swapped.withUnsafeBufferPointer { XMLReader.entryLine(in: $0, after: $0.count / 2) })
        swapped.replaceSubrange((split + 5)..<(split + 12), with: Array("k0     ".utf8))
        swapped.replaceSubrange((split + 7)..<(split + 12), with: [])
        XCTAssertNotNil(try XMLReader.binary(Array(big.utf8)))
        XCTAssertNil(try straight(swapped), "the second half's first key before the first half's last")
        XCTAssertEqual(threads.started, 2, "read in halves, then refused")
    }

    /// Nesting as deep as the reader allows is written as the values are (numbering
    /// recurses once a level); one level more is refused by both ways.
    func testNestingToTheReadersLimit() throws {
        func nested(_ depth: Int) -> [UInt8] {
            let open = String(repeating: "<array>", count: depth - 1)
            let close = String(repeating: "</array>", count: depth - 1)
            return Array("<plist><dict><key>a</key>\(open)<true/>\(close)</dict></plist>".utf8)
        }
        try check(nested(maximumNestingDepth))
        XCTAssertThrowsError(try PropertyList.read(nested(maximumNestingDepth + 1)))
        XCTAssertThrowsError(try XMLReader.binary(nested(maximumNestingDepth + 1)))
    }

    /// A broken document throws (or is left to the values' way), in one piece or in halves.
    func testABrokenDocumentIsNeverWritten() {
        let big = document()
        for broken in [
            String(big.dropLast(400)), big.replacingOccurrences(of: "<key>k000150</key>", with: "<key>k000150</kex>"),
            big.replacingOccurrences(of: "<integer>100</integer>", with: "<integer>x</integer>"),
            big.replacingOccurrences(of: "<key>k000100</key>", with: "<key>k000100\u{1}</key>"),
            big.replacingOccurrences(of: "<data>AAEC</data>", with: "<data>A</data>"),
            "<plist><dict><key>a</key><string>\u{FFFF}\u{0}</string></dict></plist>",
        ] {
            let text = Array(broken.utf8)
            let valid = (try? PropertyList.read(text)) != nil
            let one = try? XMLReader.binary(text),
                halves = try? XMLReader.binary(text, inParallel: { self.threads.run($0) }, halvesFrom: halvesFrom)
            if valid {
                XCTAssertEqual(one, halves)
                if let one { XCTAssertEqual(one, try? valuesBinary(text)) }
            } else {
                XCTAssertNil(one)
                XCTAssertNil(halves)
            }
        }
        let invalidUTF8 =
            Array("<plist><dict><key>a</key><string>".utf8) + [0xC3, 0x28] + Array("</string></dict></plist>".utf8)
        XCTAssertThrowsError(try XMLReader.binary(invalidUTF8))
    }

    /// Random documents of few distinct scalars (so that most are written once for many
    /// places) against the values' way, a few big enough to be read in halves (over
    /// `halvesFrom`); and with a byte broken, never a different answer.
    func testRandomDocumentsAreWrittenAsTheirValuesAre() throws {
        var random = RandomPlist(rng: SplitMix(state: 51))
        var written = 0
        for round in 0..<400 {
            let text = XMLWriter.encode(.dict(random.root(round % 200 == 0 ? 1_500 : random.int(12))))
            try check(text, "round \(round)")
            written += 1
            var broken = text
            broken[random.int(broken.count)] = UInt8(random.int(256))
            if let straight = try? XMLReader.binary(broken) {
                XCTAssertEqual(straight, try valuesBinary(broken), "round \(round), broken")
            }
        }
        XCTAssertEqual(written, 400)
        XCTAssertGreaterThanOrEqual(threads.started, 2, "the big ones read in halves")
    }

    /// Every XML dictionary of the corpus: written as its values are, or left, never different.
    func testTheCorpusIsWrittenAsItsValuesAre() throws {
        var written = 0
        let files = FileManager.default.enumerator(atPath: CorpusTests.corpus)?.allObjects as? [String] ?? []
        for name in files.sorted() {
            guard let data = FileManager.default.contents(atPath: CorpusTests.corpus + "/" + name),
                case .xml? = try? PropertyList.read(Array(data)).1,
                case .dict? = try? PropertyList.read(Array(data)).0
            else { continue }
            guard let binary = try straight(Array(data)) else { continue }
            XCTAssertEqual(binary, try valuesBinary(Array(data)), name)
            written += 1
        }
        XCTAssertGreaterThan(written, 5)
    }
}
