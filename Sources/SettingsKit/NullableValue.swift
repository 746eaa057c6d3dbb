import PlistModel
import SettingsStore

/// What a nil element of an array is stored as, Foundation's `$null` marker string: a
/// property list has no null, and this is what `PropertyListEncoder` writes and reads.
let nullMarker: PlistValue = .string("$null")

/// An optional element type, so that an array can store and read back its nil elements.
protocol NullableValue { static var null: Self { get } }
extension Optional: NullableValue where Wrapped: SettingsValue {
    static var null: Self { .none }
}
