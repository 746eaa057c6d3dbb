import Foundation
import SettingsKit
import Synchronization
import XCTest

// sindresorhus/Defaults' DefaultsObservationAdvancedTests and DefaultsStressTests. Defaults'
// `observe` calls at once with the current value by default (`.initial`); here that is
// `initial: true`. A lifetime tie is holding the token: it cancels when released.

final class DefaultsObservationAdvancedTests: PeerTestCase {
    func testObservationWithoutPropagation() {
        let key = SettingsKey<String>("preventPropagationTest", default: "initial")
        let settings: Settings = settings
        let seen = Recorder<String>()
        let token = settings.observe(key, initial: true) { change in
            seen.append(change.newValue)
            settings.withoutPropagation { settings[key] = "from_observer" }
        }
        settings[key] = "external_change"
        token.cancel()
        XCTAssertEqual(seen.values, ["initial", "external_change"])
        XCTAssertEqual(settings[key], "from_observer")
    }

    func testMultipleObservationsOnSameKey() {
        let key = SettingsKey<String>("observationTest", default: "initial")
        let one = Recorder<String>(), two = Recorder<String>()
        let token1 = settings.observe(key, initial: true) { one.append($0.newValue) }
        let token2 = settings.observe(key, initial: true) { two.append($0.newValue) }
        settings[key] = "changed"
        token1.cancel()
        token2.cancel()
        XCTAssertEqual(one.values.count, 2)
        XCTAssertEqual(two.values.count, 2)
    }

    func testObservationInvalidation() {
        let key = SettingsKey<String>("observationTest", default: "initial")
        let seen = Recorder<String>()
        let token = settings.observe(key) { seen.append($0.newValue) }
        settings[key] = "test1"
        token.cancel()
        settings[key] = "test2"
        XCTAssertEqual(seen.values, ["test1"])
    }

    func testLifetimeTiedObservation() {
        final class Owner { var token: SettingsObservation? }
        let key = SettingsKey<String>("observationTest", default: "initial")
        let seen = Recorder<String>()
        var owner: Owner? = Owner()
        owner?.token = settings.observe(key, initial: true) { seen.append($0.newValue) }
        settings[key] = "tied_test"
        XCTAssertEqual(seen.values.count, 2)
        owner = nil
        settings[key] = "after_owner_released"
        XCTAssertEqual(seen.values.count, 2)
    }

    func testObservationLifetimeTieRemoval() {
        let key = SettingsKey<String>("observationTest", default: "initial")
        let seen = Recorder<String>()
        let token = settings.observe(key, initial: true) { seen.append($0.newValue) }
        settings[key] = "after_tie_removal"
        token.cancel()
        settings[key] = "after_invalidation"
        XCTAssertEqual(seen.values, ["initial", "after_tie_removal"])
    }

    func testConcurrentObservation() async {
        let key = SettingsKey<Int>("concurrentObservation", default: 0)
        let count = Mutex(0)
        let token = settings.observe(key, initial: true) { _ in count.withLock { $0 += 1 } }
        let settings: Settings = settings
        await withTaskGroup(of: Void.self) { group in
            for index in 1...100 { group.addTask { settings[key] = index } }
        }
        token.cancel()
        // Each write stores a new value and is heard once; none is heard twice.
        XCTAssertEqual(count.withLock { $0 }, 101)
    }

    func testAsyncUpdatesStream() async {
        let key = SettingsKey<String>("asyncUpdates", default: "start")
        var stream = settings.updates(key).makeAsyncIterator()
        var received = [await stream.next()]
        for value in ["update1", "update2", "update3"] {
            settings[key] = value
            received.append(await stream.next())
        }
        XCTAssertEqual(received, ["start", "update1", "update2", "update3"])
    }

    func testAsyncUpdatesStreamWithoutInitial() async {
        let key = SettingsKey<String>("asyncUpdatesNoInitial", default: "start")
        var stream = settings.updates(key, initial: false).makeAsyncIterator()
        settings[key] = "update1"
        settings[key] = "update2"
        let a = await stream.next(), b = await stream.next()
        XCTAssertEqual([a, b], ["update1", "update2"])
    }

