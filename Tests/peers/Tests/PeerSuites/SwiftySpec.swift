import Foundation
import SettingsKit
import XCTest

/// SwiftyUserDefaults' `DefaultsSerializableSpec`, the same groups of cases run on each
/// type (SwiftySpecs.swift). One XCTest method per group (`when(…)` in the spec); each case
/// (`then(…)`) starts from an empty domain and names itself in any failure. The spec's
/// `defaults[key: k]` is `settings[k]`, its `defaults.testValue` (dynamicMemberLookup) is
/// `settings[dynamicMember: \.…]`, `removeObject`/`remove` is `reset`, and `hasKey` is
/// `contains`.
enum SwiftySpec {
    /// The keys of one type, declared on `SettingsKeys` so they can be used by name, all
    /// of the spec's key name "test": a plain key and an array key with defaults, the same
    /// optional with defaults, and optional with none.
    struct Paths<T: SettingsValue & Equatable> {
        let value: SettingsKeyPath<T>
        let array: SettingsKeyPath<[T]>
        let optionalValue: SettingsKeyPath<T?>
        let optionalArray: SettingsKeyPath<[T]?>
        let nilValue: SettingsKeyPath<T?>
        let nilArray: SettingsKeyPath<[T]?>
    }

    static func named<V: SettingsValue>(_ path: SettingsKeyPath<V>) -> SettingsKey<V> {
        SettingsKeys.self[keyPath: path]
    }

    /// Runs one case on an emptied domain.
    static func then(_ s: Settings, _ name: String, _ body: (String) -> Void) {
        try? s.removeAll()
        body(name)
    }

