import PlistModel
import PlistCodecs
import SettingsStore

/// A Swift type that can live in a settings file: how it becomes a property-list value
/// and how it is read back.
///
/// Bool, the fixed-width integers, Float, Double, String, `[UInt8]` (as data), arrays,
/// string-keyed dictionaries and optionals of these conform; so do Date, Data, URL and
/// UUID. An enum with a raw value conforms by an empty conformance, and so does a
/// `Codable` type through `SettingsCodable`, stored as a native dictionary or array.
///
///     enum Theme: String, SettingsValue { case light, dark }
///     Theme.dark.propertyListValue   //=> .string("dark")
public protocol SettingsValue: Sendable {
    /// The value as stored; nil removes the key (an optional's `nil`).
    var propertyListValue: PlistValue? { get }
    /// The Swift value for what is stored, or nil when it has another type.
    init?(propertyListValue: PlistValue)
    /// The value as stored, or the error that keeps it from being stored (a `Codable`
    /// type whose `encode(to:)` throws). `Settings` writes through this, so a value that
    /// cannot be encoded is refused and never replaces what is stored. Defaults to
    /// `propertyListValue`.
    func encodePropertyList() throws -> PlistValue?
}

extension SettingsValue {
    /// `propertyListValue`, which cannot fail.
    public func encodePropertyList() throws -> PlistValue? { propertyListValue }
}

extension Bool: SettingsValue {
    /// Stored as a boolean.
    public var propertyListValue: PlistValue? { .bool(self) }
    /// A boolean, or 0 and 1 (what an integer flag from an old writer looks like).
    public init?(propertyListValue value: PlistValue) {
        switch value {
        case .bool(let b): self = b
        case .int(let i) where i.int64 == 0 || i.int64 == 1: self = i.int64 == 1
        default: return nil
        }
    }
}

extension String: SettingsValue {
    /// Stored as a string.
    public var propertyListValue: PlistValue? { .string(self) }
    /// A stored string.
    public init?(propertyListValue value: PlistValue) {
        guard case .string(let s) = value else { return nil }
        self = s
    }
}

extension Double: SettingsValue {
    /// Stored as a real (a double).
    public var propertyListValue: PlistValue? { .double(self) }
    /// A real of either width, or an integer (Foundation stores 75.0 as it likes).
    public init?(propertyListValue value: PlistValue) {
        switch value {
        case .double(let d): self = d
        case .float(let f): self = Double(f)
        case .int(let i): self = i.doubleValue
        default: return nil
        }
    }
}

extension Float: SettingsValue {
    /// Stored as the real its shortest decimal spells (12.34, not 12.340000152…), so a
    /// Double key, Foundation's `double(forKey:)` and `settings read` all see the number
    /// that was set, and the Float reads back exactly.
    public var propertyListValue: PlistValue? { .double(Double(description) ?? Double(self)) }
    /// What `Double` reads (a real of either width, or an integer), rounded to a `Float`.
    public init?(propertyListValue value: PlistValue) {
        guard let d = Double(propertyListValue: value) else { return nil }
        self = Float(d)
    }
}

/// Every fixed-width integer, with one implementation: a stored integer that does not
/// fit the type reads as absent, never as a truncated number. (A constrained extension,
/// not a protocol of its own, so no plumbing protocol is public API.)
extension SettingsValue where Self: FixedWidthInteger {
    /// Stored as an integer (above `Int64.max`, as plists allow up to `UInt64.max`).
    public var propertyListValue: PlistValue? {
        Self.isSigned ? .int(PlistInteger(Int64(self))) : .int(PlistInteger(unsigned: UInt64(self)))
    }
    /// A stored integer that fits the type; nil when it does not.
    public init?(propertyListValue value: PlistValue) {
        guard case .int(let i) = value else { return nil }
        if let signed = i.int64 {
            guard let v = Self(exactly: signed) else { return nil }
            self = v
        } else {
            guard let v = Self(exactly: i.bitPattern) else { return nil }
            self = v
        }
    }
}

extension Int: SettingsValue {}
extension Int8: SettingsValue {}
extension Int16: SettingsValue {}
extension Int32: SettingsValue {}
extension Int64: SettingsValue {}
extension UInt: SettingsValue {}
extension UInt8: SettingsValue {}
extension UInt16: SettingsValue {}
extension UInt32: SettingsValue {}
extension UInt64: SettingsValue {}

