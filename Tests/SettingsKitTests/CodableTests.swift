import Foundation
import PlistModel
import SettingsKit
import XCTest

// swift-foundation's PropertyListEncoderTests, restated for SettingsCodable: each value
// is stored, read back by a second `Settings` (from the file, not the cache), and where
// the shape matters, read by Foundation's own PropertyListSerialization.

/// Two nested containers under one key (swift-foundation's
/// `encodingMultipleNestedContainersWithTheSameTopLevelKey`): both fill one dictionary.
struct TwoNested: SettingsCodable, Equatable {
    enum Top: String, CodingKey { case top }
    enum First: String, CodingKey { case first }
    enum Second: String, CodingKey { case second }
    var first = "Johnny Appleseed", second = "John Appleseed"

    init() {}
    func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: Top.self)
        var one = top.nestedContainer(keyedBy: First.self, forKey: .top)
        try one.encode(first, forKey: .first)
        var two = top.nestedContainer(keyedBy: Second.self, forKey: .top)
        try two.encode(second, forKey: .second)
    }
    init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: Top.self)
        first = try top.nestedContainer(keyedBy: First.self, forKey: .top).decode(String.self, forKey: .first)
        second = try top.nestedContainer(keyedBy: Second.self, forKey: .top).decode(String.self, forKey: .second)
    }
}

/// An array with nil elements, as Foundation round-trips it (`[nil, "test", nil]`).
struct WithNils: SettingsCodable, Equatable {
    var items: [String?]
}

/// A value that encodes nil at the top level, through a single-value container.
struct Nullable: SettingsCodable, Equatable {
    var value: Int?
    init(_ value: Int?) { self.value = value }
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(value)
    }
    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        value = single.decodeNil() ? nil : try single.decode(Int.self)
    }
}

/// `superEncoder()` with coding keys that have no `super` case: Foundation stores the
/// superclass's part under the key "super".
struct WithSuper: SettingsCodable, Equatable {
    enum Keys: String, CodingKey { case name }
    var name = "child", base = 7

    init() {}
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Keys.self)
        try keyed.encode(name, forKey: .name)
        var parent = keyed.superEncoder().singleValueContainer()
        try parent.encode(base)
    }
    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Keys.self)
        name = try keyed.decode(String.self, forKey: .name)
        base = try keyed.superDecoder().singleValueContainer().decode(Int.self)
    }
}

/// Reads each element as an Int if it can, else as a Double, else as a String, as
/// Foundation allows: a failed `decode` does not move past the element.
struct Lenient: SettingsCodable, Equatable {
    var words: [String]
    init(words: [String]) { self.words = words }
    func encode(to encoder: any Encoder) throws {
        var items = encoder.unkeyedContainer()
        for word in words {
            if let i = Int(word) {
                try items.encode(i)
            } else if let d = Double(word) {
                try items.encode(d)
            } else {
                try items.encode(word)
            }
        }
    }
    init(from decoder: any Decoder) throws {
        var items = try decoder.unkeyedContainer()
        words = []
        while !items.isAtEnd {
            if let i = try? items.decode(Int.self) {
                words.append("\(i)")
            } else if let d = try? items.decode(Double.self) {
                words.append("\(d)")
            } else {
                words.append(try items.decode(String.self))
            }
        }
    }
}

/// A value whose encoding throws when it is not valid.
struct Checked: SettingsCodable, Equatable {
    struct Invalid: Error {}
    var level: Int
    func encode(to encoder: any Encoder) throws {
        guard level >= 0 else { throw Invalid() }
        var single = encoder.singleValueContainer()
        try single.encode(level)
    }
    init(level: Int) { self.level = level }
    init(from decoder: any Decoder) throws { level = try decoder.singleValueContainer().decode(Int.self) }
}

/// swift-foundation's `supers`: super encoders under a key, under "super" and inside an
/// unkeyed container, which reserves its place before the value after it.
struct UsesSupers: SettingsCodable, Equatable {
    enum Keys: String, CodingKey { case a, b, unkeyed }
    var seen: [String] = []

