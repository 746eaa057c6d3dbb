import SettingsStore

/// A running watcher: stopping it wakes its thread, waits for it, and so closes the
/// watcher's descriptors before returning.
struct WatcherThread: Sendable {
    let canceller: CancelSignal
    let thread: BackgroundThread

    func stop() {
        canceller.cancel()
        thread.join()
    }
}
