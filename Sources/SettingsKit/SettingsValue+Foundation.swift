import FoundationEssentials
import PlistModel
import PlistCodecs
import SettingsStore

extension Date: SettingsValue {
    /// Stored as a date.
    public var propertyListValue: PlistValue? { .date(PlistDate(secondsSince2001: timeIntervalSinceReferenceDate)) }
    /// A stored date.
    public init?(propertyListValue value: PlistValue) {
        guard case .date(let date) = value else { return nil }
        self.init(timeIntervalSinceReferenceDate: date.secondsSince2001)
    }
}

extension Data: SettingsValue {
    /// Stored as data.
    public var propertyListValue: PlistValue? { .data([UInt8](self)) }
    /// Stored data.
    public init?(propertyListValue value: PlistValue) {
        guard case .data(let bytes) = value else { return nil }
        self.init(bytes)
    }
}

/// A URL is stored as Foundation on Linux stores one, so each reads the other's: a file
/// URL as its path (`/hello/world`), and a string that is a path (`/…`, `~/…`) reads as a
/// file URL. Other URLs keep their whole text, which Foundation's `url(forKey:)` would
/// read as a path (the man page's COMPATIBILITY section says so).
extension URL: SettingsValue {
    /// A file URL's path; any other URL's absolute string.
    public var propertyListValue: PlistValue? { .string(isFileURL ? path : absoluteString) }
    /// A stored path as a file URL (`~` is the home folder), else a URL with a scheme,
    /// else a path relative to the current folder, as Foundation reads it.
    public init?(propertyListValue value: PlistValue) {
        guard case .string(let text) = value, !text.isEmpty else { return nil }
        if text == "~" || text.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            self.init(fileURLWithPath: home + text.dropFirst())
        } else if !text.hasPrefix("/"), let url = URL(string: text), url.scheme != nil {
            self = url
        } else {
            self.init(fileURLWithPath: text)
        }
    }
}

extension UUID: SettingsValue {
    /// Stored as its string.
    public var propertyListValue: PlistValue? { .string(uuidString) }
    /// A stored string that is a UUID.
    public init?(propertyListValue value: PlistValue) {
        guard case .string(let text) = value else { return nil }
        self.init(uuidString: text)
    }
}

/// A `Codable` type stored as a native property-list dictionary or array (never as a
/// JSON string inside a string), so `settings read` and Foundation see its fields:
///
///     struct Frame: Codable, SettingsCodable { var x = 0, y = 0 }
///     Frame().propertyListValue   //=> .dict(["x": 0, "y": 0])
public protocol SettingsCodable: Codable, SettingsValue {}

extension SettingsCodable {
    /// Stored as the property list its `Encodable` conformance makes (a dictionary for a struct).
    public var propertyListValue: PlistValue? { try? PropertyListValueEncoder.encode(self) }
    /// The property list its `Encodable` conformance makes, or the error it throws.
    public func encodePropertyList() throws -> PlistValue? { try PropertyListValueEncoder.encode(self) }
    /// Decoded from a stored property list; nil when it does not decode.
    public init?(propertyListValue value: PlistValue) {
        guard let decoded = try? PropertyListValueDecoder.decode(Self.self, from: value) else { return nil }
        self = decoded
    }
}