    func testMultipleKeysUpdatesStream() async {
        let key1 = SettingsKey<String>("multiKey1", default: "start1")
        let key2 = SettingsKey<Int>("multiKey2", default: 0)
        var stream = settings.updates(key1, key2).makeAsyncIterator()
        let initial = await stream.next()
        settings[key1] = "changed1"
        let second = await stream.next()
        settings[key2] = 42
        let third = await stream.next()
        XCTAssertEqual(initial?.0, "start1")
        XCTAssertEqual(initial?.1, 0)
        XCTAssertEqual(second?.0, "changed1")
        XCTAssertEqual(third?.1, 42)
    }

    func testArrayKeysUpdatesStream() async {
        let key1 = SettingsKey<String>("arrayKey1", default: "start1")
        let key2 = SettingsKey<Int>("arrayKey2", default: 0)
        var stream = settings.updates([key1, key2]).makeAsyncIterator()
        var count = await stream.next() == nil ? 0 : 1
        settings[key1] = "changed1"
        if await stream.next() != nil { count += 1 }
        settings[key2] = 42
        if await stream.next() != nil { count += 1 }
        XCTAssertEqual(count, 3)
    }

    func testCompositeObservation() async {
        let key1 = SettingsKey<String>("composite1", default: "start1")
        let key2 = SettingsKey<Int>("composite2", default: 0)
        var stream = settings.changes().makeAsyncIterator()
        settings[key1] = "changed"
        let first = await stream.next()
        settings[key2] = 42
        let second = await stream.next()
        XCTAssertEqual(first, ["composite1"])
        XCTAssertEqual(second, ["composite2"])
    }
}

final class DefaultsStressTests: PeerTestCase {
    func testConcurrentReadWrite() async {
        let key = SettingsKey<Int>("concurrentTest", default: 0)
        let settings: Settings = settings
        await withTaskGroup(of: Void.self) { group in
            for index in 1...1000 { group.addTask { settings[key] = index } }
        }
        XCTAssertTrue((1...1000).contains(settings[key]))
        XCTAssertEqual(suite[key], settings[key])
    }

    func testConcurrentDifferentKeys() async {
        let keys = (0..<100).map { SettingsKey<Int>("concurrent_\($0)", default: $0) }
        let settings: Settings = settings
        await withTaskGroup(of: Void.self) { group in
            for (index, key) in keys.enumerated() { group.addTask { settings[key] = index * 100 } }
        }
        // Every write is a locked read-modify-write of the file: none is lost.
        for (index, key) in keys.enumerated() { XCTAssertEqual(suite[key], index * 100) }
    }

    func testRapidKeyUpdates() async {
        let key = SettingsKey<Int>("rapidUpdate", default: 0)
        for index in 1...100 { settings[key] = index }
        XCTAssertEqual(settings[key], 100)
        for index in 1...100 {
            settings[key] = index
            await Task.yield()
        }
        XCTAssertEqual(suite[key], 100)
    }

    func testLargeDataStorage() {
        let key = SettingsKey<String>("largeString", default: "")
        settings[key] = String(repeating: "A", count: 100_000)
        XCTAssertEqual(suite[key].count, 100_000)
    }

    func testLargeArrayStorage() {
        let key = SettingsKey<[Int]>("largeArray", default: [])
        settings[key] = Array(0..<10_000)
        XCTAssertEqual(suite[key], Array(0..<10_000))
    }

    func testLargeDictionaryStorage() {
        let large = Dictionary(uniqueKeysWithValues: (0..<1000).map { ("key_\($0)", $0) })
        let key = SettingsKey<[String: Int]>("largeDictionary", default: [:])
        settings[key] = large
        XCTAssertEqual(suite[key], large)
    }

    func testDeepNesting() {
        let key = SettingsKey<[String: [String: [String: Int]]]>("deepNesting", default: [:])
        settings[key] = ["level1": ["level2": ["level3": 42]]]
        XCTAssertEqual(suite[key]["level1"]?["level2"]?["level3"], 42)
    }

    func testManyKeys() throws {
        let keys = (0..<100).map { SettingsKey<String>("manyKeys_\($0)", default: "default_\($0)") }
        for (index, key) in keys.enumerated() { settings[key] = "value_\(index)" }
        for (index, key) in keys.enumerated() { XCTAssertEqual(settings[key], "value_\(index)") }
        try settings.reset(Array(keys.prefix(50)))
        for (index, key) in keys.enumerated() {
            XCTAssertEqual(suite[key], index < 50 ? "default_\(index)" : "value_\(index)")
        }
    }

