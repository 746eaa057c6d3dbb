import PlistModel
import PlistCodecs
import SettingsStore

/// Which files in some folders may have changed since the last look, told without a
/// `stat` and without blocking: one `read(2)` of an inotify queue that is usually empty.
/// A cache of a file's contents checks here first, and needs no `stat` while nothing
/// happened in its folder.
///
/// Not thread-safe; the caller serializes. Folders stay watched for the object's life.
///
///     let changes = FolderChanges()!
///     let (_, readAt) = changes.check(path, since: nil)    // then read the file
///     changes.check(path, since: readAt).unchanged          //=> true until it changes
final class FolderChanges {
    private let inotify: Inotify
    /// Watched folders by watch descriptor.
    private var folders: [CInt: String] = [:]
    /// Per folder above a watched one: the names of the folders on the way down. When
    /// one of them appears, goes or is renamed over (a config folder that is a link,
    /// re-pointed; a parent swapped), the watched folders may be other folders now.
    /// Names and paths here are file names, told apart by their bytes (`ExactKey`): two
    /// that differ only in Unicode normalization are two files.
    private var chains: [CInt: Set<ExactKey>] = [:]
    /// Per file asked about: whether its folder is watched and it is no link (a link's
    /// target may change elsewhere). Forgotten when anything happens to the file.
    private var trusted: [ExactKey: Bool] = [:]
    /// Bumped on every event; a file's entry is the count at its last event.
    private var tick: UInt64 = 0
    private var lastEvent: [ExactKey: UInt64] = [:]
    /// The count when every file must be taken as changed (a lost queue, a folder gone).
    private var everything: UInt64 = 0

    /// Nil when the process can have no more inotify instances; then callers `stat`.
    init?() {
        guard let inotify = try? Inotify() else { return nil }
        self.inotify = inotify
    }

    /// Whether `path` is known not to have changed after `since` (a `now` from an earlier
    /// check), and the point in history to record for a reading made now: nil when the
    /// file cannot be watched this way (no folder yet, a link), and the caller must `stat`.
    /// With `drain` false, the queue is not read: the caller read it a moment ago, within
    /// the same lookup (a read of one key asks about the domain and each of its layers).
    func check(_ path: String, since: UInt64?, drain: Bool = true) -> (unchanged: Bool, now: UInt64?) {
        if drain { self.drain() }
        // Nothing at all happened since: the file was trusted then (or `since` would be
        // nil), and only an event, which moves `tick`, withdraws trust.
        if let since, tick <= since { return (true, tick) }
        guard trusted[ExactKey(path)] ?? watch(path) else { return (false, nil) }
        let unchanged = since.map { everything <= $0 && (lastEvent[ExactKey(path)] ?? 0) <= $0 } ?? false
        return (unchanged, tick)
    }

    /// Starts watching the folder of `path`; whether that can be relied on.
    private func watch(_ path: String) -> Bool {
        var ok = false
        if (try? FileSystem.linkStatus(path))??.isSymlink != true {
            let folder = Path.directory(of: path)
            if folders.values.contains(where: { sameKey($0, folder) }) {
                ok = true
            } else if let watch = try? inotify.watch(folder, Inotify.folderEvents) {
                folders[watch] = folder
                ok = watchChain(above: folder)
            } else if !FileSystem.exists(folder) {
                // No folder (an administrator's layer nobody made): no file in it either,
                // until the folder appears, which is an event in the nearest folder above
                // that exists, and makes every file count as changed. Looked at again
                // after the chain is watched, so a folder made meanwhile is not missed.
                ok = watchChain(above: folder, missingAllowed: true) && !FileSystem.exists(folder)
            }
        }
        trusted[ExactKey(path)] = ok
        return ok
    }

    /// Watches every folder above `folder`, as named and as its links resolve, for the
    /// next name down; false when one cannot be watched (then callers `stat`), except,
    /// with `missingAllowed`, one that does not exist (a folder above it that does is
    /// watched for its name).
    private func watchChain(above folder: String, missingAllowed: Bool = false) -> Bool {
        for (parent, next) in FileSystem.foldersAbove(folder) {
            guard let watch = try? inotify.watch(parent, Inotify.entryEvents) else {
                if missingAllowed, !FileSystem.exists(parent) { continue }
                return false
            }
            chains[watch, default: []].insert(ExactKey(next))
        }
        return true
    }

    func drain() {
        guard let events = try? inotify.events() else {
            forgetEverything()
            return
        }
        for event in events {
            tick += 1
            if chains[event.watch]?.contains(ExactKey(event.name)) == true {
                // Folders were swapped: every watch may be on the wrong folder now.
                for watch in Set(folders.keys).union(chains.keys) { inotify.remove(watch) }
                (folders, chains) = ([:], [:])
                forgetEverything()
            } else if event.isOverflow || event.endsWatch {
                if event.endsWatch { folders[event.watch] = nil }
                forgetEverything()
            } else if let folder = folders[event.watch] {
                let path = ExactKey(Path.join(folder, event.name))
                lastEvent[path] = tick
                trusted[path] = nil
            }
        }
    }

    private func forgetEverything() {
        tick += 1
        everything = tick
        trusted = [:]
    }
}
