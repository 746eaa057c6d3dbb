import FoundationEssentials
import PlistModel
import SettingsStore

/// A property-list value to a `Decodable` type: the inverse of `PropertyListValueEncoder`,
/// lenient where Foundation is (a real may be read from an integer). The string `$null`
/// reads as nil, and a failed `decode` in an array does not move past the element.
enum PropertyListValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from value: PlistValue) throws -> T {
        try ValueDecoder(value, codingPath: []).decodeValue(type)
    }
}
