import Observation
import Synchronization
import PlistModel
import PlistCodecs
import SettingsStore

/// A `Settings` for the Observation framework: a read through it inside
/// `withObservationTracking` (or a SwiftUI-style view on it) is tracked per key, and a
/// change from any writer (this process, the CLI, another process, an administrator's
/// file) calls the tracking's `onChange`. Built on the toolchain's `Observation` module.
///
///     let model = SettingsModel(settings)
///     withObservationTracking { _ = model.volume } onChange: { print("volume changed") }
///     model.volume = 70   // prints "volume changed"
@dynamicMemberLookup
public final class SettingsModel: Observable, Sendable {
    /// The settings read and written.
    public let settings: Settings
    private let registrar = ObservationRegistrar()
    private let subscription: SettingsObservation

    /// Observes `settings` for as long as the model lives (a watcher runs meanwhile).
    public init(_ settings: Settings) {
        self.settings = settings
        let registrar = registrar
        let box = WeakModel()
        subscription = settings.addObserver(nil) { names in
            guard let model = box.model else { return }
            for name in names { registrar.withMutation(of: model, keyPath: \.[tracking: TrackedName(name)]) {} }
        }
        box.model = self
    }

    /// The value for `key`; the read is tracked, and setting it stores it.
    public subscript<Value>(key: SettingsKey<Value>) -> Value {
        get {
            registrar.access(self, keyPath: \.[tracking: TrackedName(key.name)])
            return settings[key]
        }
        set { settings[key] = newValue }
    }

    /// A key of `SettingsKeys` by name: `model.volume`.
    public subscript<Value>(dynamicMember key: SettingsKeyPath<Value>) -> Value {
        get { self[SettingsKeys.self[keyPath: key]] }
        set { self[SettingsKeys.self[keyPath: key]] = newValue }
    }

    /// One key path per key name, so tracking is per key (its value is never read).
    subscript(tracking name: TrackedName) -> Int { 0 }
}
