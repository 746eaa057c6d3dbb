import Foundation
import SettingsKit
import XCTest

// sindresorhus/Defaults' Tests/DefaultsTests/DefaultsTests.swift, each test re-expressed:
// `Defaults[key]` is `settings[key]`, the suite's `UserDefaults` is a second `Settings` on
// the same file, Combine publishers are `observe` (same-process writes are delivered at
// once), and `Defaults.updates` is `updates`.

let fixtureURL = URL(string: "https://sindresorhus.com")!
let fixtureFileURL = URL(string: "file://~/icon.png")!
let fixtureURL2 = URL(string: "https://example.com")!
let fixtureDate = Date()

extension SettingsKeys {
    static let key = SettingsKey<Bool>("key", default: false)
    static let url = SettingsKey<URL>("url", default: fixtureURL)
    static let file = SettingsKey<URL>("fileURL", default: fixtureFileURL)
    static let data = SettingsKey<Data>("data", default: Data())
    static let date = SettingsKey<Date>("date", default: fixtureDate)
    static let uuid = SettingsKey<UUID?>("uuid")
    static let defaultDynamicDate = SettingsKey<Date>("defaultDynamicDate", default: { Date(timeIntervalSince1970: 0) })
    static let defaultDynamicOptionalDate = SettingsKey<Date?>(
        "defaultDynamicOptionalDate", default: { Date(timeIntervalSince1970: 1) })
}

final class DefaultsTests: PeerTestCase {
    func testKey() {
        let key = SettingsKey<Bool>("independentKey", default: false)
        XCTAssertFalse(settings[key])
        settings[key] = true
        XCTAssertTrue(settings[key])
    }

    func testValidKeyName() {
        // Defaults refuses KVO on names with a dot or starting with @; SettingsKit observes
        // any name, as a plain string in the file.
        for name in ["test", "test.a", "@test"] {
            let key = SettingsKey<Bool>(name, default: false)
            let seen = Recorder<Bool>()
            let token = settings.observe(key) { seen.append($0.newValue) }
            settings[key] = true
            token.cancel()
            XCTAssertEqual(seen.values, [true], name)
            XCTAssertEqual(file[name] as? Bool, true, name)
        }
    }

    func testOptionalKey() {
        let key = SettingsKey<Bool?>("independentOptionalKey")
        let url = SettingsKey<URL?>("independentOptionalURLKey")
        XCTAssertNil(settings[key])
        XCTAssertNil(settings[url])
        settings[key] = true
        settings[url] = fixtureURL
        XCTAssertEqual(settings[key], true)
        XCTAssertEqual(settings[url], fixtureURL)
        settings[key] = nil
        settings[url] = nil
        XCTAssertNil(settings[key])
        XCTAssertNil(settings[url])
        settings[key] = false
        settings[url] = fixtureURL2
        XCTAssertEqual(settings[key], false)
        XCTAssertEqual(settings[url], fixtureURL2)
    }

    func testInitializeDynamicDateKey() {
        let calls = Recorder<Int>()
        _ = SettingsKey<Date>(
            "independentInitializeDynamicDateKey",
            default: {
                calls.append(1); return Date()
            })
        _ = SettingsKey<Date?>(
            "independentInitializeDynamicOptionalDateKey",
            default: {
                calls.append(1); return Date()
            })
        XCTAssertTrue(calls.values.isEmpty, "making a dynamic key must not compute its default")
    }

    func testKeyRegistersDefault() {
        // Defaults registers a key's default in the suite, so a plain UserDefaults read sees
        // it. A SettingsKit default is never written: every reader with the key sees it, the
        // file stays as it was, and the CLI and Foundation see only what was stored.
        let key = SettingsKey<Bool>("registersDefault", default: true)
        XCTAssertTrue(suite[key])
        let key2 = SettingsKey<String>("registersDefault2", default: "registersDefault2")
        XCTAssertEqual(suite[key2], "registersDefault2")
        XCTAssertTrue(file.isEmpty)
    }

    func testKeyWithUserDefaultSubscript() {
        let key = SettingsKey<Bool>("keyWithUserDeaultSubscript", default: false)
        XCTAssertFalse(suite[key])
        suite[key] = true
        XCTAssertTrue(suite[key])
        XCTAssertTrue(settings[key])
    }

