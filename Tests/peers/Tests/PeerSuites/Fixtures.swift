import Foundation
import SettingsKit

// The peers' fixture types, written as a SettingsKit user would write them: Codable
// structs through SettingsCodable, String enums through RawRepresentable, a custom
// collection and set algebra through Codable, and one type with its own conversion (the
// peers' "bridge").

/// Defaults' `Unicorn`, a Codable struct.
struct Unicorn: SettingsCodable, Equatable, Hashable {
    var isUnicorn: Bool
}

/// Defaults' `FixtureEnum`: stored as its raw value.
enum FixtureEnum: String, SettingsValue, CaseIterable {
    case tenMinutes = "10 Minutes"
    case halfHour = "30 Minutes"
    case oneHour = "1 Hour"
}

/// Defaults' `FixtureCodableEnum`: Codable and RawRepresentable; the raw value is what is
/// stored, as Defaults prefers it.
enum FixtureCodableEnum: String, Codable, SettingsValue {
    case tenMinutes = "10 Minutes"
    case halfHour = "30 Minutes"
    case oneHour = "1 Hour"
}

/// An element type of the custom-element suites.
struct Item: Codable, Hashable, SettingsCodable {
    var name: String
    var count: Int
}

/// Defaults' `Bag`: a collection of the user's own, stored as an array.
struct Bag<Element: Codable & Equatable & Sendable>: Collection, SettingsCodable, Equatable {
    var items: [Element]
    init(items: [Element]) { self.items = items }
    var startIndex: Int { items.startIndex }
    var endIndex: Int { items.endIndex }
    func index(after i: Int) -> Int { items.index(after: i) }
    subscript(position: Int) -> Element { items[position] }
    mutating func insert(_ element: Element, at index: Int) { items.insert(element, at: index) }
    init(from decoder: any Decoder) throws { items = try [Element](from: decoder) }
    func encode(to encoder: any Encoder) throws { try items.encode(to: encoder) }
}

/// Defaults' `DefaultsSetAlgebra`: a set algebra of the user's own, stored as an array.
struct DefaultsSetAlgebra<Element: Hashable & Codable & Sendable>: SetAlgebra, SettingsCodable {
    var store = Set<Element>()
    init() {}
    init(_ sequence: some Sequence<Element>) { store = Set(sequence) }
    func contains(_ member: Element) -> Bool { store.contains(member) }
    func union(_ other: Self) -> Self { Self(store.union(other.store)) }
    func intersection(_ other: Self) -> Self { Self(store.intersection(other.store)) }
    func symmetricDifference(_ other: Self) -> Self { Self(store.symmetricDifference(other.store)) }
    @discardableResult
    mutating func insert(_ newMember: Element) -> (inserted: Bool, memberAfterInsert: Element) {
        store.insert(newMember)
    }
    mutating func remove(_ member: Element) -> Element? { store.remove(member) }
    mutating func update(with newMember: Element) -> Element? { store.update(with: newMember) }
    mutating func formUnion(_ other: Self) { store.formUnion(other.store) }
    mutating func formSymmetricDifference(_ other: Self) { store.formSymmetricDifference(other.store) }
    mutating func formIntersection(_ other: Self) { store.formIntersection(other.store) }
    init(from decoder: any Decoder) throws { store = Set(try [Element](from: decoder)) }
    func encode(to encoder: any Encoder) throws { try Array(store).encode(to: encoder) }
}

/// Defaults' custom-bridge `User`: converted by hand to a dictionary and back.
struct User: SettingsValue, Hashable {
    var username: String
    var password: String
    var propertyListValue: PlistValue? { .dict(["username": .string(username), "password": .string(password)]) }
    init(username: String, password: String) { (self.username, self.password) = (username, password) }
    init?(propertyListValue value: PlistValue) {
        guard case .dict(let d) = value, case .string(let u)? = d["username"], case .string(let p)? = d["password"]
        else { return nil }
        self.init(username: u, password: p)
    }
}

/// Defaults' recursive bridge: a range of times stored as an array of two JSON strings,
/// each time converted by its own conversion.
struct PlainHourMinuteTime: SettingsValue, Equatable {
    var hour, minute: Int
    var propertyListValue: PlistValue? { .string("{\"hour\":\(hour),\"minute\":\(minute)}") }
    init(hour: Int, minute: Int) { (self.hour, self.minute) = (hour, minute) }
    init?(propertyListValue value: PlistValue) {
        guard case .string(let text) = value,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int],
            let hour = object["hour"], let minute = object["minute"]
        else { return nil }
        self.init(hour: hour, minute: minute)
    }
}

struct PlainHourMinuteTimeRange: SettingsValue, Equatable {
    var start, end: PlainHourMinuteTime
    var propertyListValue: PlistValue? { [start, end].propertyListValue }
    init(start: PlainHourMinuteTime, end: PlainHourMinuteTime) { (self.start, self.end) = (start, end) }
    init?(propertyListValue value: PlistValue) {
        guard let pair = [PlainHourMinuteTime](propertyListValue: value), pair.count == 2 else { return nil }
        self.init(start: pair[0], end: pair[1])
    }
}

/// Defaults' README `mime` enum, for the mixed-value (AnySerializable) suite.
enum Mime: String, SettingsValue {
    case json = "application/json"
    case stream = "application/octet-stream"
}

/// SwiftyUserDefaults' fixtures.
enum BestFroggiesEnum: String, SettingsValue {
    case andy = "Andy"
    case dandy = "Dandy"
}

struct FrogCodable: SettingsCodable, Equatable {
    var name: String
}

/// Swifty's `FrogCustomSerializable`: its own conversion, stored as the name alone.
struct FrogCustomSerializable: SettingsValue, Equatable {
    var name: String
    var propertyListValue: PlistValue? { .string(name) }
    init(name: String) { self.name = name }
    init?(propertyListValue value: PlistValue) {
        guard case .string(let name) = value else { return nil }
        self.name = name
    }
}
