import PlistModel
import SettingsStore

/// One delivered change of a key: the value before (as this observer last saw it) and now.
///
///     settings.observe(.volume) { change in print(change.oldValue, change.newValue) }   // prints 50.0 70.0
public struct SettingsChange<Value: SettingsValue>: Sendable {
    /// The key's name.
    public let key: String
    /// The value before the change (named as in KVO and Defaults).
    public let oldValue: Value
    /// The value after it.
    public let newValue: Value
}