    init() {}
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Keys.self)
        try keyed.encodeNil(forKey: .a)
        var b = keyed.superEncoder(forKey: .b).singleValueContainer()
        try b.encode("b")
        var top = keyed.superEncoder().singleValueContainer()
        try top.encode("super")
        var unkeyed = keyed.superEncoder(forKey: .unkeyed).unkeyedContainer()
        try unkeyed.encodeNil()
        let middle = unkeyed.superEncoder()
        try unkeyed.encode("final")
        var m = middle.singleValueContainer()
        try m.encode("middle")
    }
    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Keys.self)
        if try keyed.decodeNil(forKey: .a) { seen.append("nil") }
        seen.append(try keyed.superDecoder(forKey: .b).singleValueContainer().decode(String.self))
        seen.append(try keyed.superDecoder().singleValueContainer().decode(String.self))
        var unkeyed = try keyed.superDecoder(forKey: .unkeyed).unkeyedContainer()
        if try unkeyed.decodeNil() { seen.append("nil") }
        seen.append(try unkeyed.superDecoder().singleValueContainer().decode(String.self))
        seen.append(try unkeyed.decode(String.self))
    }
}

/// swift-foundation's `unkeyedContainerContainingNulls`: explicit `encodeNil` calls.
struct ExplicitNils: SettingsCodable, Equatable {
    var array: [String?]
    init(array: [String?]) { self.array = array }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in array {
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        array = []
        while !container.isAtEnd { array.append(try container.decodeNil() ? nil : try container.decode(String.self)) }
    }
}

/// swift-foundation's `encodingConflictedTypeNestedContainersWithTheSameTopLevelKey`:
/// a keyed and then an unkeyed container under one key. Foundation traps; here the
/// encoding throws, and the stored value stays.
struct ConflictedContainers: SettingsCodable, Equatable {
    enum Top: String, CodingKey { case top }
    enum First: String, CodingKey { case first }
    init() {}
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Top.self)
        var first = container.nestedContainer(keyedBy: First.self, forKey: .top)
        try first.encode("Johnny Appleseed", forKey: .first)
        var second = container.nestedUnkeyedContainer(forKey: .top)
        try second.encode("second")
    }
    init(from decoder: any Decoder) throws {}
}

extension SettingsKeys {
    static let supers = SettingsKey<UsesSupers?>("supers")
    static let explicitNils = SettingsKey<ExplicitNils?>("explicitNils")
    static let conflicted = SettingsKey<ConflictedContainers?>("conflicted")
    static let twoNested = SettingsKey<TwoNested?>("twoNested")
    static let withNils = SettingsKey<WithNils?>("withNils")
    static let nullable = SettingsKey<Nullable>("nullable", default: Nullable(-1))
    static let withSuper = SettingsKey<WithSuper?>("withSuper")
    static let lenient = SettingsKey<Lenient>("lenient", default: Lenient(words: ["default"]))
    static let checked = SettingsKey<Checked>("checked", default: Checked(level: 0))
    static let checkedList = SettingsKey<[Checked]>("checkedList", default: [])
}

final class CodableTests: XCTestCase {
    var scratch: Scratch!
    var settings: Settings!

    override func setUp() {
        scratch = Scratch()
        settings = Settings(domain: "com.example.codable", directory: scratch.directory)
    }

    override func tearDown() { scratch.remove() }

    /// A second `Settings` reads the file itself, not this one's cache.
    private var fresh: Settings { Settings(domain: "com.example.codable", directory: scratch.directory) }

