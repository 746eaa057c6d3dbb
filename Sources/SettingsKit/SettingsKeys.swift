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
    /// The key in the domain's file; dots and slashes are plain characters. Every key has
    /// one, whatever its value type, so `reset(.volume, .name)` needs no cast.
    public let name: String

    init(name: String) { self.name = name }
}
