import Foundation
import SettingsKit
import XCTest

// The rest of sindresorhus/Defaults' Tests/DefaultsTests: the suites whose tests are not the
// twelve of a value family (Array, Dictionary, Range, Set), the extra tests of the family
// suites, and DefaultsValidationTests. Names are the peers' test names.

extension SettingsKeys {
    static let array = SettingsKey<[String]>("array", default: ["Hank", "Chen"])
    static let dictionary = SettingsKey<[String: String]>("dictionary", default: ["0": "Hank"])
    static let magic = SettingsKey<[String: PlistValue]>("magic", default: [:])
}

final class DefaultsArrayTests: PeerTestCase {
    func testKey() {
        let key = SettingsKey<[String]>("independentArrayStringKey", default: ["Hank", "Chen"])
        XCTAssertEqual(settings[key][0], "Hank")
        settings[key][0] = "Chen"
        XCTAssertEqual(suite[key], ["Chen", "Chen"])
    }

    func testOptionalKey() {
        let key = SettingsKey<[String]?>("independentArrayOptionalStringKey")
        XCTAssertNil(settings[key])
        settings[key] = ["Hank", "Chen"]
        XCTAssertEqual(suite[key], ["Hank", "Chen"])
    }

    func testNestedKey() {
        let key = SettingsKey<[[String]]>("independentArrayNestedKey", default: [["Hank", "Chen"]])
        settings[key][0][0] = "Chen"
        settings[key].append(["Hank"])
        XCTAssertEqual(suite[key], [["Chen", "Chen"], ["Hank"]])
    }

    func testDictionaryKey() {
        let key = SettingsKey<[[String: String]]>("independentArrayDictionaryKey", default: [["0": "Hank"]])
        settings[key][0]["0"] = "Chen"
        settings[key].append(["0": "Hank"])
        XCTAssertEqual(suite[key], [["0": "Chen"], ["0": "Hank"]])
    }

    func testNestedDictionaryKey() {
        let key = SettingsKey<[[String: [String: String]]]>(
            "independentArrayNestedDictionaryKey", default: [["0": ["0": "Hank"]]])
        settings[key][0]["0"]?["0"] = "Chen"
        XCTAssertEqual(suite[key], [["0": ["0": "Chen"]]])
    }

    func testType() {
        XCTAssertEqual(settings[.array][0], "Hank")
        settings.array[0] = "Chen"
        XCTAssertEqual(suite[.array], ["Chen", "Chen"])
    }

    func testObserveKeyCombine() {
        DefaultsShapes.observe(settings, ["Hank", "Chen"], ["Chen", "Hank"])
    }

    func testObserveOptionalKeyCombine() {
        DefaultsShapes.observeOptional(settings, ["Hank"], ["Chen"])
    }
}

final class DefaultsDictionaryTests: PeerTestCase {
    func testKey() {
        let key = SettingsKey<[String: String]>("independentDictionaryStringKey", default: ["0": "Hank"])
        settings[key]["0"] = "Chen"
        XCTAssertEqual(suite[key], ["0": "Chen"])
    }

    func testOptionalKey() {
        let key = SettingsKey<[String: String]?>("independentDictionaryOptionalStringKey")
        XCTAssertNil(settings[key])
        settings[key] = ["0": "Hank"]
        XCTAssertEqual(suite[key], ["0": "Hank"])
    }

    func testNestedKey() {
        let key = SettingsKey<[String: [String: String]]>(
            "independentDictionaryNestedKey", default: ["0": ["0": "Hank"]])
        settings[key]["0"]?["0"] = "Chen"
        settings[key]["1"] = ["0": "Hank"]
        XCTAssertEqual(suite[key], ["0": ["0": "Chen"], "1": ["0": "Hank"]])
    }

    func testArrayKey() {
        let key = SettingsKey<[String: [String]]>("independentDictionaryArrayKey", default: ["0": ["Hank"]])
        settings[key]["0"]?.append("Chen")
        XCTAssertEqual(suite[key], ["0": ["Hank", "Chen"]])
    }

