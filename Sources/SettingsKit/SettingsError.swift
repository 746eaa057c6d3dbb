import PlistModel
import PlistCodecs
import SettingsStore

/// What went wrong, for the throwing API and the error handler.
///
///     SettingsError.wrongType(key: "volume", found: "a string").message
///     //=> "the value of 'volume' is a string, not the key's type; the default is used"
public enum SettingsError: Error, Sendable, Equatable {
    /// The domain's file could not be read, locked or written.
    case store(StoreError)
    /// A stored value of another type than the key's; the default was used instead.
    case wrongType(key: String, found: String)
    /// A stored value that names none of an enum key's cases (`"neon"` for a `Theme`): the
    /// text found and the raw values that are valid. The default was used instead.
    case notACase(key: String, found: String, cases: [String])
    /// A value that could not be encoded (its `encode(to:)` threw); nothing was written.
    case unencodable(key: String, reason: String)

    /// One line for a user.
    public var message: String {
        switch self {
        case .store(let error): error.message
        case let .wrongType(key, found): "the value of '\(key)' is \(found), not the key's type; the default is used"
        case let .notACase(key, found, cases):
            "the value of '\(key)' is \(found), not one of \(cases.joined(separator: ", ")); the default is used"
        case let .unencodable(key, reason):
            "the value for '\(key)' cannot be stored (\(reason)); the stored value is unchanged"
        }
    }
}
