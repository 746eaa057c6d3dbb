import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// A big XML document read in two halves at once (`XMLWalk.read`) gives what one
/// reader gives, value for value and error for error, whether the guessed middle entry is
/// one, lies inside a string, or the document is broken before it, after it, or both.
final class ParallelReadTests: XCTestCase {
    private let threads = SecondThreads()

    /// Both readings' answers: the value, or the error's text (code and line).
    private func both(_ text: String) -> (one: String, halves: String) {
        let bytes = Array(text.utf8)
        func describe(_ read: () throws -> PlistValue) -> String {
            do { return "\(try read())" } catch { return "error: \(error)" }
        }
        let one = describe { try PropertyList.read(bytes).0 }
        let halves = describe {
            try PropertyList.read(bytes, inParallel: { self.threads.run($0) }, halvesFrom: XMLToTextTests.halvesFrom).0
        }
        return (one, halves)
    }

    /// A document of `count` entries, `middle` put in the middle of them: by default
    /// 1,000 (90 KB), over both the size from which these tests read a document in halves
    /// (`XMLToTextTests.halvesFrom`) and the entries from which they print a domain in
    /// halves. The plain one is made once.
    private func document(_ count: Int = 1_000, middle: String = "", tail: String = "") -> String {
        count == 1_000 && middle.isEmpty && tail.isEmpty
            ? Self.plain : Self.document(count, middle: middle, tail: tail)
    }

    private static let plain = document(1_000, middle: "", tail: "")

    private static func document(_ count: Int, middle: String, tail: String) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for i in 0..<count {
            if i == count / 2 { text += middle }
            text +=
                "\t<key>k\(i)</key>\n\t<array>\n\t\t<integer>\(i)</integer>\n\t\t<string>v \(i)</string>\n\t</array>\n"
        }
        return text + "</dict>\n</plist>\n" + tail
    }

    func testABigDocumentReadsTheSameInHalves() {
        let text = document()
        XCTAssertGreaterThan(text.utf8.count, XMLToTextTests.halvesFrom)
        let (one, halves) = both(text)
        XCTAssertEqual(one, halves)
        XCTAssertFalse(one.hasPrefix("error"))
        XCTAssertEqual(threads.started, 1, "the second half was read on another thread")
        threads.assertEachRanBeside(count: 1)
    }

    func testAMiddleLineInsideAStringIsNoEntry() {
        // The guessed entry is text: the first reader reads through it, as one reader does.
        let fake = String(repeating: "\n\t<key>fake</key>\n\t<string>no</string>", count: 2_000)
        let text = document(middle: "\t<key>s</key>\n\t<string>\(fake)</string>\n")
        XMLToTextTests.assertMiddle(Array(text.utf8), in: fake)
        let (one, halves) = both(text)
        XCTAssertEqual(one, halves)
        XCTAssertFalse(one.contains("\"fake\""), "a key inside a string is text")
    }

    func testAMiddleLineInACommentOrCDATAIsNoEntry() {
        let lines = String(repeating: "\n\t<key>fake</key>\n\t<string>no</string>", count: 2_000)
        for middle in ["<!--\(lines)\n-->\n", "\t<key>c</key>\n\t<string><![CDATA[\(lines)]]></string>\n"] {
            XMLToTextTests.assertMiddle(Array(document(middle: middle).utf8), in: lines)
            let (one, halves) = both(document(middle: middle))
            XCTAssertEqual(one, halves)
            XCTAssertFalse(one.hasPrefix("error"), one)
            XCTAssertFalse(one.contains("\"fake\""))
        }
    }

    func testAnErrorAfterTheMiddleIsTheSameError() {
        let (one, halves) = both(
            document(1_500, middle: "", tail: "").replacingOccurrences(
                of: "<key>k1250</key>", with: "<key>k1250</kex>"))
        XCTAssertTrue(one.hasPrefix("error"), one)
        XCTAssertEqual(one, halves)
    }

    func testTheFirstErrorWinsWhenBothHalvesHaveOne() {
        let text = document(1_500)
            .replacingOccurrences(of: "<integer>100</integer>", with: "<integer>x</integer>")
            .replacingOccurrences(of: "<key>k1250</key>", with: "<key>k1250</kex>")
        let (one, halves) = both(text)
        XCTAssertTrue(one.contains("x"), one)
        XCTAssertEqual(one, halves)
    }

    func testAKeyInBothHalvesKeepsTheLastValue() throws {
        let text = document(middle: "").replacingOccurrences(
            of: "<key>k999</key>\n\t<array>\n\t\t<integer>999</integer>",
            with: "<key>k1</key>\n\t<array>\n\t\t<integer>-1</integer>")
        let bytes = Array(text.utf8)
        let halves = try PropertyList.read(
            bytes, inParallel: { self.threads.run($0) }, halvesFrom: XMLToTextTests.halvesFrom
        ).0
        let one = try PropertyList.read(bytes).0
        guard case .dict(let a) = halves, case .dict(let b) = one else { return XCTFail("no dictionaries") }
        XCTAssertEqual(a.sortedEntries, b.sortedEntries)
        XCTAssertEqual(a["k1"], .array([.int(-1), .string("v 999")]))
    }

    func testContentAfterTheRootAndOtherRootsAreJudgedAlike() {
        // Each `both` reads the text twice, in one piece and in halves: once is enough.
        let junk = both(document(tail: "<string>junk</string>\n"))
        XCTAssertEqual(junk.one, junk.halves)
        // An array root whose text has the middle line: no dictionary to split.
        let array =
            "<plist>\n<array>\n" + String(repeating: "\t<string>\n\t<key>x</key></string>\n", count: 2_500)
            + "</array>\n</plist>\n"
        let (one, halves) = both(array)
        XCTAssertEqual(one, halves)
        // Windows line ends, and a root cut short in its second half.
        let crlf = both(document().replacingOccurrences(of: "\n", with: "\r\n"))
        XCTAssertEqual(crlf.one, crlf.halves)
        let cut = String(document().dropLast(400))
        let (a, b) = both(cut)
        XCTAssertTrue(a.hasPrefix("error"), a)
        XCTAssertEqual(a, b)
    }

    /// A big domain printed in two halves at once prints as one printer prints it (big
    /// here from 500 entries, not the store's 20,000).
    func testABigDomainPrintsTheSameInHalves() throws {
        let value = try PropertyList.read(Array(document().utf8)).0
        var piecesStarted = 0
        var halves: [UInt8] = [], buffer: [UInt8] = []
        DefaultsPrinter.render(
            value, into: &buffer,
            flush: {
                halves += $0; $0.removeAll()
            },
            inParallel: { work in
                piecesStarted += 1
                let thread = Background(work)
                return { thread.join() }
            }, halvesFrom: 500)
        XCTAssertEqual(piecesStarted, 1)
        XCTAssertEqual(halves, DefaultsPrinter.render(value))
    }
}
