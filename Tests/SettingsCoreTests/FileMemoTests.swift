import XCTest

@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsStore
import TestSupport

/// An update given a `FileMemo` takes the values it remembers only for the very bytes
/// it remembers: the parse it saves must never cost another writer's change.
final class FileMemoTests: XCTestCase {
    var directory = ""
    var store: DomainStore!
    var path: String { directory + "/com.memo.plist" }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID().uuidString)").path
        store = DomainStore(directory: directory)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func fileValues() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as! [String: Any]
    }

    private func set(_ key: String, _ value: PlistValue, memo: FileMemo) throws {
        try store.update(.named("com.memo"), key: key, written: nil, memo: memo) {
            $0 = value
            return true
        }
    }

    func testTheRememberedBytesAreNotParsedAgain() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        // Proof that the file is not parsed: the memo is made to lie about the file's bytes.
        memo.remember(Array(try Data(contentsOf: URL(fileURLWithPath: path))), ["lie": true])
        try set("b", 2, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["lie": true, "b": 2])
    }

    func testOtherBytesAreParsed() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        memo.remember(Array("<plist/>".utf8), ["lie": true])
        try set("b", 2, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["a": 1, "b": 2])
    }

    func testAnotherWritersRewriteInPlaceWithinOneClockTickIsKept() throws {
        // Same size, same inode, and the times put back: a FileStamp could not tell it
        // from the file this process wrote. The bytes differ, so the update reads them.
        let memo = FileMemo()
        try set("key", "aaaa", memo: memo)
        let before = try FileManager.default.attributesOfItem(atPath: path)
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "aaaa", with: "bbbb")
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: before[.modificationDate]!], ofItemAtPath: path)
        try set("other", 1, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["key": "bbbb", "other": 1])
    }

    func testTheMemoFollowsEachWriteAndForgetsARemovedFile() throws {
        let memo = FileMemo()
        for i in 0..<50 { try set("k\(i)", .int(Int64(i)), memo: memo) }
        XCTAssertEqual(try fileValues().count, 50)
        XCTAssertEqual(memo.values(of: Array(try Data(contentsOf: URL(fileURLWithPath: path))))?.count, 50)
        try store.update(.named("com.memo"), written: nil, memo: memo) { values in
            values = PlistDictionary()
            return true
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try set("again", 1, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["again": 1])
    }

    func testABinaryDomainIsEditedWithoutTheMemo() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        try Data(BinaryWriter.encode(.dict(["a": 1]))).write(to: URL(fileURLWithPath: path))
        try set("b", 2, memo: memo)
        var format = PropertyListSerialization.PropertyListFormat.xml
        _ = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: URL(fileURLWithPath: path)), format: &format)
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(try fileValues() as NSDictionary, ["a": 1, "b": 2])
    }

    // MARK: One-key writes spliced into the bytes this process wrote

    private func remove(_ key: String, memo: FileMemo) throws {
        try store.update(.named("com.memo"), key: key, written: nil, memo: memo) {
            $0 = nil
            return true
        }
    }

    private var fileBytes: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: path))) } }

    func testAOneKeyWriteSplicesTheBytesThisProcessWrote() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        try set("b", 2, memo: memo)
        // Proof that the file's other entries are its old bytes, not encoded again: the
        // memo is made to lie about a's value, and the file keeps the truth.
        var known = try XCTUnwrap(memo.take(try fileBytes))
        XCTAssertNotNil(known.bounds)
        known.values = ["a": 99, "b": 2]
        memo.remember(known)
        try set("c", 3, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["a": 1, "b": 2, "c": 3])
    }

    func testSplicedWritesAreByteForByteTheWholeEncoding() throws {
        // Sets, replacements and removals in a random order, of every kind of value and of
        // keys XML escapes, sorting first, last and between: after each, the file is what
        // encoding the whole domain writes, and Foundation reads the values expected.
        var rng = SplitMix(state: 34)
        let keys = ["", "a", "a&b", "a<b>", "b", "k10", "k2", "z", "\u{e9}", "e\u{301}", "\u{1F600}", "ABC"]
        let values: [PlistValue] = [
            true, 0, -7, .int(PlistInteger(unsigned: UInt64.max)), 1.5, .double(.infinity), "text & <more>", "",
            .data([0, 1, 2, 255]), .data(Array(repeating: 7, count: 100)), .date(PlistDate(secondsSince2001: 0)), [],
            [1, "two", [3]],
            PlistValue.dict([:]), PlistValue.dict(["inner": ["x": 1], "b": .data([9])]),
        ]
        let memo = FileMemo()
        var expected = PlistDictionary()
        for round in 0..<400 {
            let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
            if Int.random(in: 0..<4, using: &rng) == 0 {
                try remove(key, memo: memo)
                expected[key] = nil
            } else {
                let value = values[Int.random(in: 0..<values.count, using: &rng)]
                try set(key, value, memo: memo)
                expected[key] = value
            }
            guard !expected.isEmpty else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: path), "round \(round)")
                continue
            }
            XCTAssertEqual(try fileBytes, XMLWriter.encode(.dict(expected)), "round \(round): \(key)")
            let read = try PropertyList.read(try fileBytes).0
            XCTAssertEqual(read, .dict(expected), "round \(round)")
        }
        _ = try fileValues()  // Foundation reads the last one too
    }

    func testAFractionalDateMakesTheFileBinaryAndTheMemoLetsGo() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        try set("when", .date(PlistDate(secondsSince2001: 0.25)), memo: memo)
        XCTAssertEqual(PropertyList.sniff(try fileBytes), .binary)
        try set("b", 2, memo: memo)
        XCTAssertEqual(PropertyList.sniff(try fileBytes), .binary)
        XCTAssertEqual(
            try PropertyList.read(try fileBytes).0,
            .dict(["a": 1, "when": .date(PlistDate(secondsSince2001: 0.25)), "b": 2]))
    }

    func testSettingTheSameValueWritesNothingAndKeepsTheMemo() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        let before = try fileBytes
        try store.update(.named("com.memo"), key: "a", written: nil, memo: memo) { _ in false }
        XCTAssertNotNil(memo.take(before), "a write that changed nothing gives back what it took")
    }
}
