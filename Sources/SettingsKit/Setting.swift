/// A property stored in a settings domain instead of a backing variable; its projected
/// value is the key's updates.
///
///     struct Player {
///         @Setting(.volume, in: settings) var volume: Double
///     }
///     player.volume = 70                     // a durable, locked write
///     for await v in player.$volume { … }    // the value now, then each change
@propertyWrapper
public struct Setting<Value: SettingsValue>: Sendable {
    /// The key the property reads and writes.
    public let key: SettingsKey<Value>
    /// Where it is stored.
    public let settings: Settings

    /// A property stored under `key` in `settings`.
    public init(_ key: SettingsKey<Value>, in settings: Settings = .standard) {
        (self.key, self.settings) = (key, settings)
    }

    /// The key's value (its default until something is stored); setting it stores it, durably.
    public var wrappedValue: Value {
        get { settings[key] }
        nonmutating set { settings[key] = newValue }
    }

    /// The value now, then each change, as `settings.updates(key)`.
    public var projectedValue: AsyncStream<Value> { settings.updates(key) }
}
