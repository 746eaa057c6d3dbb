import Synchronization

/// Stops an observation on `cancel()` or when it goes away. When a domain's last
/// observation stops, its watcher stops too and closes its descriptors.
///
///     let token = settings.observe(.volume) { _ in }
///     token.cancel()   // no more calls; the watcher's thread has ended
public final class SettingsObservation: Sendable {
    private let stop: @Sendable () -> Void
    private let stopped = Mutex(false)

    init(_ stop: @escaping @Sendable () -> Void) { self.stop = stop }

    /// Stops the observation: no call starts after this returns.
    public func cancel() {
        guard
            stopped.withLock({ done in
                defer { done = true }; return !done
            })
        else { return }
        stop()
    }

    deinit { cancel() }
}
