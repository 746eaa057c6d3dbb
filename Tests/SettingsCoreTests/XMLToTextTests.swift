import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Text written as an XML document is read (`export D --json` and `read D` of an XML
/// domain) must be byte for byte the JSON, or the `defaults` text, of the values read from
/// it, in one piece or in halves on two threads, and a document it cannot so write (keys
/// out of order or repeated, a `$` key in JSON, no dictionary at the root) must be left to
/// the values' way.
final class XMLToTextTests: XCTestCase {
    private let threads = SecondThreads()

    /// The values' text, as `export --json` and `read D` write it from them.
    private func valuesText(_ text: [UInt8], _ form: XMLReader.TextForm = .json) throws -> String {
        let value = try PropertyList.read(text).0
        guard form == .json else { return String(decoding: DefaultsPrinter.render(value), as: UTF8.self) }
        var out: [UInt8] = []
        JSONWriter.encode(value, pretty: false, chunk: 1 << 20) { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    /// The streamed text, one reader and in halves: the same, or both nil.
    private func streamed(
        _ text: [UInt8], _ form: XMLReader.TextForm = .json, file: StaticString = #filePath, line: UInt = #line
    ) throws -> String? {
        let one = try XMLReader.text(text, as: form).map { String(decoding: $0, as: UTF8.self) }
        let halves = try XMLReader.text(
            text, as: form, inParallel: { self.threads.run($0) }, halvesFrom: Self.halvesFrom
        ).map {
            String(decoding: $0, as: UTF8.self)
        }
        XCTAssertEqual(one, halves, "in halves as in one piece", file: file, line: line)
        return one
    }

    /// Both forms of `text` written as it is read, each what the values give.
    private func checkBothForms(_ text: [UInt8], _ name: String = "", line: UInt = #line) throws {
        for form in [XMLReader.TextForm.json, .defaults] {
            let written = try XCTUnwrap(try streamed(text, form, line: line), "\(name) \(form)", line: line)
            XCTAssertEqual(written, try valuesText(text, form), "\(name) \(form)", line: line)
        }
    }

    /// The size from which these tests' documents are read in halves: the readers' own
    /// (`XMLReader.halvesFrom`, 1 MiB) made small, so that the same reading in halves costs
    /// a small document, not a megabyte in a debug build.
    static let halvesFrom = 32 << 10

    /// A document of `count` entries in key order, `middle` put in the middle of them: by
    /// default 400 (70 KB), over the `halvesFrom` from which a document is read in halves,
    /// as `testABigDocumentIsWrittenInHalves` checks. The plain one is made once.
    private func document(_ count: Int = XMLToTextTests.entries, middle: String = "") -> String {
        count == Self.entries && middle.isEmpty ? Self.plain : Self.document(count, middle: middle, entry: Self.entry)
    }

    static let entries = 400
    private static let plain = document(entries, middle: "", entry: entry)

    private static func entry(_ i: Int, _ key: String) -> String {
        "\t<key>\(key)</key>\n\t<array>\n\t\t<integer>\(i)</integer>\n\t\t<string>v &amp; \(i)</string>\n"
            + "\t\t<dict><key>a</key><real>\(Double(i) / 7)</real><key>b</key><true/></dict>\n\t</array>\n"
    }

    /// The big documents the straight writers are read in halves with: `count` entries
    /// whose keys (`k000000`, …) are in order, each `entry(i, key)`, `middle` put in the
    /// middle of them.
    static func document(_ count: Int, middle: String, entry: (Int, String) -> String) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for i in 0..<count {
            if i == count / 2 { text += middle }
            text += entry(i, String(format: "k%06d", i))
        }
        return text + "</dict>\n</plist>\n"
    }

    func testEveryKindOfValueIsWrittenAsTheValuesAre() throws {
        var domain = XMLCodecTests.edgeCases
        domain["uid"] = .dict([BinaryReader.uidKey: .int(7)])
        domain["nested"] = .dict(["a": .array([.dict([:]), .array([]), .data([1, 2, 3])]), "b": .double(.nan)])
        domain["list of lists"] = .array([
            .array([.string("a b"), .int(1)]), .dict(["k": .string("q\"t\\")]), .array([]),
        ])
        try checkBothForms(XMLWriter.encode(.dict(domain)))
        XCTAssertEqual(try streamed(XMLWriter.encode(.dict([:]))), "{}\n")
        XCTAssertNil(try streamed(XMLWriter.encode(.dict([:])), .defaults), "no domain to print")
        XCTAssertNil(try streamed(Array("<plist><dict/></plist>".utf8), .defaults))
    }

    /// Comments, CDATA, references, no `<plist>` wrapper, UTF-16: read as the reader reads them.
    /// Dates as XML writes them are copied into JSON, every other spelling worked out:
    /// leap days, fields past their end (which carry, as Foundation reads them), year 0,
    /// shortened forms, the last second of 9999, and random ones, all as the values give.
    func testDatesAreCopiedOnlyWhenTheyReadBackTheSame() throws {
        var dates = [
            "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "2024-01-32T00:00:00Z", "2024-13-01T00:00:00Z",
            "2024-00-10T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z",
            "0000-12-31T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2004Z", "2004-10-26Z",
            "2004-10-26T10:33Z", "1900-02-29T12:00:00Z", "2000-02-29T12:00:00Z",
        ]
        for _ in 0..<300 {
            let seconds = Double(Int.random(in: -63_000_000_000...250_000_000_000))
            var out: [UInt8] = []
            XMLDate.append(PlistDate(secondsSince2001: seconds), to: &out)
            dates.append(String(decoding: out, as: UTF8.self))
        }
        var copied = 0
        for date in dates {
            let xml = Array(
                "<plist version=\"1.0\"><dict><key>d</key><date>\(date)</date><key>e</key><array><date>\(date)</date></array></dict></plist>"
                    .utf8)
            let valid = (try? PropertyList.read(xml)) != nil
            guard valid else {
                XCTAssertThrowsError(try XMLReader.text(xml, as: .json), date)
                continue
            }
            XCTAssertEqual(try streamed(xml), try valuesText(xml), date)
            if Array(date.utf8).withUnsafeBufferPointer(XMLDate.isCanonical) { copied += 1 }
        }
        XCTAssertGreaterThan(copied, 300, "the ones XML writes are copied")
    }

    /// Documents that use what the reader accepts beyond the plain form: comments, CDATA,
    /// references, a prolog, no `<plist>` wrapper (the straight writers' tests read them too).
    static let readerSamples = [
        "<plist><dict><!-- c --><key>a&lt;</key><string><![CDATA[x<y]]>&#x263A;</string><key>b</key><integer> 5</integer></dict></plist>",
        "<?xml version=\"1.0\"?><dict><key>a</key><array><true/><false/><date>2020-01-01T00:00:00Z</date></array></dict>",
    ]

    /// `text` as UTF-16 little-endian with its byte-order mark.
    static func utf16(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// What goes in the middle of `document`: a line that looks like an entry of the root
    /// (where the second reader may start), 2,000 times, inside CDATA and inside a comment.
    /// 76 KB of them, for the middle of a document of `entries` (66 to 70 KB): its middle
    /// falls in them, as `assertMiddle` checks.
    static func middlesThatAreNoEntries(entries: Int = entries) -> [String] {
        let lines = String(repeating: "\n\t<key>fake</key>\n\t<string>no</string>", count: 2_000)
        let key = String(format: "k%06dz", entries / 2 - 1)
        return ["\t<key>\(key)</key>\n\t<string><![CDATA[\(lines)]]></string>\n", "<!--\(lines)\n-->\n"]
    }

    /// Fails unless the middle byte of `text`, where the second reader looks for an entry,
    /// lies in `middle`.
    static func assertMiddle(_ text: [UInt8], in middle: String, line: UInt = #line) {
        let string = String(decoding: text, as: UTF8.self)
        guard let range = string.range(of: middle) else { return XCTFail("no middle", line: line) }
        let start = string.utf8.distance(from: string.startIndex, to: range.lowerBound)
        XCTAssertTrue(
            (start..<(start + middle.utf8.count)).contains(text.count / 2), "the middle falls in the lines", line: line)
    }

    func testTheTextIsReadAsTheReaderReadsIt() throws {
        for sample in Self.readerSamples {
            try checkBothForms(Array(sample.utf8), sample)
        }
        try checkBothForms(Self.utf16(Self.readerSamples[0]), "UTF-16")
    }

    func testABigDocumentIsWrittenInHalves() throws {
        let text = Array(document().utf8)
        XCTAssertGreaterThan(text.count, Self.halvesFrom)
        try checkBothForms(text)
        XCTAssertEqual(threads.started, 2, "each form's second half was read on another thread")
        threads.assertEachRanBeside(count: 2)
    }

    func testAMiddleLineInCDATAOrACommentIsNoEntry() throws {
        for middle in Self.middlesThatAreNoEntries() {
            let text = Array(document(middle: middle).utf8)
            Self.assertMiddle(text, in: middle)
            try checkBothForms(text)
            XCTAssertFalse(try XCTUnwrap(try streamed(text)).contains("\"fake\":"))
        }
    }

    /// Left to the values' way: keys out of order, a key twice (in one half, and one in
    /// each half), a `$` key, a root that is no dictionary.
    func testWhatCannotBeWrittenAsItIsRead() throws {
        let refused = [
            "<plist><dict><key>b</key><true/><key>a</key><true/></dict></plist>",
            "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>",
            "<plist><dict><key>a</key><dict><key>y</key><true/><key>x</key><true/></dict></dict></plist>",
            "<plist><dict><key>$date</key><string>x</string></dict></plist>",
            "<plist><array><true/></array></plist>",
        ]
        for sample in refused { XCTAssertNil(try streamed(Array(sample.utf8)), sample) }
        for sample in refused where !sample.contains("$") {
            XCTAssertNil(try streamed(Array(sample.utf8), .defaults), sample)
        }
        // `read D` prints a `$` key as any other; JSON leaves any to the values' way.
        let dollar = Array("<plist><dict><key>$a</key><true/><key>b</key><true/></dict></plist>".utf8)
        XCTAssertEqual(try streamed(dollar, .defaults), try valuesText(dollar, .defaults))
        XCTAssertNil(try streamed(dollar))
        let big = document()
        let twice = big.replacingOccurrences(of: "<key>k000399</key>", with: "<key>k000001</key>")
        XCTAssertNil(try streamed(Array(twice.utf8)), "a key in both halves")
        XCTAssertNil(try streamed(Array(twice.utf8), .defaults), "a key in both halves")
        XCTAssertEqual(threads.started, 2, "read in halves, then refused")
    }

    /// A broken document throws (or is left to the values' way), in one piece or in halves.
    func testABrokenDocumentIsNeverWritten() {
        let big = document()
        for broken in [
            String(big.dropLast(400)), big.replacingOccurrences(of: "<key>k000300</key>", with: "<key>k000300</kex>"),
            big.replacingOccurrences(of: "<integer>100</integer>", with: "<integer>x</integer>"),
        ] {
            let text = Array(broken.utf8)
            for form in [XMLReader.TextForm.json, .defaults] {
                XCTAssertNil(try? XMLReader.text(text, as: form))
                XCTAssertNil(
                    try? XMLReader.text(
                        text, as: form, inParallel: { self.threads.run($0) }, halvesFrom: Self.halvesFrom))
            }
        }
    }

    /// Every XML dictionary of the corpus: written as it is read, or left, never different.
    func testTheCorpusIsWrittenAsItsValuesAre() throws {
        var written = 0
        let files = FileManager.default.enumerator(atPath: CorpusTests.corpus)?.allObjects as? [String] ?? []
        for name in files.sorted() {
            guard let data = FileManager.default.contents(atPath: CorpusTests.corpus + "/" + name),
                case .xml? = try? PropertyList.read(Array(data)).1,
                case .dict? = try? PropertyList.read(Array(data)).0
            else { continue }
            guard let json = try? streamed(Array(data)) else { continue }
            XCTAssertEqual(json, try valuesText(Array(data)), name)
            if let text = try streamed(Array(data), .defaults) {
                XCTAssertEqual(text, try valuesText(Array(data), .defaults), name)
            }
            written += 1
        }
        XCTAssertGreaterThan(written, 5)
    }
}
