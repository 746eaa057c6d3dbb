import Foundation
import XCTest

@testable import PlistModel
import TestSupport

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

/// Issue 47: a key is found by binary search while the entries are in order, by a table made
/// once when one comes out of order, and `count` is kept, not counted; every operation is
/// checked here against a model of what it means (each key's last value, in the order of
/// its last entry; keys as bytes), on random sequences of them.
final class PlistDictionaryLookupTests: XCTestCase {
    /// Few keys, so that operations meet the same ones; two spellings of "é" among them.
    let universe = ["a", "b", "c", "k1", "k2", "k10", "\u{E9}", "e\u{301}", "z", ""]

    /// The model: one (key, value) per key, in the order of each key's last entry.
    struct Model {
        var entries: [(key: [UInt8], text: String, value: PlistValue)] = []
        func find(_ key: String) -> Int? { entries.firstIndex { $0.key == Array(key.utf8) } }
        mutating func append(_ key: String, _ value: PlistValue) {
            if let i = find(key) { entries.remove(at: i) }
            entries.append((Array(key.utf8), key, value))
        }
        mutating func set(_ key: String, _ value: PlistValue?) {
            guard let value else { if let i = find(key) { entries.remove(at: i) }; return }
            if let i = find(key) { entries[i].value = value } else { entries.append((Array(key.utf8), key, value)) }
        }
        /// `updating`'s meaning: each key's last change; a key there stays in place (even if
        /// removed and set again), new ones follow in the order their last change set them.
        mutating func update(_ changes: [(key: String, value: PlistValue?)]) {
            var removed: [[UInt8]] = []
            var added = Model()
            for (key, value) in changes {
                if let i = find(key) {
                    if let value {
                        entries[i].value = value
                        removed.removeAll { $0 == Array(key.utf8) }
                    } else {
                        removed.append(Array(key.utf8))
                    }
                } else {
                    added.set(key, value)
                }
            }
            entries.removeAll { entry in removed.contains(entry.key) }
            entries += added.entries
        }
    }

    func check(_ d: PlistDictionary, _ model: Model, _ trace: [String], line: UInt = #line) {
        let context = trace.joined(separator: "; ")
        XCTAssertEqual(d.count, model.entries.count, context, line: line)
        XCTAssertEqual(d.isEmpty, model.entries.isEmpty, context, line: line)
        XCTAssertEqual(d.uniqueEntries.map { Array($0.key.utf8) }, model.entries.map(\.key), context, line: line)
        XCTAssertEqual(d.uniqueEntries.map(\.value), model.entries.map(\.value), context, line: line)
        let sorted = model.entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        XCTAssertEqual(d.sortedEntries.map { Array($0.key.utf8) }, sorted.map(\.key), context, line: line)
        XCTAssertEqual(d.sortedEntries.map(\.value), sorted.map(\.value), context, line: line)
        for key in universe {
            XCTAssertEqual(d[key], model.find(key).map { model.entries[$0].value }, "\(key): \(context)", line: line)
        }
        let rebuilt = PlistDictionary(entries: model.entries.map { .init(key: $0.text, value: $0.value) })
        XCTAssertEqual(d, rebuilt, context, line: line)
        XCTAssertEqual(rebuilt, d, context, line: line)
        if d.isStrictlySorted { XCTAssertEqual(d.entries.count, d.count, context, line: line) }
    }

    func testEveryOperationAgreesWithTheModel() {
        var random = SplitMix(state: 47)
        for _ in 0..<400 {
            var d = PlistDictionary(), model = Model(), trace: [String] = []
            // Often a sorted start, as a file read back.
            if random.next() % 2 == 0 {
                for key in universe.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
                where random.next() % 2 == 0 {
                    d.append(key: key, value: "r")
                    model.append(key, "r")
                }
                trace.append("sorted \(d.count)")
            }
            for step in 0..<12 {
                let key = universe[Int(random.next() % UInt64(universe.count))]
                let value: PlistValue = .int(Int64(step))
                switch random.next() % 6 {
                case 0:
                    d.append(key: key, value: value)
                    model.append(key, value)
                    trace.append("append \(key.debugDescription)")
                case 1:
                    d[key] = value
                    model.set(key, value)
                    trace.append("set \(key.debugDescription)")
                case 2:
                    XCTAssertEqual(d.removeValue(forKey: key), model.find(key).map { model.entries[$0].value })
                    model.set(key, nil)
                    trace.append("remove \(key.debugDescription)")
                case 3:
                    let changes: [(key: String, value: PlistValue?)] = (0..<Int(random.next() % 5)).map { n in
                        let key = universe[Int(random.next() % UInt64(universe.count))]
                        return (key, random.next() % 3 == 0 ? nil : .int(Int64(100 + n)))
                    }
                    d = d.updating(changes)
                    model.update(changes)
                    trace.append(
                        "updating \(changes.map { "\($0.key.debugDescription)=\($0.value.map { "\($0)" } ?? "nil")" })")
                case 4:
                    var other = PlistDictionary()
                    for _ in 0..<Int(random.next() % 3) {
                        let key = universe[Int(random.next() % UInt64(universe.count))]
                        other.append(key: key, value: value)
                        model.append(key, value)
                    }
                    d.append(contentsOf: other)
                    trace.append("append contents \(other.entries.map(\.key))")
                default:
                    guard d.isStrictlySorted else { continue }
                    let (index, found) = d.sortedPlace(of: key)
                    let remove = random.next() % 3 == 0
                    d.setEntry(at: index, found: found, key: key, value: remove ? nil : value)
                    model.set(key, remove ? nil : value)
                    // An insert in place keeps the order; the model appends, so sort it.
                    model.entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
                    trace.append("setEntry \(key.debugDescription)")
                }
                check(d, model, trace)
            }
        }
    }