    /// The key's value as Foundation's PropertyListSerialization reads the file.
    private func foundation(_ key: String) throws -> Any? {
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.directory + "/com.example.codable.plist"))
        let root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        return root?[key]
    }

    func testTwoNestedContainersUnderOneKeyKeepBoth() throws {
        try settings.set(TwoNested(), for: .twoNested)
        XCTAssertEqual(fresh[.twoNested], TwoNested())
        let top = try XCTUnwrap(try foundation("twoNested") as? [String: Any])["top"] as? [String: String]
        XCTAssertEqual(top, ["first": "Johnny Appleseed", "second": "John Appleseed"])
    }

    func testNilElementsAreKeptAsFoundationsNullMarker() throws {
        let value = WithNils(items: [nil, "test", nil])
        try settings.set(value, for: .withNils)
        XCTAssertEqual(fresh[.withNils], value)
        let items = try XCTUnwrap(try foundation("withNils") as? [String: Any])["items"] as? [String]
        XCTAssertEqual(items, ["$null", "test", "$null"])
        // What Foundation's own encoder writes, SettingsKit reads.
        let encoded = try PropertyListEncoder().encode(["withNils": value])
        try encoded.write(to: URL(fileURLWithPath: scratch.directory + "/com.example.codable.plist"))
        XCTAssertEqual(fresh[.withNils], value)
    }

    func testATopLevelNilRoundTrips() throws {
        try settings.set(Nullable(nil), for: .nullable)
        XCTAssertEqual(fresh[.nullable], Nullable(nil))
        XCTAssertEqual(try foundation("nullable") as? String, "$null")
        try settings.set(Nullable(3), for: .nullable)
        XCTAssertEqual(fresh[.nullable], Nullable(3))
    }

    func testSuperEncoderWithoutASuperKeyIsStoredUnderSuper() throws {
        try settings.set(WithSuper(), for: .withSuper)
        XCTAssertEqual(fresh[.withSuper], WithSuper())
        let stored = try XCTUnwrap(try foundation("withSuper") as? [String: Any])
        XCTAssertEqual(stored["super"] as? Int, 7)
        XCTAssertEqual(stored["name"] as? String, "child")
    }

    func testAFailedDecodeDoesNotMovePastTheElement() throws {
        for words in [["1.2"], ["foo"], ["3", "1.5", "bar"]] {
            try settings.set(Lenient(words: words), for: .lenient)
            XCTAssertEqual(fresh[.lenient].words, words)
        }
    }

    func testSupersAsFoundationWritesThem() throws {
        try settings.set(UsesSupers(), for: .supers)
        XCTAssertEqual(fresh[.supers]?.seen, ["nil", "b", "super", "nil", "middle", "final"])
        let stored = try XCTUnwrap(try foundation("supers") as? [String: Any])
        XCTAssertEqual(stored["a"] as? String, "$null")
        XCTAssertEqual(stored["super"] as? String, "super")
        XCTAssertEqual(stored["unkeyed"] as? [String], ["$null", "middle", "final"])
    }

    func testExplicitNilsInAnArrayRoundTrip() throws {
        let value = ExplicitNils(array: [nil, "test", nil])
        try settings.set(value, for: .explicitNils)
        XCTAssertEqual(fresh[.explicitNils], value)
    }

    func testConflictingContainersUnderOneKeyAreRefused() throws {
        try settings.set(TwoNested(), for: .twoNested)
        XCTAssertThrowsError(try settings.set(ConflictedContainers(), for: .conflicted)) { error in
            guard case .unencodable(key: "conflicted", let reason) = error as? SettingsError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains("'top'"), reason)
        }
        XCTAssertNil(fresh[.conflicted])
        XCTAssertEqual(fresh[.twoNested], TwoNested())
    }

    /// An encoding that throws is reported and leaves the stored value as it was, through
    /// `set`, the subscript (to the error handler), `modify`, `batch` and an array of them.
    func testAThrowingEncodingKeepsTheStoredValueAndSaysWhy() throws {
        let reported = Reported()
        let settings = Settings(domain: "com.example.codable", directory: scratch.directory) { reported.add($0) }
        try settings.set(Checked(level: 4), for: .checked)
        try settings.set([Checked(level: 1)], for: .checkedList)
        XCTAssertThrowsError(try settings.set(Checked(level: -1), for: .checked)) { error in
            guard case .unencodable(key: "checked", _) = error as? SettingsError else { return XCTFail("\(error)") }
        }
        settings[.checked] = Checked(level: -2)
        XCTAssertThrowsError(try settings.modify(.checked) { $0.level = -3 })
        XCTAssertThrowsError(try settings.batch { $0[.checked] = Checked(level: -4) })
        XCTAssertThrowsError(try settings.set([Checked(level: 2), Checked(level: -5)], for: .checkedList))
        XCTAssertEqual(reported.errors.count, 1)
        XCTAssertTrue(reported.errors.first?.message.contains("'checked'") ?? false, "\(reported.errors)")
        XCTAssertEqual(fresh[.checked], Checked(level: 4))
        XCTAssertEqual(fresh[.checkedList], [Checked(level: 1)])
        XCTAssertEqual(try foundation("checked") as? Int, 4)
    }
}

/// Errors an error handler was given.
final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [SettingsError] = []
    func add(_ error: SettingsError) { lock.withLock { list.append(error) } }
    var errors: [SettingsError] { lock.withLock { list } }
}
