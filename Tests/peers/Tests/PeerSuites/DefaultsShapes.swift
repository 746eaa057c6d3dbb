import Foundation
import SettingsKit
import XCTest

/// The tests every value family of sindresorhus/Defaults runs (`testKey` …
/// `testDictionaryType`), for a fixture `a` and another value `b` of one type. Each ends by
/// reading through a second `Settings` (`suite`), so what is checked is the file, not only
/// this instance's memory.
enum DefaultsShapes {
    static func key<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<T>("independentKey", default: a)
        XCTAssertEqual(s[key], a, file: file, line: line)
        s[key] = b
        XCTAssertEqual(s[key], b, file: file, line: line)
        XCTAssertEqual(suite[key], b, file: file, line: line)
    }

    static func optionalKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<T?>("independentOptionalKey")
        XCTAssertNil(s[key], file: file, line: line)
        s[key] = a
        XCTAssertEqual(s[key], a, file: file, line: line)
        XCTAssertEqual(suite[key], a, file: file, line: line)
        s[key] = nil
        XCTAssertNil(s[key], file: file, line: line)
        XCTAssertNil(suite[key], file: file, line: line)
        s[key] = b
        XCTAssertEqual(suite[key], b, file: file, line: line)
    }

    static func arrayKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[T]>("independentArrayKey", default: [a])
        XCTAssertEqual(s[key][0], a, file: file, line: line)
        s[key].append(b)
        XCTAssertEqual(s[key], [a, b], file: file, line: line)
        XCTAssertEqual(suite[key], [a, b], file: file, line: line)
    }

    static func arrayOptionalKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[T]?>("independentArrayOptionalKey")
        XCTAssertNil(s[key], file: file, line: line)
        s[key] = [a]
        s[key]?.append(b)
        XCTAssertEqual(s[key], [a, b], file: file, line: line)
        XCTAssertEqual(suite[key], [a, b], file: file, line: line)
    }

    static func nestedArrayKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[[T]]>("independentNestedArrayKey", default: [[a]])
        XCTAssertEqual(s[key][0][0], a, file: file, line: line)
        s[key].append([a])
        s[key][0].append(b)
        XCTAssertEqual(s[key], [[a, b], [a]], file: file, line: line)
        XCTAssertEqual(suite[key], [[a, b], [a]], file: file, line: line)
    }

    static func arrayDictionaryKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[[String: T]]>("independentArrayDictionaryKey", default: [["0": a]])
        XCTAssertEqual(s[key][0]["0"], a, file: file, line: line)
        s[key].append(["0": a])
        s[key][0]["1"] = b
        XCTAssertEqual(s[key], [["0": a, "1": b], ["0": a]], file: file, line: line)
        XCTAssertEqual(suite[key], [["0": a, "1": b], ["0": a]], file: file, line: line)
    }

    static func dictionaryKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[String: T]>("independentDictionaryKey", default: ["0": a])
        XCTAssertEqual(s[key]["0"], a, file: file, line: line)
        s[key]["1"] = b
        XCTAssertEqual(s[key], ["0": a, "1": b], file: file, line: line)
        XCTAssertEqual(suite[key], ["0": a, "1": b], file: file, line: line)
    }

    static func dictionaryOptionalKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[String: T]?>("independentDictionaryOptionalKey")
        XCTAssertNil(s[key], file: file, line: line)
        s[key] = ["0": a]
        s[key]?["1"] = b
        XCTAssertEqual(s[key], ["0": a, "1": b], file: file, line: line)
        XCTAssertEqual(suite[key], ["0": a, "1": b], file: file, line: line)
    }

    static func dictionaryArrayKey<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<[String: [T]]>("independentDictionaryArrayKey", default: ["0": [a]])
        XCTAssertEqual(s[key]["0"]?[0], a, file: file, line: line)
        s[key]["1"] = [a]
        s[key]["0"]?.append(b)
        XCTAssertEqual(s[key], ["0": [a, b], "1": [a]], file: file, line: line)
        XCTAssertEqual(suite[key], ["0": [a, b], "1": [a]], file: file, line: line)
    }

    /// `testType`: a key declared on `SettingsKeys`, by name.
    static func type<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ path: SettingsKeyPath<T>, _ a: T, _ b: T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(s[dynamicMember: path], a, file: file, line: line)
        s[dynamicMember: path] = b
        XCTAssertEqual(s[dynamicMember: path], b, file: file, line: line)
        XCTAssertEqual(suite[dynamicMember: path], b, file: file, line: line)
    }

    static func arrayType<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ path: SettingsKeyPath<[T]>, _ a: T, _ b: T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(s[dynamicMember: path], [a], file: file, line: line)
        s[dynamicMember: path][0] = b
        XCTAssertEqual(s[dynamicMember: path], [b], file: file, line: line)
        XCTAssertEqual(suite[dynamicMember: path], [b], file: file, line: line)
    }

    static func dictionaryType<T: SettingsValue & Equatable>(
        _ s: Settings, _ suite: Settings, _ path: SettingsKeyPath<[String: T]>, _ a: T, _ b: T,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(s[dynamicMember: path]["0"], a, file: file, line: line)
        s[dynamicMember: path]["0"] = b
        XCTAssertEqual(s[dynamicMember: path], ["0": b], file: file, line: line)
        XCTAssertEqual(suite[dynamicMember: path], ["0": b], file: file, line: line)
    }

    /// `testObserveKeyCombine`: the changes of a key, old and new, as they are made.
    static func observe<T: SettingsValue & Equatable & Sendable>(
        _ s: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<T>("observeKey", default: a)
        let seen = Recorder<(T, T)>()
        let token = s.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
        s[key] = b
        try? s.reset(key)
        token.cancel()
        s[key] = b
        XCTAssertEqual(seen.values.map(\.0), [a, b], file: file, line: line)
        XCTAssertEqual(seen.values.map(\.1), [b, a], file: file, line: line)
    }

    /// `testObserveOptionalKeyCombine`.
    static func observeOptional<T: SettingsValue & Equatable & Sendable>(
        _ s: Settings, _ a: T, _ b: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        let key = SettingsKey<T?>("observeOptionalKey")
        let seen = Recorder<(T?, T?)>()
        let token = s.observe(key) { seen.append(($0.oldValue, $0.newValue)) }
        s[key] = a
        s[key] = b
        try? s.reset(key)
        token.cancel()
        XCTAssertEqual(seen.values.map(\.0), [nil, a, b], file: file, line: line)
        XCTAssertEqual(seen.values.map(\.1), [a, b, nil], file: file, line: line)
    }
}