    func testIntKey() {
        let key = SettingsKey<[Int: String]>("independentDictionaryIntKey", default: [0: "Hank"])
        settings[key][1] = "Chen"
        XCTAssertEqual(suite[key], [0: "Hank", 1: "Chen"])
        XCTAssertEqual(file["independentDictionaryIntKey"] as? [String: String], ["0": "Hank", "1": "Chen"])
    }

    func testType() {
        XCTAssertEqual(settings[.dictionary]["0"], "Hank")
        settings.dictionary["0"] = "Chen"
        XCTAssertEqual(suite[.dictionary], ["0": "Chen"])
    }
}

final class DefaultsRangeTests: PeerTestCase {
    func testKey() {
        DefaultsShapes.key(settings, suite, 0..<10, 1..<11)
        let closed = SettingsKey<ClosedRange<Double>>("independentClosedRangeKey", default: 0...1.5)
        settings[closed] = 1...2.5
        XCTAssertEqual(suite[closed], 1...2.5)
    }

    func testOptionalKey() { DefaultsShapes.optionalKey(settings, suite, 0..<10, 1..<11) }
    func testArrayKey() { DefaultsShapes.arrayKey(settings, suite, 0...10, 1...11) }
    func testDictionaryKey() { DefaultsShapes.dictionaryKey(settings, suite, 0...10, 1...11) }
}

final class DefaultsSetTests: PeerTestCase {
    func testKey() { DefaultsShapes.key(settings, suite, Set([0, 1]), Set([2, 3])) }
    func testOptionalKey() { DefaultsShapes.optionalKey(settings, suite, Set([0, 1]), Set([2, 3])) }
    func testArrayKey() { DefaultsShapes.arrayKey(settings, suite, Set([0, 1]), Set([2, 3])) }
    func testDictionaryKey() { DefaultsShapes.dictionaryKey(settings, suite, Set([0, 1]), Set([2, 3])) }
}

/// The extra tests of the family suites.
final class DefaultsFamilyExtraTests: PeerTestCase {
    /// DefaultsCodableTests.testCodableAndRawRepresentable: a type both Codable and
    /// RawRepresentable is stored as its raw value (SettingsKit needs no JSON string for it).
    func testCodableAndRawRepresentable() {
        struct Unicorn: Codable, RawRepresentable, SettingsValue, Equatable { var rawValue: String }
        let key = SettingsKey<Unicorn?>("independentKey_codableAndRawRepresentable")
        settings[key] = Unicorn(rawValue: "x")
        XCTAssertEqual(suite[key]?.rawValue, "x")
        XCTAssertEqual(file[key.name] as? String, "x")
    }

    /// DefaultsCodableEnumTests.testFixtureCodableEnumPreferRawRepresentable
    func testFixtureCodableEnumPreferRawRepresentable() {
        let key = SettingsKey<FixtureCodableEnum>("independentCodableEnumPreferRaw", default: .tenMinutes)
        settings[key] = .halfHour
        XCTAssertEqual(file[key.name] as? String, "30 Minutes")
    }

    /// DefaultsAnySeriliazableTests.testReadMeExample
    func testReadMeExample() {
        let any = SettingsKey<PlistValue>("anyKey", default: Mime.json.propertyListValue!)
        XCTAssertEqual(Mime(propertyListValue: settings[any]), .json)
        settings[any] = Mime.stream.propertyListValue!
        XCTAssertEqual(Mime(propertyListValue: settings[any]), .stream)
        settings.magic["unicorn"] = "🦄"
        settings.magic["number"] = 3
        settings.magic["boolean"] = true
        settings.magic["enum"] = Mime.json.propertyListValue
        XCTAssertEqual(settings.magic["unicorn"], "🦄")
        XCTAssertEqual(settings.magic["number"], 3)
        XCTAssertEqual(settings.magic["boolean"].flatMap(Bool.init(propertyListValue:)), true)
        XCTAssertEqual(settings.magic["enum"].flatMap(Mime.init(propertyListValue:)), .json)
        settings.magic["enum"] = Mime.stream.propertyListValue
        XCTAssertEqual(suite.magic["enum"].flatMap(Mime.init(propertyListValue:)), .stream)
    }

