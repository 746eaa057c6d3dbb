import PlistModel
import PlistCodecs
import SettingsStore

/// What users of sindresorhus/Defaults and SwiftyUserDefaults reach for, on SettingsKit.
extension Settings {
    /// Removes every key of the domain (its file goes, as Foundation's
    /// `removePersistentDomain`), so every read gives its default.
    ///
    ///     try settings.removeAll(); settings[.volume]   //=> 50
    ///
    /// - Throws: `SettingsError`, as `set` does.
    public func removeAll() throws(SettingsError) {
        do {
            try batchWrite { values in
                guard !values.isEmpty else { return false }
                values = PlistDictionary()
                return true
            }
        } catch {
            throw settingsError(error)
        }
    }

    /// Removes the keys, of any value types, so reads give the defaults again.
    ///
    ///     try settings.reset([.volume, .name])
    public func reset(_ keys: [SettingsKeys]) throws(SettingsError) {
        let names = keys.map(\.name)
        do {
            try batchWrite { values in
                // In one pass: removing keys one at a time moves the entries after each.
                guard names.contains(where: { values[$0] != nil }) else { return false }
                values = values.updating(names.map { (key: $0, value: nil) })
                return true
            }
        } catch {
            throw settingsError(error)
        }
    }

    /// Whether the value read equals the key's default, stored or not (as in Defaults).
    ///
    ///     settings[.volume] = 50; settings.isDefaultValue(.volume)   //=> true
    public func isDefaultValue<Value>(_ key: SettingsKey<Value>) -> Bool {
        self[key].propertyListValue == key.defaultValue.propertyListValue
    }

    /// Runs `body`; what it writes is stored as usual but delivered to no observer in
    /// this process, then or later (the watcher's sight of the same change included), as
    /// Defaults' `withoutPropagation`.
    ///
    ///     settings.withoutPropagation { settings[.volume] = 70 }   // observers hear nothing
    public func withoutPropagation<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$propagates.withValue(false) { try body() }
    }

    /// Whether writes are delivered to observers (see `withoutPropagation`).
    @TaskLocal static var propagates = true

    /// The values of several keys, now (unless `initial` is false) and after any of them
    /// changes, as one tuple.
    ///
    ///     for await (volume, muted) in settings.updates(.volume, .muted) { print(volume, muted) }
    public func updates<First, Second, each Rest>(
        _ first: SettingsKey<First>, _ second: SettingsKey<Second>, _ rest: repeat SettingsKey<each Rest>,
        initial: Bool = true
    ) -> AsyncStream<(First, Second, repeat each Rest)> {
        let values: @Sendable () -> (First, Second, repeat each Rest) = {
            (self[first], self[second], repeat self[each rest])
        }
        var names: Set<ExactKey> = [ExactKey(first.name), ExactKey(second.name)]
        for key in repeat each rest { names.insert(ExactKey(key.name)) }
        let watched = names
        return AsyncStream { continuation in
            if initial { continuation.yield(values()) }
            let token = addObserver(nil) { changed in
                if changed.contains(where: { watched.contains(ExactKey($0)) }) { continuation.yield(values()) }
            }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// An element now (unless `initial` is false) and after each change of any of the keys,
    /// of any value types, as Defaults' `updates([key1, key2])`: read the values you need.
    ///
    ///     for await _ in settings.updates([.volume, .name]) { redraw() }
    public func updates(_ keys: [SettingsKeys], initial: Bool = true) -> AsyncStream<Void> {
        let watched = Set(keys.map { ExactKey($0.name) })
        return AsyncStream { continuation in
            if initial { continuation.yield() }
            let token = addObserver(nil) { changed in
                if changed.contains(where: { watched.contains(ExactKey($0)) }) { continuation.yield() }
            }
            continuation.onTermination = { _ in token.cancel() }
        }
    }
}
