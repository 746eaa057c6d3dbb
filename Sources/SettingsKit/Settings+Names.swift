import PlistModel
import SettingsStore

/// A key declared on `SettingsKeys`, named by its key path: `\.volume` for
/// `extension SettingsKeys { static let volume = SettingsKey<Double>(…) }`.
public typealias SettingsKeyPath<Value: SettingsValue> = Swift.KeyPath<SettingsKeys.Type, SettingsKey<Value>>

extension Settings {
    /// The key declared as `SettingsKeys.NAME`, read and written by name, as the peers'
    /// `Defaults[.name]` and Swifty's `Defaults.name` are: `settings.volume += 5`.
    ///
    ///     settings.volume = 70; settings.volume   //=> 70
    public subscript<Value>(dynamicMember key: SettingsKeyPath<Value>) -> Value {
        get { self[SettingsKeys.self[keyPath: key]] }
        set { self[SettingsKeys.self[keyPath: key]] = newValue }
    }

    /// `observe(_:initial:_:)` for a key named by its key path: `settings.observe(\.volume) { … }`.
    public func observe<Value>(
        _ key: SettingsKeyPath<Value>, initial: Bool = false,
        _ handler: @escaping @Sendable (SettingsChange<Value>) -> Void
    ) -> SettingsObservation {
        observe(SettingsKeys.self[keyPath: key], initial: initial, handler)
    }

    /// `updates(_:)` for a key named by its key path: `for await v in settings.updates(\.volume)`.
    public func updates<Value>(_ key: SettingsKeyPath<Value>, initial: Bool = true) -> AsyncStream<Value> {
        updates(SettingsKeys.self[keyPath: key], initial: initial)
    }
}

extension Settings.Batch {
    /// A key of the batch by name: `try settings.batch { $0.volume = 70 }`.
    public subscript<Value>(dynamicMember key: SettingsKeyPath<Value>) -> Value {
        get { self[SettingsKeys.self[keyPath: key]] }
        set { self[SettingsKeys.self[keyPath: key]] = newValue }
    }
}