    func testConcurrentObservations() {
        let key = SettingsKey<Int>("observationStress", default: 0)
        let count = Mutex(0)
        let tokens = (0..<10).map { _ in settings.observe(key) { _ in count.withLock { $0 += 1 } } }
        for index in 1...10 { settings[key] = index }
        for token in tokens { token.cancel() }
        XCTAssertEqual(count.withLock { $0 }, 100)
    }

    func testMemoryPressure() throws {
        // Defaults' UserDefaults keeps writes in memory and saves later; that is
        // SettingsKit's `.coalesced` mode (the durable default would write a 10 MB domain
        // a thousand times). 1,000 writes of 10 kB, then one flush.
        let coalesced = Settings(domain: "com.peers.pressure", directory: folder, writes: .coalesced)
        for iteration in 0..<10 {
            let keys = (0..<100).map {
                SettingsKey<Data>("memoryTest_\(iteration)_\($0)", default: Data(repeating: 0, count: 1000))
            }
            for key in keys { coalesced[key] = Data(repeating: 0xFF, count: 10_000) }
            for key in keys { XCTAssertEqual(coalesced[key].count, 10_000) }
        }
        try coalesced.flush()
        let reader = Settings(domain: "com.peers.pressure", directory: folder)
        XCTAssertEqual(reader[SettingsKey<Data>("memoryTest_9_99", default: Data())].count, 10_000)
    }

    func testEdgeCaseEmptyValues() {
        let string = SettingsKey<String>("emptyString", default: "default")
        let array = SettingsKey<[Int]>("emptyArray", default: [1, 2, 3])
        let dict = SettingsKey<[String: Int]>("emptyDict", default: ["a": 1])
        let set = SettingsKey<Set<String>>("emptySet", default: ["a", "b"])
        settings[string] = ""
        settings[array] = []
        settings[dict] = [:]
        settings[set] = []
        XCTAssertEqual(suite[string], "")
        XCTAssertEqual(suite[array], [])
        XCTAssertEqual(suite[dict], [:])
        XCTAssertEqual(suite[set], [])
    }

    func testUnicodeAndSpecialCharacters() {
        let key = SettingsKey<String>("unicodeTest", default: "")
        for text in [
            "Hello 世界", "🦄🌈✨", "Ṫḧïṡ ïṡ ä ẗëṡẗ", "\u{0000}\u{0001}\u{0002}", "Line1\nLine2\rLine3\r\nLine4",
            "\"quoted\" 'single' `backtick`", String(repeating: "🦄", count: 1000),
        ] {
            settings[key] = text
            XCTAssertEqual(suite[key], text)
        }
    }

    func testNumericEdgeCases() {
        let int = SettingsKey<Int>("intLimits", default: 0)
        for value in [Int.max, Int.min] {
            settings[int] = value
            XCTAssertEqual(suite[int], value)
        }
        let double = SettingsKey<Double>("doubleLimits", default: 0)
        for value in [Double.infinity, -.infinity, .leastNormalMagnitude, .greatestFiniteMagnitude] {
            settings[double] = value
            XCTAssertEqual(suite[double], value)
        }
        settings[double] = .nan
        XCTAssertTrue(suite[double].isNaN)
    }

    func testRapidResetCycle() async throws {
        let key = SettingsKey<Int>("rapidReset", default: 42)
        for index in 0..<100 {
            settings[key] = index * 100
            XCTAssertEqual(settings[key], index * 100)
            try settings.reset(key)
            XCTAssertEqual(settings[key], 42)
        }
        let settings: Settings = settings
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { settings[key] = index }
                group.addTask { try? settings.reset(key) }
            }
        }
        let final = suite[key]
        XCTAssertTrue(final == 42 || (0..<50).contains(final))
    }

    func testSuiteInterference() throws {
        let suite1 = Settings(domain: "stress_suite1_\(UUID().uuidString)", directory: folder)
        let suite2 = Settings(domain: "stress_suite2_\(UUID().uuidString)", directory: folder)
        let key1 = SettingsKey<String>("suite1_key", default: "default1")
        let key2 = SettingsKey<String>("suite2_key", default: "default2")
        suite1[key1] = "value1"
        suite2[key2] = "value2"
        XCTAssertEqual(suite1[key1], "value1")
        XCTAssertEqual(suite2[key2], "value2")
        try suite1.reset(key1)
        XCTAssertEqual(suite1[key1], "default1")
        XCTAssertEqual(suite2[key2], "value2")
        XCTAssertEqual(suite1[key2], "default2")
    }
}