extension Array: SettingsValue where Element: SettingsValue {
    /// `[UInt8]` is stored as data, as Foundation stores `Data`; other arrays as arrays, a
    /// nil element as `$null`.
    public var propertyListValue: PlistValue? {
        // The type, not the cast: any empty array casts to [UInt8], and `[]` of strings
        // must stay an array.
        if Element.self == UInt8.self, let bytes = self as? [UInt8] { return .data(bytes) }
        return .array(map { $0.propertyListValue ?? nullMarker })
    }
    /// The elements' encodings; the first that throws is thrown.
    public func encodePropertyList() throws -> PlistValue? {
        if Element.self == UInt8.self { return propertyListValue }
        return .array(try map { try $0.encodePropertyList() ?? nullMarker })
    }
    /// Stored data (for `[UInt8]`) or an array whose every element reads as `Element`
    /// (`$null` as nil, for optional elements).
    public init?(propertyListValue value: PlistValue) {
        switch value {
        case .data(let bytes) where Element.self == UInt8.self: self = bytes as! [Element]
        case .array(let items):
            var out: [Element] = []
            out.reserveCapacity(items.count)
            let nullable = Element.self as? any NullableValue.Type
            for item in items {
                if let nullable, item == nullMarker {
                    out.append(nullable.null as! Element)
                    continue
                }
                guard let element = Element(propertyListValue: item) else { return nil }
                out.append(element)
            }
            self = out
        default: return nil
        }
    }
}

extension Dictionary: SettingsValue where Key: SettingsDictionaryKey, Value: SettingsValue {
    /// Stored as a dictionary, its keys as text.
    public var propertyListValue: PlistValue? {
        var dict = PlistDictionary()
        for (key, value) in self { dict[key.settingsKeyText] = value.propertyListValue }
        return .dict(dict)
    }
    /// The values' encodings; the first that throws is thrown.
    public func encodePropertyList() throws -> PlistValue? {
        var dict = PlistDictionary()
        for (key, value) in self { dict[key.settingsKeyText] = try value.encodePropertyList() }
        return .dict(dict)
    }
    /// A stored dictionary whose every key reads as `Key` and every value as `Value`.
    public init?(propertyListValue value: PlistValue) {
        guard case .dict(let dict) = value else { return nil }
        var out: [Key: Value] = [:]
        for entry in dict.sortedEntries {
            guard let k = Key(settingsKeyText: entry.key), let v = Value(propertyListValue: entry.value) else {
                return nil
            }
            out[k] = v
        }
        self = out
    }
}

extension Set: SettingsValue where Element: SettingsValue {
    /// Stored as an array (in no particular order).
    public var propertyListValue: PlistValue? { .array(compactMap(\.propertyListValue)) }
    /// The elements' encodings; the first that throws is thrown.
    public func encodePropertyList() throws -> PlistValue? { .array(try compactMap { try $0.encodePropertyList() }) }
    /// A stored array whose every element reads as `Element`.
    public init?(propertyListValue value: PlistValue) {
        guard case .array = value, let elements = [Element](propertyListValue: value) else { return nil }
        self.init(elements)
    }
}

extension ClosedRange: SettingsValue where Bound: SettingsValue {
    /// Stored as a two-element array, `[lower, upper]`, as Defaults stores a range.
    public var propertyListValue: PlistValue? { RangeBounds.value(lowerBound, upperBound) }
    /// A stored `[lower, upper]` with lower ≤ upper.
    public init?(propertyListValue value: PlistValue) {
        guard let (low, high): (Bound, Bound) = RangeBounds.bounds(value) else { return nil }
        self = low...high
    }
}

extension Range: SettingsValue where Bound: SettingsValue {
    /// Stored as a two-element array, `[lower, upper]`.
    public var propertyListValue: PlistValue? { RangeBounds.value(lowerBound, upperBound) }
    /// A stored `[lower, upper]` with lower ≤ upper.
    public init?(propertyListValue value: PlistValue) {
        guard let (low, high): (Bound, Bound) = RangeBounds.bounds(value) else { return nil }
        self = low..<high
    }
}

extension PlistValue: SettingsValue {
    /// Itself: a `SettingsKey<PlistValue>` holds any property-list value (Defaults'
    /// `AnySerializable`), written with literals: `settings[.mixed] = ["a": 1, "b": [true]]`.
    public var propertyListValue: PlistValue? { self }
    /// Whatever is stored.
    public init?(propertyListValue value: PlistValue) { self = value }
}

extension Optional: SettingsValue where Wrapped: SettingsValue {
    /// The wrapped value's; nil (absent) for nil.
    public var propertyListValue: PlistValue? { self?.propertyListValue }
    /// The wrapped value's encoding; nil for nil.
    public func encodePropertyList() throws -> PlistValue? { try self?.encodePropertyList() }
    /// The wrapped type's reading of a stored value.
    public init?(propertyListValue value: PlistValue) {
        guard let wrapped = Wrapped(propertyListValue: value) else { return nil }
        self = .some(wrapped)
    }
}

/// An enum with a raw value is stored as its raw value: `enum Theme: String, SettingsValue {}`.
extension SettingsValue where Self: RawRepresentable, RawValue: SettingsValue {
    /// Stored as its raw value.
    public var propertyListValue: PlistValue? { rawValue.propertyListValue }
    /// The case whose raw value is stored; nil for any other value.
    public init?(propertyListValue value: PlistValue) {
        guard let raw = RawValue(propertyListValue: value) else { return nil }
        self.init(rawValue: raw)
    }
}
