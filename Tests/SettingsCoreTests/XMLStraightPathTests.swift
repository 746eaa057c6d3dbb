import Foundation
import TestSupport
import XCTest
@testable import PlistModel
@testable import PlistCodecs

/// The straight ways (`XMLReader.text`, `XMLReader.binary`) held byte for byte to the tree
/// way (`XMLReader.read`, then `JSONWriter`, `DefaultsPrinter` or `BinaryWriter`) over
/// generated documents, small and big enough to be read in halves (over `halvesFrom`), and over the corpus: a
/// change to one writer's output that the straight way does not share shows here.
final class XMLStraightPathTests: XCTestCase {
    private let threads = SecondThreads()
    /// Small documents read in halves, as big ones are (`XMLToTextTests.halvesFrom`).
    private let halvesFrom = XMLToTextTests.halvesFrom

    /// Every straight answer for `text`, one reader and in halves, against the tree's; how
    /// many were written straight (a nil is left to the tree, never a different answer).
    @discardableResult
    private func check(_ text: [UInt8], _ name: String, line: UInt = #line) throws -> Int {
        let tree = try XMLReader.read(text)
        var json: [UInt8] = []
        JSONWriter.encode(tree, pretty: false, chunk: 1 << 16) { json += $0 }
        let expected: [(XMLReader.TextForm?, [UInt8])] = [
            (.json, json), (.defaults, DefaultsPrinter.render(tree)), (nil, BinaryWriter.encode(tree)),
        ]
        var written = 0
        for (form, want) in expected {
            for inParallel in [nil, { self.threads.run($0) } as PropertyList.InParallel] {
                let straight =
                    try form.map { try XMLReader.text(text, as: $0, inParallel: inParallel, halvesFrom: halvesFrom) }
                    ?? XMLReader.binary(text, inParallel: inParallel, halvesFrom: halvesFrom)
                guard let straight else { continue }
                written += 1
                if straight != want {
                    let at = (0..<min(straight.count, want.count)).first { straight[$0] != want[$0] } ?? want.count
                    XCTFail(
                        "\(name) \(form.map { "\($0)" } ?? "binary"), halves \(inParallel != nil): differs at byte \(at)",
                        line: line)
                }
            }
        }
        return written
    }

    /// Key and string characters: ASCII letters, what each writer escapes or quotes, and
    /// two- to four-byte UTF-8.
    private static let alphabet: [String] = [
        "a", "b", "Z", "0", "9", "_", " ", "-", ".", "&", "<", ">", "\"", "'", "\\", "\n", "\t", "\r", "$", "é", "ß",
        "→", "中", "😀",
    ]

    private struct Generator {
        var random: SplitMix

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

        mutating func text(_ most: Int) -> String {
            (0..<below(most + 1)).map { _ in pick(alphabet) }.joined()
        }

        mutating func scalar() -> PlistValue {
            switch below(7) {
            case 0: return .bool(below(2) == 0)
            case 1:
                return .int(
                    pick([0, 1, -1, 7, 255, -256, 65_536, (1 << 32) - 1, 1 << 32, Int64.max, Int64.min, 123_456_789]))
            case 2: return .int(PlistInteger(unsigned: pick([UInt64.max, 1 << 63, (1 << 63) + 5])))
            case 3:
                return .double(
                    pick([0, -0.0, 1, -1.5, 0.1, 1 / 3, 1e300, -2.5e-300, .infinity, -.infinity, .nan, 12_345.678]))
            case 4:
                return .date(
                    PlistDate(secondsSince2001: pick([0, 1, -1e9, 6e8, 7.25e8, -63_113_904_000, 252_423_993_599, 0.5])))
            case 5: return .data((0..<below(70)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            default: return .string(text(12))
            }
        }

        /// Keys in strictly ascending byte order, as the straight ways need to write them.
        mutating func dict(_ count: Int, depth: Int, dollar: Bool) -> PlistDictionary {
            var keys = Set<String>()
            for _ in 0..<count { keys.insert(text(10)) }
            if !dollar { keys = keys.filter { !$0.hasPrefix("$") } }
            var dict = PlistDictionary()
            for key in keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                dict[key] = value(depth + 1, dollar: dollar)
            }
            return dict
        }

        mutating func value(_ depth: Int, dollar: Bool) -> PlistValue {
            switch depth < 5 ? below(10) : 0 {
            case 0..<6: return scalar()
            case 6, 7: return .array((0..<below(5)).map { _ in value(depth + 1, dollar: dollar) })
            default: return .dict(dict(below(5), depth: depth, dollar: dollar))
            }
        }
    }

    /// The writer's text respelled as a reader accepts it: references by number, CDATA,
    /// comments between elements, and white space inside numbers.
    private static func respelled(_ xml: [UInt8]) -> [UInt8] {
        var text = String(decoding: xml, as: UTF8.self)
        text = text.replacingOccurrences(of: "&amp;", with: "&#38;")
        text = text.replacingOccurrences(of: "&lt;", with: "<![CDATA[<]]>")
        text = text.replacingOccurrences(of: "&gt;", with: "&#x3E;")
        text = text.replacingOccurrences(of: "</key>\n", with: "</key><!-- c -->\n")
        text = text.replacingOccurrences(of: "<integer>", with: "<integer>  ")
        return Array(text.utf8)
    }

    func testSmallGeneratedDocumentsAreWrittenAsTheTreeWritesThem() throws {
        var generator = Generator(random: SplitMix(state: 50))
        var written = 0
        for round in 0..<300 {
            let root = generator.dict(generator.below(14), depth: 1, dollar: round % 10 == 9)
            let xml = XMLWriter.encode(.dict(root))
            written += try check(xml, "round \(round)")
            written += try check(Self.respelled(xml), "round \(round), respelled")
        }
        XCTAssertGreaterThan(written, 300 * 2 * 6 / 2, "most are written straight")
    }

    func testBigGeneratedDocumentsAreWrittenInHalvesAsTheTreeWritesThem() throws {
        var generator = Generator(random: SplitMix(state: 5050))
        for round in 0..<3 {
            var root = PlistDictionary()
            // A big root: keys made unique and in order by a prefix, a third of the values nested.
            for i in 0..<600 {
                let value: PlistValue =
                    i % 3 == 0
                    ? .dict(generator.dict(generator.below(4), depth: 2, dollar: false))
                    : generator.value(2, dollar: false)
                root[String(format: "k%05d", i) + generator.text(6)] = value
            }
            var xml = XMLWriter.encode(.dict(root))
            if round == 2 { xml = Self.respelled(xml) }
            XCTAssertGreaterThan(xml.count, halvesFrom)
            XCTAssertEqual(try check(xml, "big round \(round)"), 6, "every form written straight")
        }
        XCTAssertEqual(threads.started, 3 * 3, "each form's second half read on another thread")
    }

    /// Every XML dictionary of the corpus.
    func testTheCorpusIsWrittenAsTheTreeWritesIt() throws {
        var written = 0
        let files = FileManager.default.enumerator(atPath: CorpusTests.corpus)?.allObjects as? [String] ?? []
        for name in files.sorted() {
            guard let data = FileManager.default.contents(atPath: CorpusTests.corpus + "/" + name),
                case (.dict, .xml)? = try? PropertyList.read(Array(data))
            else { continue }
            written += try check(Array(data), name)
        }
        XCTAssertGreaterThan(written, 5 * 6)
    }
}
