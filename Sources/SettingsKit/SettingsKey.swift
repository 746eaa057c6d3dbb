import PlistModel
import PlistCodecs
import SettingsStore

/// A typed key: its name in the file, the value read when nothing is stored, and an
/// optional adjustment applied to every value written (a clamp, a validation).
///
///     SettingsKey<Int>("count", default: 0).name   //=> "count"
public final class SettingsKey<Value: SettingsValue>: SettingsKeys, @unchecked Sendable {
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
        (defaultSource, adjust, bounds) = (.fixed(defaultValue), nil, nil)
        super.init(name: name)
    }

    /// A default computed at each read and never written, as Defaults' dynamic default:
    /// `SettingsKey<String>("name", default: { hostName() })`.
    public init(_ name: String, default dynamicDefault: @escaping @Sendable () -> Value) {
        (defaultSource, adjust, bounds) = (.computed(dynamicDefault), nil, nil)
        super.init(name: name)
    }

    /// `SettingsKey<Int>("level", default: 1) { max($0, 1) }`: every written value goes
    /// through `adjust` first.
    public init(_ name: String, default defaultValue: Value, adjust: @escaping @Sendable (Value) -> Value) {
        (defaultSource, self.adjust, bounds) = (.fixed(defaultValue), adjust, nil)
        super.init(name: name)
    }

    init(
        _ name: String, default defaultValue: Value, adjust: @escaping @Sendable (Value) -> Value,
        bounds: (PlistValue, PlistValue)?
    ) {
        (defaultSource, self.adjust, self.bounds) = (.fixed(defaultValue), adjust, bounds)
        super.init(name: name)
    }
}

extension SettingsKey {
    /// What a write of `value` stores: the value after the key's adjustment, encoded.
    func encoded(_ value: Value) throws(SettingsError) -> PlistValue? {
        do { return try (adjust?(value) ?? value).encodePropertyList() } catch {
            throw .unencodable(key: name, reason: "\(error)")
        }
    }

    /// Why `stored` does not read as the key's type: for an enum (`CaseIterable` with raw
    /// values, or an optional of one), which cases are valid.
    func mismatch(_ stored: PlistValue) -> SettingsError {
        if let cases = CaseNames.of(Value.self) {
            let found = String(decoding: DefaultsPrinter.renderLine(stored), as: UTF8.self)
            return .notACase(key: name, found: "'\(found)'", cases: cases)
        }
        return .wrongType(key: name, found: TypeTable.row(for: stored).phrase)
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