    func testKeys() {
        XCTAssertFalse(settings[.key])
        settings[.key] = true
        XCTAssertTrue(settings[.key])
        XCTAssertTrue(settings.key)
    }

    func testUrlType() {
        XCTAssertEqual(settings[.url], fixtureURL)
        let newUrl = URL(string: "https://twitter.com")!
        settings[.url] = newUrl
        XCTAssertEqual(settings[.url], newUrl)
        XCTAssertEqual(suite.url, newUrl)
    }

    func testDataType() {
        XCTAssertEqual(settings[.data], Data())
        settings[.data] = Data([0xFF])
        XCTAssertEqual(suite[.data], Data([0xFF]))
    }

    func testDateType() {
        XCTAssertEqual(settings[.date], fixtureDate)
        let newDate = Date()
        settings[.date] = newDate
        XCTAssertEqual(settings[.date], newDate)
        XCTAssertEqual(suite[.date], newDate, "the fraction of a second survives the file")
    }

    func testDynamicDateType() throws {
        XCTAssertEqual(settings[.defaultDynamicDate], Date(timeIntervalSince1970: 0))
        let next = Date(timeIntervalSince1970: 1)
        settings[.defaultDynamicDate] = next
        XCTAssertEqual(settings[.defaultDynamicDate], next)
        XCTAssertEqual(file["defaultDynamicDate"] as? Date, next)
        try settings.reset(.defaultDynamicDate)
        XCTAssertEqual(settings[.defaultDynamicDate], Date(timeIntervalSince1970: 0))
    }

    func testDynamicOptionalDateType() {
        XCTAssertEqual(settings[.defaultDynamicOptionalDate], Date(timeIntervalSince1970: 1))
        let next = Date(timeIntervalSince1970: 2)
        settings[.defaultDynamicOptionalDate] = next
        XCTAssertEqual(settings[.defaultDynamicOptionalDate], next)
        XCTAssertEqual(file["defaultDynamicOptionalDate"] as? Date, next)
        settings[.defaultDynamicOptionalDate] = nil
        XCTAssertEqual(settings[.defaultDynamicOptionalDate], Date(timeIntervalSince1970: 1))
        XCTAssertNil(file["defaultDynamicOptionalDate"])
    }

    func testFileURLType() { XCTAssertEqual(settings[.file], fixtureFileURL) }

    func testUUIDType() {
        let fixture = UUID()
        settings[.uuid] = fixture
        XCTAssertEqual(settings[.uuid], fixture)
        XCTAssertEqual(suite[.uuid], fixture)
    }

    func testRemoveAll() throws {
        let key = SettingsKey<Bool>("removeAll", default: false)
        let key2 = SettingsKey<Bool>("removeAll2", default: false)
        settings[key] = true
        settings[key2] = true
        XCTAssertTrue(settings[key] && settings[key2])
        try settings.removeAll()
        XCTAssertFalse(settings[key])
        XCTAssertFalse(settings[key2])
        XCTAssertFalse(suite[key])
    }

    func testCustomSuite() throws {
        let custom = Settings(domain: "com.sindresorhus.customSuite", directory: folder)
        let key = SettingsKey<Bool>("customSuite", default: false)
        XCTAssertFalse(custom[key])
        custom[key] = true
        XCTAssertTrue(Settings(domain: "com.sindresorhus.customSuite", directory: folder)[key])
        XCTAssertFalse(settings[key], "another domain")
        try custom.removeAll()
        XCTAssertFalse(custom[key])
    }

    func testIsDefaultValue() {
        let key = SettingsKey<Bool>("isDefaultValue", default: false)
        XCTAssertTrue(settings.isDefaultValue(key))
        settings[key].toggle()
        XCTAssertFalse(settings.isDefaultValue(key))
    }

    func testObserveKeyCombine() throws {
        let key = SettingsKey<Bool>("observeKey", default: false)
        let seen = Recorder<(Bool, Bool)>()
        let token = settings.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
        settings[key] = true
        try settings.reset(key)
        token.cancel()
        XCTAssertEqual(seen.values.map(\.0), [false, true])
        XCTAssertEqual(seen.values.map(\.1), [true, false])
    }

