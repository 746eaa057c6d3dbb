import PlistModel
import PlistCodecs
import SettingsStore
import Synchronization

extension Settings {
    /// Calls `handler` after each change of `key`: from this `Settings` at once, from
    /// any other writer (the CLI, Foundation, another process, an administrator's file)
    /// when the watcher sees it. With `initial`, it is called first with the current value
    /// as `newValue` and the absent value (the key's default, nil for an optional) as `oldValue`, as
    /// KVO's initial call does.
    ///
    /// Only changes of the value read are delivered: storing the value already there, or
    /// a write to the file that leaves this key's value as it was, delivers nothing (unlike
    /// `UserDefaults`' notification, which fires for any write), and no change is
    /// delivered twice.
    ///
    ///     let token = settings.observe(.music) { print($0.oldValue, "->", $0.newValue) }
    public func observe<Value>(
        _ key: SettingsKey<Value>, initial: Bool = false,
        _ handler: @escaping @Sendable (SettingsChange<Value>) -> Void
    ) -> SettingsObservation {
        let last = Mutex(self[key])
        if initial {
            handler(SettingsChange(key: key.name, oldValue: key.defaultValue, newValue: last.withLock { $0 }))
        }
        return addObserver(key.name) { [weak self] _, values in
            guard let self else { return }
            // The value this change made, not the value now: another thread's write may
            // have landed since, and then this write would go unheard and the next be
            // heard as no change. Each write is heard once, with its own value.
            let new: Value
            if let user = values[ExactKey(key.name)] {
                do throws(SettingsError) {
                    new = self.value(of: key, stored: try self.storedValue(key.name, user: user))
                } catch {
                    self.errorHandler(error)
                    new = key.defaultValue
                }
            } else {
                new = self[key]
            }
            let old: Value? = last.withLock { old in
                guard old.propertyListValue != new.propertyListValue else { return nil }
                defer { old = new }
                return old
            }
            if let old { handler(SettingsChange(key: key.name, oldValue: old, newValue: new)) }
        }
    }

