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
    public let key: SettingsKey<Value>
    public let settings: Settings

    public init(_ key: SettingsKey<Value>, in settings: Settings = .standard) {
        (self.key, self.settings) = (key, settings)
    }

    public var wrappedValue: Value {
        get { settings[key] }
        nonmutating set { settings[key] = newValue }
    }

    public var projectedValue: AsyncStream<Value> { settings.updates(key) }
}
