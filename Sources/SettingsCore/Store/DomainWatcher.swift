/// Waits for a domain to change and says what changed, key by key.
///
/// It watches the domain's **folder**, not the file: an atomic save renames a new file
/// over the old one, which ends any watch on the file itself, and Foundation rewrites
/// in place. When the folder does not exist yet, the nearest existing ancestor is
/// watched and the watch moves down as folders appear. After an event for the file, it
/// waits for a quiet window, re-reads the file with the store's retrying reader, and
/// reports only the net difference from the last reading: a change and its revert
/// inside one window report nothing. It blocks in `poll(2)`; it never polls the file.
///
///     let watcher = try DomainWatcher(store: DomainStore(), domain: .named("com.app"), host: .any)
///     while let changes = try watcher.next() { for c in changes { print(c.key, c.new ?? "(deleted)") } }
public final class DomainWatcher {
    /// One key's net change; `old` is nil for a new key, `new` nil for a removed one.
    public struct Change: Sendable, Equatable {
        public let key: String
        public let old: PlistValue?
        public let new: PlistValue?
    }

    private let store: DomainStore
    private let domain: DomainName
    private let host: Host
    /// How long the folder must stay quiet after an event before the file is read.
    public let debounce: Double
    private let inotify: Inotify
    private let path: String
    private var watched: (watch: CInt, folder: String)?
    private var snapshot: PlistDictionary

    /// The current values are the starting point: only later changes are reported.
    public init(store: DomainStore, domain: DomainName, host: Host, debounce: Double = 0.05) throws(StoreError) {
        (self.store, self.domain, self.host, self.debounce) = (store, domain, host, max(0, debounce))
        path = store.path(of: domain, host: host)
        do { inotify = try Inotify() } catch { throw StoreError.unreadable(path: path, error) }
        snapshot = PlistDictionary()
        try arm()
        snapshot = try store.load(domain, host: host)?.values ?? PlistDictionary()
    }

    /// Seconds on the monotonic clock the watcher times itself by, for callers that keep
    /// one deadline across several calls of `next`.
    public static func clock() -> Double { FileSystem.monotonicSeconds() }

    /// The values as last read.
    public var values: PlistDictionary { snapshot }

    /// Blocks until the domain's values change, and returns the changes sorted by key;
    /// nil when `timeout` seconds pass first. A file that does not parse even after the
    /// store's retries throws, and the snapshot is kept, so it is never taken for a
    /// domain with every key deleted.
    public func next(timeout: Double? = nil) throws(StoreError) -> [Change]? {
        let deadline = timeout.map { FileSystem.monotonicSeconds() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - FileSystem.monotonicSeconds()) }
            guard try wait(left), try settle() else {
                if let deadline, FileSystem.monotonicSeconds() >= deadline { return nil }
                continue
            }
            let current = try store.load(domain, host: host)?.values ?? PlistDictionary()
            let changes = Self.difference(from: snapshot, to: current)
            snapshot = current
            if !changes.isEmpty { return changes }
            if let deadline, FileSystem.monotonicSeconds() >= deadline { return nil }
        }
    }

    /// Per key, what differs between two readings.
    static func difference(from old: PlistDictionary, to new: PlistDictionary) -> [Change] {
        let before = old.sortedEntries, after = new.sortedEntries
        var changes: [Change] = []
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if j == after.count || (i < before.count && byteOrderPrecedes(before[i].key, after[j].key)) {
                changes.append(Change(key: before[i].key, old: before[i].value, new: nil))
                i += 1
            } else if i == before.count || byteOrderPrecedes(after[j].key, before[i].key) {
                changes.append(Change(key: after[j].key, old: nil, new: after[j].value))
                j += 1
            } else {
                if before[i].value != after[j].value {
                    changes.append(Change(key: after[j].key, old: before[i].value, new: after[j].value))
                }
                i += 1
                j += 1
            }
        }
        return changes
    }

    // MARK: Events

    private func wait(_ seconds: Double?) throws(StoreError) -> Bool {
        do { return try inotify.wait(seconds: seconds) } catch { throw StoreError.unreadable(path: path, error) }
    }

    /// Drains events until the folder has been quiet for `debounce`; true when any of
    /// them may have changed the domain's file.
    private func settle() throws(StoreError) -> Bool {
        var relevant = false
        repeat {
            let events: [Inotify.Event]
            do { events = try inotify.events() } catch { throw StoreError.unreadable(path: path, error) }
            for event in events { relevant = try handle(event) || relevant }
        } while try wait(debounce)
        return relevant
    }

    private func handle(_ event: Inotify.Event) throws(StoreError) -> Bool {
        if event.isOverflow { return true }
        guard let watched, event.watch == watched.watch else { return false }
        if event.endsWatch || watched.folder != Path.directory(of: path) {
            // The folder went away, or an ancestor changed while we wait for the folder.
            try arm()
            return true
        }
        return event.name == Path.lastComponent(of: path)
    }

    /// Watches the domain's folder, or the nearest ancestor that exists.
    private func arm() throws(StoreError) {
        if let watched { inotify.remove(watched.watch) }
        watched = nil
        var folder = Path.directory(of: path)
        while true {
            do {
                watched = (try inotify.watch(folder, Inotify.folderEvents), folder)
                return
            } catch where (error == .noSuchFile || error == .notADirectory) && folder != "/" {
                folder = Path.directory(of: folder)
            } catch {
                throw StoreError.unreadable(path: folder, error)
            }
        }
    }
}
