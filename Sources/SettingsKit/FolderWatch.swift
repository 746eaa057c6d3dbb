import PlistModel
import SettingsStore
import Synchronization

/// One inotify instance for the whole process (instances are few: 128 per user by
/// default), shared by every `Settings`.
enum FolderWatch {
    private static let shared = Mutex<FolderChanges?>(FolderChanges())

    /// Whether `path` is known unchanged since `since`, and the point in history to
    /// record for a reading made now (nil when the folder cannot be watched).
    /// `drain: false` when the caller has just called `drain()` in this same lookup.
    static func check(_ path: String, since: UInt64?, drain: Bool = true) -> (unchanged: Bool, now: UInt64?) {
        shared.withLock { changes in changes?.check(path, since: since, drain: drain) ?? (false, nil) }
    }

    /// Takes in what happened since the last look (one `read(2)`), so the checks of one
    /// lookup that follow need not each read the queue.
    static func drain() {
        shared.withLock { $0?.drain() }
    }
}
