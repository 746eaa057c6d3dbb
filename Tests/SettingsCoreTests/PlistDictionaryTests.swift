import Foundation
import XCTest

@testable import PlistModel

/// `sortedEntries` sorts only what follows the sorted run it starts with and merges;
/// these check it against the obvious definition: each key's last value, in byte order.
final class PlistDictionaryTests: XCTestCase {
    /// The definition, computed the slow way.
    private func reference(_ entries: [PlistDictionary.Entry]) -> [PlistDictionary.Entry] {
        var last: [[UInt8]: PlistDictionary.Entry] = [:]
        for entry in entries { last[Array(entry.key.utf8)] = entry }
        return last.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { last[$0]! }
    }

    func testASortedRunThenNewKeysMergesIntoByteOrder() {
        var d = PlistDictionary(entries: (0..<20).map { .init(key: "k\($0 + 10)", value: .int(Int64($0))) })
        d["k05"] = .string("new")
        d["k99"] = .bool(true)
        d["k155"] = .int(-1)
        XCTAssertEqual(d.sortedEntries, reference(d.entries))
        XCTAssertEqual(d.sortedEntries.map(\.key).prefix(3), ["k05", "k10", "k11"])
    }

    func testALaterEntryOfAKeyInTheRunWins() {
        // A file that holds "b" twice: once in the sorted run, once after it.
        let d = PlistDictionary(entries: [
            .init(key: "a", value: 1), .init(key: "b", value: 2), .init(key: "c", value: 3),
            .init(key: "b", value: 20), .init(key: "a", value: 10), .init(key: "b", value: 200),
        ])
        XCTAssertEqual(
            d.sortedEntries, [.init(key: "a", value: 10), .init(key: "b", value: 200), .init(key: "c", value: 3)])
        XCTAssertEqual(d["b"], 200)
    }

    func testKeysAreOrderedAsBytesNotAsSwiftStrings() {
        // "é" precomposed (C3 A9) and decomposed ("e" CC 81) are two keys, in byte order.
        let d = PlistDictionary(entries: [
            .init(key: "z", value: 1), .init(key: "e\u{301}", value: 2), .init(key: "\u{e9}", value: 3),
        ])
        XCTAssertEqual(d.sortedEntries.map { Array($0.key.utf8) }, [[0x65, 0xCC, 0x81], [0x7A], [0xC3, 0xA9]])
    }

    func testRandomDictionariesMatchTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let sortedRun = Int.random(in: 0..<30, using: &generator)
            var entries = (0..<sortedRun).map {
                PlistDictionary.Entry(key: String(format: "%03d", $0 * 3), value: .int(Int64($0)))
            }
            for n in 0..<Int.random(in: 0..<10, using: &generator) {
                let key = String(format: "%03d", Int.random(in: 0..<100, using: &generator))
                entries.append(.init(key: key, value: .int(Int64(1000 + n))))
            }
            let d = PlistDictionary(entries: entries)
            XCTAssertEqual(d.sortedEntries, reference(entries), "\(entries.map(\.key))")
        }
    }
}

/// `PlistValue`'s hash agrees with its `==`, so a `Set<PlistValue>` holds each value once.
final class PlistValueHashingTests: XCTestCase {
    func testEqualValuesHashAlikeAndSetsKeepOneOfEach() {
        let a: PlistValue = .dict(
            PlistDictionary(entries: [.init(key: "x", value: 1), .init(key: "y", value: [true, "s"])]))
        let b: PlistValue = .dict(
            PlistDictionary(entries: [.init(key: "y", value: [true, "s"]), .init(key: "x", value: 1)]))
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        let set: Set<PlistValue> = [
            a, b, .double(0), .double(-0.0), .double(.nan), .double(.nan), 1, .double(1), "é", "e\u{301}",
        ]
        // -0.0 and 0.0, 1 and 1.0, and the two spellings of é are different values; NaN is one.
        XCTAssertEqual(set.count, 8)
        XCTAssertTrue(set.contains(.double(.nan)))
    }
}
