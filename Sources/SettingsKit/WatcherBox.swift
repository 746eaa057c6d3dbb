import SettingsStore

/// Hands the watcher to its thread, the only one that uses it from then on.
final class WatcherBox: @unchecked Sendable {
    let watcher: DomainWatcher
    init(_ watcher: DomainWatcher) { self.watcher = watcher }
}