    func testObserveOptionalKeyCombine() throws {
        let key = SettingsKey<Bool?>("observeOptionalKey")
        let seen = Recorder<(Bool?, Bool?)>()
        let token = settings.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
        settings[key] = true
        settings[key] = false
        try settings.reset(key)
        token.cancel()
        XCTAssertEqual(seen.values.map(\.0), [nil, true, false])
        XCTAssertEqual(seen.values.map(\.1), [true, false, nil])
    }

    func testDynamicOptionalDateTypeCombine() {
        let first = Date(timeIntervalSince1970: 0), second = Date(timeIntervalSince1970: 1)
        let third = Date(timeIntervalSince1970: 2)
        let key = SettingsKey<Date?>("combineDynamicOptionalDateKey", default: { first })
        let seen = Recorder<(Date?, Date?)>()
        let token = settings.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
        settings[key] = second
        settings[key] = third
        settings[key] = nil
        token.cancel()
        XCTAssertEqual(seen.values.map(\.0), [first, second, third])
        XCTAssertEqual(seen.values.map(\.1), [second, third, first])
    }

    func testObserveMultipleKeysCombine() async {
        let key1 = SettingsKey<String>("observeKey1", default: "x")
        let key2 = SettingsKey<Bool>("observeKey2", default: true)
        var stream = settings.updates(key1, key2, initial: false).makeAsyncIterator()
        settings[key1] = "y"
        settings[key2] = false
        let a = await stream.next(), b = await stream.next()
        XCTAssertEqual(a?.0, "y")
        XCTAssertEqual(a?.1, true)
        XCTAssertEqual(b?.0, "y")
        XCTAssertEqual(b?.1, false)
    }

    func testObserveMultipleOptionalKeysCombine() async {
        let key1 = SettingsKey<String?>("observeOptionalKey1")
        let key2 = SettingsKey<Bool?>("observeOptionalKey2")
        var stream = settings.updates(key1, key2, initial: false).makeAsyncIterator()
        settings[key1] = "x"
        settings[key2] = true
        settings[key1] = nil
        let a = await stream.next(), b = await stream.next(), c = await stream.next()
        XCTAssertEqual(a?.0, "x")
        XCTAssertEqual(b?.1, true)
        XCTAssertEqual(c?.0, nil)
        XCTAssertEqual(c?.1, true)
    }

    func testReceiveValueBeforeSubscriptionCombine() async {
        let key = SettingsKey<String>("receiveValueBeforeSubscription", default: "hello")
        var stream = settings.updates(key).makeAsyncIterator()
        settings[key] = "world"
        let first = await stream.next(), second = await stream.next()
        XCTAssertEqual(first, "hello")
        XCTAssertEqual(second, "world")
    }

    func testObservePreventPropagationCombine() {
        let key1 = SettingsKey<Bool?>("preventPropagation6")
        let calls = Recorder<Bool?>()
        let settings: Settings = settings
        let token = settings.observe(key1) { change in
            calls.append(change.newValue)
            settings.withoutPropagation { settings[key1] = true }
        }
        settings[key1] = false
        token.cancel()
        XCTAssertEqual(calls.values, [false], "the observer's own write is not delivered to it")
        XCTAssertEqual(settings[key1], true)
    }

    func testObservePreventPropagationMultipleKeysCombine() {
        let key1 = SettingsKey<Bool?>("preventPropagation7")
        let key2 = SettingsKey<Bool?>("preventPropagation8")
        let calls = Recorder<[String]>()
        let names = Set([key1.name, key2.name])
        let settings: Settings = settings
        let stream = settings.changes()
        let task = Task {
            for await changed in stream where !names.isDisjoint(with: changed) {
                calls.append(changed)
                settings.withoutPropagation { settings[key1] = true }
            }
        }
        settings[key2] = false
        XCTAssertTrue(eventually { calls.values.count == 1 })
        XCTAssertTrue(eventually { settings[key1] == true })
        usleep(100_000)
        task.cancel()
        XCTAssertEqual(calls.values, [[key2.name]])
    }