    /// DefaultsAnySeriliazableTests.testSetKey: a set of mixed values.
    func testSetKey() {
        let key = SettingsKey<Set<PlistValue>>("independentArrayAnyKey", default: [123])
        XCTAssertEqual(settings[key].first, 123)
        let values: [PlistValue] = [
            12_131.4, Date().propertyListValue!, .data(Array("Hello World!".utf8)), .int(Int64.max),
            Int8.max.propertyListValue!, UInt64.max.propertyListValue!, false, .float(1213.14), "Hello World!",
            [1, 2, 3, 4], ["Hello": "World!"], Unicorn(isUnicorn: true).propertyListValue!,
        ]
        for value in values {
            settings[key].insert(value)
            XCTAssertTrue(settings[key].contains(value), "\(value)")
        }
        XCTAssertEqual(suite[key].count, values.count + 1)
    }

    /// DefaultsAnySeriliazableTests.testWrongCast
    func testWrongCast() {
        let value: PlistValue = false
        XCTAssertEqual(Bool(propertyListValue: value), false)
        XCTAssertNil(String(propertyListValue: value))
    }

    /// DefaultsCustomBridgeTests.testSetKey
    func testCustomBridgeSetKey() {
        let a = User(username: "hank121314", password: "123456"), b = User(username: "chen", password: "1")
        DefaultsShapes.key(settings, suite, Set([a]), Set([a, b]))
    }