    /// when("key-default value")
    static func keyDefaultValue<T>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        let key = named(p.value), array = named(p.array)
        then(s, "create a key") {
            XCTAssertEqual(key.name, "test", $0); XCTAssertEqual(key.defaultValue, d, $0)
        }
        then(s, "create an array key") {
            XCTAssertEqual(array.name, "test", $0); XCTAssertEqual(array.defaultValue, [d], $0)
        }
        then(s, "get a default value") { XCTAssertEqual(s[key], d, $0) }
        then(s, "get a default value with dynamicMemberLookup") { XCTAssertEqual(s[dynamicMember: p.value], d, $0) }
        then(s, "get a default array value") { XCTAssertEqual(s[array], [d], $0) }
        then(s, "get a default array value with dynamicMemberLookup") {
            XCTAssertEqual(s[dynamicMember: p.array], [d], $0)
        }
        then(s, "save a value") {
            s[key] = c; XCTAssertEqual(s[key], c, $0)
        }
        then(s, "save a value with dynamicMemberLookup") {
            s[dynamicMember: p.value] = c
            XCTAssertEqual(s[dynamicMember: p.value], c, $0)
        }
        then(s, "save an array value") {
            s[array] = [c]; XCTAssertEqual(s[array], [c], $0)
        }
        then(s, "save an array value with dynamicMemberLookup") {
            s[dynamicMember: p.array] = [c]
            XCTAssertEqual(s[dynamicMember: p.array], [c], $0)
        }
        then(s, "remove a value") {
            s[key] = c; try? s.reset(key); XCTAssertEqual(s[key], d, $0)
        }
        then(s, "remove a value with dynamicMemberLookup") {
            s[dynamicMember: p.value] = c
            try? s.reset(key)
            XCTAssertFalse(s.contains(key), $0)
            XCTAssertEqual(s[dynamicMember: p.value], d, $0)
        }
        let optionalArray = Self.named(p.optionalArray)
        then(s, "remove an array value") {
            s[optionalArray] = [c]
            try? s.reset(optionalArray)
            XCTAssertEqual(s[optionalArray], [d], $0)
        }
        then(s, "remove an array value with dynamicMemberLookup") {
            s[dynamicMember: p.optionalArray] = [c]
            try? s.reset(optionalArray)
            XCTAssertFalse(s.contains(optionalArray), $0)
            XCTAssertEqual(s[dynamicMember: p.optionalArray], [d], $0)
        }
    }

    /// when("key-default optional value")
    static func keyDefaultOptionalValue<T>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        let key = named(p.optionalValue), array = named(p.optionalArray)
        then(s, "create a key") {
            XCTAssertEqual(key.name, "test", $0); XCTAssertEqual(key.defaultValue, d, $0)
        }
        then(s, "create an array key") { XCTAssertEqual(array.defaultValue, [d], $0) }
        then(s, "get a default value") { XCTAssertEqual(s[key], d, $0) }
        then(s, "get a default value with dynamicMemberLookup") {
            XCTAssertEqual(s[dynamicMember: p.optionalValue], d, $0)
        }
        then(s, "get a default array value") { XCTAssertEqual(s[array], [d], $0) }
        then(s, "get a default array value with dynamicMemberLookup") {
            XCTAssertEqual(s[dynamicMember: p.optionalArray], [d], $0)
        }
        then(s, "save a value") {
            s[key] = c; XCTAssertEqual(s[key], c, $0)
        }
        then(s, "save a value with dynamicMemberLookup") {
            s[dynamicMember: p.optionalValue] = c
            XCTAssertEqual(s[dynamicMember: p.optionalValue], c, $0)
        }
        then(s, "save an array value") {
            s[array] = [c]; XCTAssertEqual(s[array], [c], $0)
        }
        then(s, "save an array value with dynamicMemberLookup") {
            s[dynamicMember: p.optionalArray] = [c]
            XCTAssertEqual(s[dynamicMember: p.optionalArray], [c], $0)
        }
        // A key with a default reads the default once its value is removed, nil or not.
        then(s, "remove a value") {
            s[key] = c; s[key] = nil; XCTAssertEqual(s[key], d, $0)
        }
        then(s, "remove a value with dynamicMemberLookup") {
            s[dynamicMember: p.optionalValue] = c
            s[dynamicMember: p.optionalValue] = nil
            XCTAssertEqual(s[dynamicMember: p.optionalValue], d, $0)
        }
        then(s, "remove an array value") {
            s[array] = [c]; try? s.reset(array); XCTAssertEqual(s[array], [d], $0)
        }
        then(s, "remove an array value with dynamicMemberLookup") {
            s[dynamicMember: p.optionalArray] = [c]
            s[dynamicMember: p.optionalArray] = nil
            XCTAssertEqual(s[dynamicMember: p.optionalArray], [d], $0)
        }
    }

    /// when("key-nil optional value")
    static func keyNilOptionalValue<T>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        let key = named(p.nilValue), array = named(p.nilArray)
        then(s, "create a key") {
            XCTAssertEqual(key.name, "test", $0); XCTAssertNil(key.defaultValue, $0)
        }
        then(s, "create an array key") { XCTAssertNil(array.defaultValue, $0) }
        then(s, "save a value") {
            s[key] = c; XCTAssertEqual(s[key], c, $0)
        }
        then(s, "save a value with dynamicMemberLookup") {
            s[dynamicMember: p.nilValue] = c
            XCTAssertEqual(s[dynamicMember: p.nilValue], c, $0)
        }
        then(s, "save an array value") {
            s[array] = [c]; XCTAssertEqual(s[array], [c], $0)
        }
        then(s, "save an array value with dynamicMemberLookup") {
            s[dynamicMember: p.nilArray] = [c]
            XCTAssertEqual(s[dynamicMember: p.nilArray], [c], $0)
        }
        then(s, "remove a value") {
            s[key] = c; s[key] = nil; XCTAssertNil(s[key], $0)
        }
        then(s, "remove a value with dynamicMemberLookup") {
            s[dynamicMember: p.nilValue] = c
            s[dynamicMember: p.nilValue] = nil
            XCTAssertNil(s[dynamicMember: p.nilValue], $0)
        }
        then(s, "remove an array value") {
            s[array] = [c]; s[array] = nil; XCTAssertNil(s[array], $0)
        }
        then(s, "remove an array with dynamicMemberLookup") {
            s[dynamicMember: p.nilArray] = [c]
            s[dynamicMember: p.nilArray] = nil
            XCTAssertNil(s[dynamicMember: p.nilArray], $0)
        }
        then(s, "compare optional value to non-optional value") {
            XCTAssertTrue(s[key] == nil, $0)
            XCTAssertTrue(s[key] != d, $0)
        }
        then(s, "compare optional value to non-optional value with dynamicMemberLookup") {
            XCTAssertTrue(s[dynamicMember: p.nilValue] == nil, $0)
            XCTAssertTrue(s[dynamicMember: p.nilValue] != d, $0)
        }
    }

    /// What one observer was told: (old, new) pairs.
    typealias Updates<V: Sendable> = Recorder<(V, V)>

    /// The cases every observing group shares, on `key` (by value) and `path` (by name),
    /// whose absent value is `absent`: updates as a value is set, the initial call with the
    /// absent value as old (KVO's), an observer reading the key inside its handler, a
    /// write from another thread, and no delivery after cancelling.
    static func observing<V: SettingsValue & Equatable & Sendable>(
        _ s: Settings, _ key: SettingsKey<V>, _ path: SettingsKeyPath<V>, absent: V, set value: V
    ) {
        then(s, "receive updates") {
            let seen = Updates<V>()
            let token = s.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
            s[key] = value
            token.cancel()
            XCTAssertEqual(seen.values.last?.0, absent, $0)
            XCTAssertEqual(seen.values.last?.1, value, $0)
        }
        then(s, "receive updates with dynamicMemberLookup") {
            let seen = Updates<V>()
            let token = s.observe(path) { seen.append(($0.oldValue, $0.newValue)) }
            s[dynamicMember: path] = value
            token.cancel()
            XCTAssertEqual(seen.values.last?.1, value, $0)
        }
        for (name, byName, stored) in [
            ("receives initial update being absent", false, false), ("receives initial update being set", false, true),
            ("receives initial update being absent with keyPaths", true, false),
            ("receives initial update being set with keyPaths", true, true),
        ] {
            then(s, name) {
                if stored { s[key] = value }
                let seen = Updates<V>()
                let token =
                    byName
                    ? s.observe(path, initial: true) { seen.append(($0.oldValue, $0.newValue)) }
                    : s.observe(key, initial: true) { seen.append(($0.oldValue, $0.newValue)) }
                token.cancel()
                XCTAssertEqual(seen.values.count, 1, $0)
                XCTAssertEqual(seen.values.first?.0, absent, $0)
                XCTAssertEqual(seen.values.first?.1, stored ? value : absent, $0)
            }
        }
        then(s, "reference itself in the update closure without crash") {
            let seen = Updates<V>()
            let token = s.observe(key) { _ in seen.append((s[key], s[key])) }
            s[key] = value
            token.cancel()
            XCTAssertEqual(seen.values.last?.0, value, $0)
        }
        then(s, "reference itself in the update closure on custom queue without crash") {
            let seen = Updates<V>()
            let token = s.observe(key) { change in seen.append((change.newValue, s[key])) }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global(qos: .utility).async {
                s[key] = value
                done.signal()
            }
            done.wait()
            XCTAssertTrue(eventually { seen.values.count == 1 }, $0)
            token.cancel()
            XCTAssertEqual(seen.values.last?.0, value, $0)
            XCTAssertEqual(seen.values.last?.1, value, $0)
        }
        then(s, "remove observer on dispose") {
            let seen = Updates<V>()
            let token = s.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
            token.cancel()
            s[key] = value
            XCTAssertTrue(seen.values.isEmpty, $0)
        }
        then(s, "remove observer on dispose with dynamicMemberLookup") {
            let seen = Updates<V>()
            let token = s.observe(path) { seen.append(($0.oldValue, $0.newValue)) }
            token.cancel()
            s[dynamicMember: path] = value
            XCTAssertTrue(seen.values.isEmpty, $0)
        }
    }

    /// given("key-value observing") when("optional key without default value")
    static func observingNilOptional<T: Sendable>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        observing(s, named(p.nilValue), p.nilValue, absent: nil, set: c)
        then(s, "receives nil update") {
            let seen = Updates<T?>()
            let token = s.observe(p.nilValue) { seen.append(($0.oldValue, $0.newValue)) }
            s[named(p.nilValue)] = d
            s[named(p.nilValue)] = nil
            token.cancel()
            guard let last = seen.values.last else { return XCTFail("no update: " + $0) }
            XCTAssertEqual(last.0, d, $0)
            XCTAssertNil(last.1, $0)
        }
    }

    /// when("optional key with default value")
    static func observingDefaultOptional<T: Sendable>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        observing(s, named(p.optionalValue), p.optionalValue, absent: d, set: c)
        then(s, "receives nil update") {
            // Swifty's observer is told of the two writes (old and new both the default);
            // ours only of changes of the value read, and neither changes it (documented
            // beside `observe`): the value read is the default throughout.
            let seen = Updates<T?>()
            let token = s.observe(p.optionalValue) { seen.append(($0.oldValue, $0.newValue)) }
            s[named(p.optionalValue)] = d
            s[named(p.optionalValue)] = nil
            token.cancel()
            XCTAssertTrue(seen.values.allSatisfy { $0.0 == d && $0.1 == d }, $0)
            XCTAssertEqual(s[named(p.optionalValue)], d, $0)
        }
    }

    /// when("non-optional key")
    static func observingValue<T: Sendable>(_ s: Settings, _ p: Paths<T>, _ d: T, _ c: T) {
        observing(s, named(p.value), p.value, absent: d, set: c)
    }

    /// given("plist-registered values"): values on the command line (`-key value`), read
    /// as the key's type as Foundation reads them, through plain, optional, and optional
    /// keys with a default.
    static func launchArguments<T: SettingsValue & Equatable>(_ folder: String, _ rows: [(String, T?)], _ d: T) {
        var arguments = ["program"]
        for (index, row) in rows.enumerated() { arguments += ["-argumentToInject\(index)", row.0] }
        let s = Settings(domain: "com.peers.arguments", arguments: arguments, directory: folder)
        for (index, (text, expected)) in rows.enumerated() {
            let name = "argumentToInject\(index)", message = "key: \(name), stringValue: \(text)"
            XCTAssertEqual(
                s[SettingsKey<T>(name, default: d)], expected ?? d, "read values to non-optional keys, " + message)
            XCTAssertEqual(s[SettingsKey<T?>(name)], expected, "read values to optional keys, " + message)
            XCTAssertEqual(
                s[SettingsKey<T?>(name, default: d)], expected ?? d,
                "read values to optional keys with default values, " + message)
        }
    }
}
