import PlistModel
import PlistCodecs
import SettingsStore

/// Where keys are declared, once, as in the seeds: `extension SettingsKeys { static let … }`.
/// A class, so a key declared here is found as `.volume` wherever a `SettingsKey` is
/// expected.
///
///     extension SettingsKeys {
///         static let volume = SettingsKey<Double>("volume", default: 50, clampedTo: 0...100)
///         static let name = SettingsKey<String?>("name")
///     }
///     settings[.volume] += 5
public class SettingsKeys: @unchecked Sendable {
    init() {}
}

/// A typed key: its name in the file, the value read when nothing is stored, and an
/// optional adjustment applied to every value written (a clamp, a validation).
///
///     SettingsKey<Int>("count", default: 0).name   //=> "count"
public final class SettingsKey<Value: SettingsValue>: SettingsKeys, @unchecked Sendable {
    /// The key in the domain's file; dots and slashes are plain characters.
    public let name: String
    /// What a read returns when the key is absent or holds another type. Never written.
    /// A dynamic default is computed again at each read.
    public var defaultValue: Value {
        switch defaultSource {
        case .fixed(let value): value
        case .computed(let make): make()
        }
    }
    private enum Default {
        case fixed(Value)
        case computed(@Sendable () -> Value)
    }
    private let defaultSource: Default
    let adjust: (@Sendable (Value) -> Value)?
    /// The bounds of a clamped key, for its schema.
    let bounds: (PlistValue, PlistValue)?

    /// `SettingsKey<Int>("count", default: 0)`
    public init(_ name: String, default defaultValue: Value) {
        (self.name, defaultSource, adjust, bounds) = (name, .fixed(defaultValue), nil, nil)
    }

    /// A default computed at each read and never written, as Defaults' dynamic default:
    /// `SettingsKey<String>("name", default: { hostName() })`.
    public init(_ name: String, default dynamicDefault: @escaping @Sendable () -> Value) {
        (self.name, defaultSource, adjust, bounds) = (name, .computed(dynamicDefault), nil, nil)
    }

    /// `SettingsKey<Int>("level", default: 1) { max($0, 1) }`: every written value goes
    /// through `adjust` first.
    public init(_ name: String, default defaultValue: Value, adjust: @escaping @Sendable (Value) -> Value) {
        (self.name, defaultSource, self.adjust, bounds) = (name, .fixed(defaultValue), adjust, nil)
    }

    init(
        _ name: String, default defaultValue: Value, adjust: @escaping @Sendable (Value) -> Value,
        bounds: (PlistValue, PlistValue)?
    ) {
        (self.name, defaultSource, self.adjust, self.bounds) = (name, .fixed(defaultValue), adjust, bounds)
    }
}

extension SettingsKey {
    /// What a write of `value` stores: the value after the key's adjustment, encoded.
    func encoded(_ value: Value) throws(SettingsError) -> PlistValue? {
        do { return try (adjust?(value) ?? value).encodePropertyList() } catch {
            throw .unencodable(key: name, reason: "\(error)")
        }
    }

    /// What a stored value reads as: the key's type, through the key's adjustment, so a
    /// clamped key reads clamped whoever wrote the file. Nil when it has another type.
    func decoded(_ stored: PlistValue) -> Value? {
        Value(propertyListValue: stored).map { adjust?($0) ?? $0 }
    }
}

extension SettingsKey: Hashable {
    /// Two keys are equal when they name the same key in the file (compared as bytes).
    public static func == (a: SettingsKey, b: SettingsKey) -> Bool { a.name.utf8.elementsEqual(b.name.utf8) }
    /// The name's bytes.
    public func hash(into hasher: inout Hasher) { ExactKey(name).hash(into: &hasher) }
}

extension SettingsKey {
    /// An optional key: `SettingsKey<String?>("name")` reads nil until something is stored,
    /// and writing nil removes it.
    public convenience init<Wrapped: SettingsValue>(_ name: String) where Value == Wrapped? {
        self.init(name, default: nil)
    }
}

extension SettingsKey where Value: Comparable {
    /// `SettingsKey<Double>("volume", default: 50, clampedTo: 0...100)`: a written value
    /// outside the range is stored as the nearest bound, as the seed's KVO example clamps.
    public convenience init(_ name: String, default defaultValue: Value, clampedTo range: ClosedRange<Value>) {
        let bounds = range.lowerBound.propertyListValue.flatMap { low in
            range.upperBound.propertyListValue.map { (low, $0) }
        }
        self.init(
            name, default: defaultValue, adjust: { min(max($0, range.lowerBound), range.upperBound) }, bounds: bounds)
    }
}