    func testASortedReadHashesNothingAndAKeyOutOfOrderMakesTheTableOnce() {
        var d = PlistDictionary()
        for n in 0..<1000 { d.append(key: String(format: "key%04d", n), value: .int(Int64(n))) }
        XCTAssertFalse(d.isHashed, "keys in order: found by binary search")
        XCTAssertEqual(d.count, 1000)
        XCTAssertEqual(d["key0500"], 500)
        d["key0500"] = 5
        d["key9999"] = 1
        d.removeValue(forKey: "key0000")
        XCTAssertFalse(d.isHashed, "a set in place, a key after the last and a removal keep the order")
        XCTAssertEqual(d.count, 1000)
        d["a"] = 0
        XCTAssertTrue(d.isHashed)
        XCTAssertEqual(d.count, 1001)
        XCTAssertEqual(d["key0500"], 5)
        XCTAssertEqual(d.uniqueEntries.last?.key, "a")
        XCTAssertEqual(d.sortedEntries.first?.key, "a")
        // A removal with the table moves the places after it, no key forgotten.
        d.removeValue(forKey: "key0001")
        XCTAssertEqual(d.count, 1000)
        XCTAssertEqual(d["key0999"], 999)
        XCTAssertNil(d["key0001"])
        let updated = d.updating((2..<1000).map { (String(format: "key%04d", $0), nil) } + [("new", 1)])
        XCTAssertEqual(updated.uniqueEntries.map(\.key), ["key9999", "a", "new"])
        XCTAssertEqual(updated.count, 3)
    }

    func testAKeyReadTwiceKeepsItsLastValueAndCountsOnce() {
        var d = PlistDictionary()
        d.append(key: "a", value: 1)
        d.append(key: "b", value: 2)
        d.append(key: "a", value: 3)
        XCTAssertEqual(d.entries.count, 3)
        XCTAssertEqual(d.count, 2)
        XCTAssertEqual(d["a"], 3)
        XCTAssertEqual(d.uniqueEntries.map(\.key), ["b", "a"])
        XCTAssertEqual(d.removeValue(forKey: "a"), 3)
        XCTAssertNil(d["a"], "every entry of the key goes")
        XCTAssertEqual(d.count, 1)
    }

    func testKeysAreBytesInTheTableAndTheSearch() {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        var sorted = PlistDictionary()
        sorted.append(key: decomposed, value: 1)
        sorted.append(key: composed, value: 2)
        XCTAssertFalse(sorted.isHashed)
        var hashed = PlistDictionary()
        hashed.append(key: composed, value: 2)
        hashed.append(key: decomposed, value: 1)
        XCTAssertTrue(hashed.isHashed)
        for d in [sorted, hashed] {
            XCTAssertEqual(d.count, 2)
            XCTAssertEqual(d[composed], 2)
            XCTAssertEqual(d[decomposed], 1)
            var less = d
            less[composed] = nil
            XCTAssertEqual(less.count, 1)
            XCTAssertEqual(less[decomposed], 1)
        }
        XCTAssertEqual(sorted, hashed)
        XCTAssertNotEqual(
            sorted, PlistDictionary(entries: [.init(key: composed, value: 1), .init(key: decomposed, value: 2)]))
        XCTAssertEqual(Set([ExactKey(composed), ExactKey(decomposed)]).count, 2)
        XCTAssertTrue(ExactKey(decomposed) < ExactKey(composed), "byte order: 65 CC 81 before C3 A9")
    }
}
