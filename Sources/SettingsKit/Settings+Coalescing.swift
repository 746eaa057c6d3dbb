#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import PlistModel
import PlistCodecs
import SettingsStore
import Synchronization

extension Settings {
    /// The quiet window a coalesced `set` waits for others to join it.
    static let coalescingWindow = 0.05

    /// Writes every gathered `set` now, in one locked write; durable when it returns.
    /// Nothing to do for a durable `Settings`.
    ///
    ///     settings[.volume] = 70; try settings.flush()   // on disk now
    ///
    /// - Throws: `SettingsError` when the write fails; the values stay gathered, and the
    ///   next flush tries again.
    public func flush() throws(SettingsError) {
        guard writes == .coalesced else { return }
        let batch = pending.withLock { pending in
            pending.scheduled = false
            return pending.values.values.sorted { $0.generation < $1.generation }
        }
        guard !batch.isEmpty else { return }
        var stamps: (FileStamp?, FileStamp?)?
        do {
            try store.update(domain, host: host, written: { stamps = ($0, $1) }, memo: memo) { values in
                // One pass over the domain for all the sets and removals (a burst into a
                // big domain is not a search of it, nor a move of its entries, per key).
                let next = values.updating(batch.map { (key: $0.name, value: $0.value) })
                guard next != values else { return false }
                values = next
                return true
            }
        } catch {
            throw settingsError(error)
        }
        if let stamps {
            var changes: [ExactKey: PlistValue?] = [:]
            for entry in batch { changes[ExactKey(entry.name)] = entry.value }
            patchCache(changes, stamps)
        }
        // Only what was written leaves the queue: a set made meanwhile waits for the next flush.
        pending.withLock { pending in
            for entry in batch {
                let key = ExactKey(entry.name)
                if pending.values[key]?.generation == entry.generation { pending.values[key] = nil }
            }
        }
    }

    /// A coalesced `set`: gathered, seen by reads and observers at once, written within
    /// the window.
    func gather(_ name: String, _ value: PlistValue?) {
        let schedule = pending.withLock { pending in
            pending.generation += 1
            pending.values[ExactKey(name)] = (name, value, pending.generation)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        delivered([ExactKey(name): value])
        guard schedule else { return }
        Self.registerForExit(self)
        do {
            _ = try BackgroundThread { [weak self] in
                usleep(UInt32(Self.coalescingWindow * 1_000_000))
                guard let self else { return }
                do throws(SettingsError) { try self.flush() } catch { self.errorHandler(error) }
            }
        } catch {
            // No thread to wait the window out (the system's limit): write it now instead.
            do throws(SettingsError) { try flush() } catch { errorHandler(error) }
        }
    }

    /// The gathered value of `name`, if a `set` of it is waiting: `.some(nil)` when it
    /// removes the key.
    func gathered(_ name: String) -> PlistValue?? {
        guard writes == .coalesced else { return nil }
        return pending.withLock { pending -> PlistValue?? in
            guard let entry = pending.values[ExactKey(name)] else { return nil }
            return .some(entry.value)
        }
    }

    // MARK: Exit

    /// Every coalescing `Settings` with values gathered, flushed when the process exits
    /// normally (`exit`, or returning from `main`).
    private static let live = Mutex<[ObjectIdentifier: WeakSettings]>([:])
    private static let exitHook: Void = { atexit { Settings.flushAllAtExit() } }()

    static func registerForExit(_ settings: Settings) {
        _ = exitHook
        live.withLock { live in
            // Settings gone since are dropped, so the registry stays as small as the live ones.
            live = live.filter { $0.value.settings != nil }
            live[ObjectIdentifier(settings)] = WeakSettings(settings)
        }
    }

    static func flushAllAtExit() {
        let all = live.withLock { live in live.values.compactMap(\.settings) }
        for settings in all {
            do throws(SettingsError) { try settings.flush() } catch { settings.errorHandler(error) }
        }
    }
}
