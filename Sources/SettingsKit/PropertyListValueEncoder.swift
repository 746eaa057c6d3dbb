import FoundationEssentials
import PlistModel
import PlistCodecs
import SettingsStore

/// `Encodable` to a property-list value, with no text in between: keyed containers
/// become dictionaries (in coding order), unkeyed ones arrays; Date and Data keep their
/// property-list types, URL and UUID are strings. A property list has no null: an encoded
/// nil is Foundation's marker string `$null`, which the decoder reads back as nil
/// (`encodeIfPresent`, which synthesized conformances use, leaves a nil key out).
enum PropertyListValueEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> PlistValue {
        let encoder = ValueEncoder(codingPath: [])
        try encoder.encodeValue(value)
        return try encoder.root.value()
    }
}
