/// What keys a stored dictionary may have in Swift: `String`, every fixed-width integer and
/// other `LosslessStringConvertible` types by an empty conformance, and an enum whose raw
/// value is a `String` (`enum Day: String, SettingsDictionaryKey`). In the file, keys are text.
public protocol SettingsDictionaryKey: Hashable, Sendable {
    /// The key as stored.
    var settingsKeyText: String { get }
    /// The key for stored text; nil when the text names none.
    init?(settingsKeyText: String)
}

extension SettingsDictionaryKey where Self: LosslessStringConvertible {
    /// `description`, as `String(self)` gives it.
    public var settingsKeyText: String { description }
    /// `Self(text)`.
    public init?(settingsKeyText text: String) { self.init(text) }
}

extension SettingsDictionaryKey where Self: RawRepresentable, RawValue == String {
    /// The raw value.
    public var settingsKeyText: String { rawValue }
    /// The case with this raw value.
    public init?(settingsKeyText text: String) { self.init(rawValue: text) }
}

extension String: SettingsDictionaryKey {}
extension Int: SettingsDictionaryKey {}
extension Int8: SettingsDictionaryKey {}
extension Int16: SettingsDictionaryKey {}
extension Int32: SettingsDictionaryKey {}
extension Int64: SettingsDictionaryKey {}
extension UInt: SettingsDictionaryKey {}
extension UInt8: SettingsDictionaryKey {}
extension UInt16: SettingsDictionaryKey {}
extension UInt32: SettingsDictionaryKey {}
extension UInt64: SettingsDictionaryKey {}
