import PlistModel
import PlistCodecs
import SettingsStore

extension Settings {
    /// The values a batch changes; reads inside it see the batch's own writes.
    ///
    ///     try settings.batch { $0[.volume] = 70; $0[.volume] += 1 }; settings[.volume]   //=> 71
    @dynamicMemberLookup
    public struct Batch {
        var values: PlistDictionary
        /// The first value that could not be encoded: the batch then writes nothing.
        var failure: SettingsError?
        /// The key's value in the batch (its default when absent); setting it changes the batch.
        public subscript<Value>(key: SettingsKey<Value>) -> Value {
            get { values[key.name].flatMap(key.decoded) ?? key.defaultValue }
            set {
                do { values[key.name] = try key.encoded(newValue) } catch { failure = failure ?? error }
            }
        }
        /// Removes the key in the batch, so it reads as its default.
        public mutating func reset<Value>(_ key: SettingsKey<Value>) { values.removeValue(forKey: key.name) }
    }
}