    /// DefaultsCustomBridgeTests.testRecursiveKey: a type whose conversion uses another's,
    /// stored as an array of two JSON strings.
    func testRecursiveKey() {
        let range = PlainHourMinuteTimeRange(
            start: PlainHourMinuteTime(hour: 1, minute: 0), end: PlainHourMinuteTime(hour: 2, minute: 0))
        let key = SettingsKey<PlainHourMinuteTimeRange>("independentCustomBridgeRecursiveKey", default: range)
        XCTAssertEqual(settings[key], range)
        let next = PlainHourMinuteTimeRange(
            start: PlainHourMinuteTime(hour: 3, minute: 58), end: PlainHourMinuteTime(hour: 4, minute: 59))
        settings[key] = next
        XCTAssertEqual(suite[key], next)
        XCTAssertEqual(file[key.name] as? [String], [#"{"hour":3,"minute":58}"#, #"{"hour":4,"minute":59}"#])
    }
}

final class DefaultsValidationTests: PeerTestCase {
    func testKeyNameValidation() {
        // Defaults tells which names KVO can observe; SettingsKit observes every name, and
        // stores each as it is, dots and all (defaults write treats them so too).
        for name in [
            "validKey123", "invalid.key", "@invalidKey", "", ".", "@", "key.with.multiple.dots", "@key.with.both",
        ] {
            let key = SettingsKey<String>(name, default: "test")
            settings[key] = "set"
            XCTAssertEqual(suite[key], "set", name)
            XCTAssertEqual(file[name] as? String, "set", name)
        }
    }

    func testKeyEquality() {
        let key1 = SettingsKey<String>("testKey", default: "value")
        let key2 = SettingsKey<String>("testKey", default: "value")
        let key3 = SettingsKey<String>("differentKey", default: "value")
        XCTAssertEqual(key1, key2)
        XCTAssertNotEqual(key1, key3)
        // A key names a key in any domain: Defaults binds a suite to each key, SettingsKit
        // binds the domain to the Settings, so key4 of Defaults' test has no counterpart.
    }

    func testKeyHashability() {
        let set: Set<SettingsKey<String>> = [
            SettingsKey("testKey", default: "value"), SettingsKey("testKey", default: "value"),
            SettingsKey("differentKey", default: "value"),
        ]
        XCTAssertEqual(set.count, 2)
    }

    func testIsDefaultValue() throws {
        let key = SettingsKey<String>("defaultValueTest", default: "defaultValue")
        XCTAssertTrue(settings.isDefaultValue(key))
        settings[key] = "newValue"
        XCTAssertFalse(settings.isDefaultValue(key))
        try settings.reset(key)
        XCTAssertTrue(settings.isDefaultValue(key))
        settings[key] = "defaultValue"
        XCTAssertTrue(settings.isDefaultValue(key))
    }

    func testIsDefaultValueNonEquatable() throws {
        // Compared as stored values, so a type need not be Equatable.
        let key = SettingsKey<User>("internalTest", default: User(username: "a", password: "b"))
        XCTAssertTrue(settings.isDefaultValue(key))
        settings[key] = User(username: "c", password: "d")
        XCTAssertFalse(settings.isDefaultValue(key))
        try settings.reset(key)
        XCTAssertTrue(settings.isDefaultValue(key))
    }

    func testOptionalKeyDefaultBehavior() {
        let key = SettingsKey<String?>("optionalTest")
        XCTAssertNil(settings[key])
        settings[key] = "test"
        XCTAssertEqual(settings[key], "test")
        settings[key] = nil
        XCTAssertNil(settings[key])
        XCTAssertNil(file["optionalTest"])
    }

    func testDynamicDefaultValue() throws {
        let dynamicValue = Recorder<String>()
        dynamicValue.append("initial")
        let key = SettingsKey<String>("dynamicTest", default: { dynamicValue.values.last! })
        XCTAssertEqual(settings[key], "initial")
        dynamicValue.append("changed")
        try settings.reset(key)
        XCTAssertEqual(settings[key], "changed")
        settings[key] = "specific"
        XCTAssertEqual(settings[key], "specific")
        try settings.reset(key)
        XCTAssertEqual(settings[key], "changed")
    }

    func testDynamicOptionalDefaultValue() throws {
        let returnNil = Recorder<Bool>()
        let key = SettingsKey<String?>(
            "dynamicOptionalTest", default: { returnNil.values.last == true ? nil : "dynamic" })
        XCTAssertEqual(settings[key], "dynamic")
        returnNil.append(true)
        try settings.reset(key)
        XCTAssertNil(settings[key])
        settings[key] = "specific"
        XCTAssertEqual(settings[key], "specific")
        try settings.reset(key)
        XCTAssertNil(settings[key])
    }

    func testUserDefaultsSubscript() throws {
        let key = SettingsKey<Int>("subscriptTest", default: 42)
        XCTAssertEqual(suite[key], 42)
        suite[key] = 100
        XCTAssertEqual(suite[key], 100)
        XCTAssertEqual(settings[key], 100)
        try suite.reset(key)
        XCTAssertEqual(suite[key], 42)
        XCTAssertEqual(settings[key], 42)
    }

    func testRemoveAllBehavior() throws {
        let key1 = SettingsKey<String>("removeAll1", default: "default1")
        let key2 = SettingsKey<Int>("removeAll2", default: 42)
        settings[key1] = "changed1"
        settings[key2] = 100
        try settings.removeAll()
        XCTAssertEqual(settings[key1], "default1")
        XCTAssertEqual(settings[key2], 42)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/com.peers.suite.plist"))
    }

    func testUserDefaultsRemoveAll() throws {
        let key = SettingsKey<String>("userDefaultsRemoveAll", default: "default")
        suite[key] = "changed"
        try suite.removeAll()
        XCTAssertEqual(settings[key], "default")
    }

    func testKeyRegistersDefaultValues() {
        // Not registered: a default lives in the key, read by every Settings given the key,
        // and is never written where another program would take it for the user's choice.
        let key = SettingsKey<String>("registeredDefault", default: "registered")
        XCTAssertEqual(suite[key], "registered")
        XCTAssertFalse(suite.contains(key))
        XCTAssertNil(file["registeredDefault"])
    }

    func testOptionalKeyDoesNotRegisterNil() {
        let key = SettingsKey<String?>("optionalNoRegister")
        XCTAssertNil(settings[key])
        XCTAssertFalse(settings.contains(key))
        XCTAssertNil(file["optionalNoRegister"])
    }
}