    /// The value of `key` now (unless `initial` is false), then after every change, as an
    /// async sequence.
    ///
    ///     for await volume in settings.updates(.volume) { print(volume) }
    public func updates<Value>(_ key: SettingsKey<Value>, initial: Bool = true) -> AsyncStream<Value> {
        AsyncStream { continuation in
            if initial { continuation.yield(self[key]) }
            let token = observe(key) { continuation.yield($0.newValue) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// The names of the keys that changed, one batch per change of the domain.
    ///
    ///     for await keys in settings.changes() { print(keys) }   // prints ["music", "volume"]
    public func changes() -> AsyncStream<[String]> {
        let (stream, continuation) = AsyncStream<[String]>.makeStream()
        let token = addObserver(nil) { names in continuation.yield(names) }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }

    // MARK: Delivery

    /// Registers a handler for one key (nil: every key) and starts the watcher if needed.
    func addObserver(_ name: String?, _ handler: @escaping @Sendable ([String]) -> Void) -> SettingsObservation {
        addObserver(name) { names, _ in handler(names) }
    }

    /// `addObserver`, the handler also given the values the keys were changed to.
    func addObserver(_ name: String?, _ handler: @escaping @Sendable ([String], [ExactKey: PlistValue?]) -> Void)
        -> SettingsObservation
    {
        let start: Bool
        let id: Int
        (id, start) = observers.withLock { observers in
            observers.nextID += 1
            observers.handlers[observers.nextID] = Handler(name: name.map(ExactKey.init), call: handler)
            return (observers.nextID, observers.watcher == nil)
        }
        if start { startWatching() }
        return SettingsObservation { [self] in removeObserver(id) }
    }

    func removeObserver(_ id: Int) {
        let watcher: WatcherThread? = observers.withLock { observers in
            observers.handlers[id] = nil
            guard observers.handlers.isEmpty else { return nil }
            defer { observers.watcher = nil }
            return observers.watcher
        }
        watcher?.stop()
    }

    /// Values just written (nil: removed), from this process or seen by the watcher.
    /// Each key is delivered only when it differs from what was last delivered.
    func delivered(_ changes: [ExactKey: PlistValue?]) {
        let propagates = Self.propagates
        let calls: [(@Sendable ([String], [ExactKey: PlistValue?]) -> Void, [String])] = observers.withLock {
            observers in
            guard !observers.handlers.isEmpty else { return [] }
            var names: [String] = []
            for (key, value) in changes {
                if let last = observers.lastDelivered[key], last == value { continue }
                observers.lastDelivered[key] = value
                names.append(key.text)
            }
            // Inside `withoutPropagation`: recorded as heard, so the watcher's sight of the
            // same change is not delivered later either.
            guard !names.isEmpty, propagates else { return [] }
            return observers.handlers.values.compactMap { handler in
                guard let name = handler.name else { return (handler.call, names.sorted()) }
                return names.contains { ExactKey($0) == name } ? (handler.call, [name.text]) : nil
            }
        }
        for (call, names) in calls { call(names, changes) }
    }

    /// Starts a thread that waits on the domain's folder and delivers what changes.
    private func startWatching() {
        if let domainError { return errorHandler(.store(domainError)) }
        let watcher: DomainWatcher
        do {
            // The file this process read or just wrote is not parsed again: the cache has its values.
            watcher = try DomainWatcher(store: store, domain: domain, host: host) { [weak self] stamp in
                self?.cachedValues(at: stamp)
            }
        } catch {
            errorHandler(.store(error))
            return
        }
        observers.withLock { observers in
            // What earlier observers heard is forgotten: writes made while nobody
            // observed were delivered to no one, so only the file now counts.
            observers.lastDelivered = [:]
            for entry in watcher.values.sortedEntries {
                observers.lastDelivered[ExactKey(entry.key)] = .some(entry.value)
            }
        }
        let canceller = watcher.canceller
        let box = WatcherBox(watcher)
        let thread: BackgroundThread
        do {
            thread = try BackgroundThread { [weak self] in
                while true {
                    let changes: [KeyChange]?
                    do throws(StoreError) { changes = try box.watcher.next() } catch {
                        self?.errorHandler(.store(error))
                        continue
                    }
                    guard let changes, let self else { return }
                    var values: [ExactKey: PlistValue?] = [:]
                    for change in changes { values[ExactKey(change.key)] = .some(change.new) }
                    self.delivered(values)
                }
            }
        } catch {
            // No thread to wait on the folder (the system's limit): said, and nothing is
            // watched; the watcher's descriptors close with it.
            errorHandler(.store(.cannotWatch(path: store.directory, error)))
            return
        }
        let running = WatcherThread(canceller: canceller, thread: thread)
        let orphan: WatcherThread? = observers.withLock { observers in
            // Every observer may have gone while the watcher started.
            if observers.handlers.isEmpty || observers.watcher != nil { return running }
            observers.watcher = running
            return nil
        }
        orphan?.stop()
    }
}

extension Settings {
    /// `observe(_:initial:_:)` with each change delivered on `actor`'s executor, in order,
    /// so code bound to an actor (`MainActor.shared` for UI) need not hop:
    ///
    ///     settings.observe(.volume, isolation: MainActor.shared) { change in
    ///         MainActor.assumeIsolated { label.text = "\(change.newValue)" }
    ///     }
    ///
    /// Cancelling the observation stops deliveries not yet made.
    public func observe<Value>(
        _ key: SettingsKey<Value>, initial: Bool = false, isolation actor: any Actor,
        _ handler: @escaping @Sendable (SettingsChange<Value>) -> Void
    ) -> SettingsObservation {
        let (changes, continuation) = AsyncStream<SettingsChange<Value>>.makeStream()
        let delivery = Task {
            for await change in changes { await Self.run(on: actor) { handler(change) } }
        }
        let token = observe(key, initial: initial) { continuation.yield($0) }
        return SettingsObservation {
            token.cancel()
            continuation.finish()
            delivery.cancel()
        }
    }

    /// Runs `body` on `actor`'s executor.
    private static func run(on actor: isolated any Actor, _ body: () -> Void) { body() }
}