    func testResetKey() throws {
        let defaultString1 = "foo1", defaultString2 = "foo2", defaultString3 = "foo3"
        let key1 = SettingsKey<String>("key1", default: defaultString1)
        let key2 = SettingsKey<String>("key2", default: defaultString2)
        settings[key1] = "bar1"
        settings[key2] = "bar2"
        try settings.reset(key1)
        XCTAssertEqual(settings[key1], defaultString1)
        XCTAssertEqual(settings[key2], "bar2")
        let key3 = SettingsKey<String?>("key3", default: defaultString3)
        settings[key3] = "bar3"
        try settings.reset(key3)
        XCTAssertEqual(settings[key3], defaultString3)
    }

    func testResetMultipleKeys() throws {
        let key1 = SettingsKey<String>("akey1", default: "foo1")
        let key2 = SettingsKey<Int>("akey2", default: 0)
        let key3 = SettingsKey<String>("akey3", default: "foo3")
        settings[key1] = "bar1"
        settings[key2] = 1
        settings[key3] = "bar3"
        try settings.reset([key1, key2])
        XCTAssertEqual(settings[key1], "foo1")
        XCTAssertEqual(settings[key2], 0)
        XCTAssertEqual(settings[key3], "bar3")
    }

    func testResetMultipleOptionalKeys() throws {
        let key1 = SettingsKey<String?>("aoptionalKey1")
        let key2 = SettingsKey<Int?>("aoptionalKey2")
        let key3 = SettingsKey<String?>("aoptionalKey3")
        settings[key1] = "bar1"
        settings[key2] = 1
        settings[key3] = "bar3"
        try settings.reset(key1, key2)
        XCTAssertNil(settings[key1])
        XCTAssertNil(settings[key2])
        XCTAssertEqual(settings[key3], "bar3")
    }

    func testImmediatelyFinishingPublisherCombine() async {
        let key = SettingsKey<Bool>("observeKey", default: false)
        var received: Bool?
        for await value in settings.updates(key) {
            received = value
            break
        }
        XCTAssertEqual(received, false)
    }

    func testImmediatelyFinishingMultiplePublisherCombine() async {
        let key1 = SettingsKey<Bool>("observeKey1", default: false)
        let key2 = SettingsKey<String?>("observeKey2")
        var received: (Bool, String?)?
        for await values in settings.updates(key1, key2) {
            received = values
            break
        }
        XCTAssertEqual(received?.0, false)
        XCTAssertNil(received?.1 ?? nil)
    }

    func testKeyEquatable() {
        XCTAssertEqual(
            SettingsKey<Bool>("equatableKeyTest", default: false), SettingsKey<Bool>("equatableKeyTest", default: false)
        )
    }

    func testKeyHashable() {
        let set: Set<SettingsKey<Bool>> = [SettingsKey("hashableKeyTest", default: false)]
        XCTAssertTrue(set.contains(SettingsKey("hashableKeyTest", default: true)))
    }

    func testUpdates() async {
        let key = SettingsKey<Bool>("updatesKey", default: false)
        var seen: [Bool] = []
        var stream = settings.updates(key).makeAsyncIterator()
        settings[key] = true
        if let first = await stream.next() { seen.append(first) }
        if let second = await stream.next() { seen.append(second) }
        XCTAssertEqual(seen, [false, true])
    }

    func testUpdatesMultipleKeys() async {
        let key1 = SettingsKey<Bool>("updatesMultipleKey1", default: false)
        let key2 = SettingsKey<Bool>("updatesMultipleKey2", default: false)
        var stream = settings.updates([key1, key2], initial: false).makeAsyncIterator()
        settings[key1] = true
        settings[key2] = true
        var count = 0
        while count < 2, await stream.next() != nil { count += 1 }
        XCTAssertEqual(count, 2)
    }

    func testUpdatesMultipleKeysVariadic() async {
        let key1 = SettingsKey<Bool>("updatesMultipleKeyVariadic1", default: false)
        let key2 = SettingsKey<Bool>("updatesMultipleKeyVariadic2", default: false)
        var stream = settings.updates(key1, key2, initial: false).makeAsyncIterator()
        settings[key1] = true
        settings[key2] = true
        let a = await stream.next(), b = await stream.next()
        XCTAssertEqual(a.map { [$0.0, $0.1] }, [true, false])
        XCTAssertEqual(b.map { [$0.0, $0.1] }, [true, true])
    }
}
