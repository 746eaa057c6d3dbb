import PlistCodecs
import PlistModel
/// Waits for a domain to change and says what changed, key by key.
///
/// It watches the domain's **folder**, not the file: an atomic save renames a new file
/// over the old one, which ends any watch on the file itself, and Foundation rewrites
/// in place. Every folder above it is watched for the next folder's name, so a folder
/// that appears later, or is swapped for another (a config folder that is a re-pointed
/// link), moves the watch. After an event for the file (a name in any case), it waits
/// for the file to be quiet for a window, re-reads it with the store's retrying reader,
/// and reports only the net difference from the last reading: a change and its revert
/// inside one window report nothing. It blocks in `poll(2)`; it never polls the file.
/// A domain that is a symbolic link is also watched where the link points, and the
/// watch follows the link when it is pointed elsewhere (one level of link).
///
/// The values are the domain as readers see it: an administrator's managed and
/// machine-wide files (`AdminLayers`) are watched too, and applied to the user's values.
///
///     let watcher = try DomainWatcher(store: DomainStore(), domain: .named("com.app"), host: .any)
///     while let changes = try watcher.next() { for c in changes { print(c.key, c.new ?? "(deleted)") } }
public final class DomainWatcher {
    private let store: DomainStore
    private let domain: DomainName
    private let host: DomainHost
    /// How long the folder must stay quiet after an event before the file is read.
    public let debounce: Double
    private let inotify: Inotify
    private let path: String
    /// What one watch descriptor is for: the names in its folder that are the domain's
    /// file or the link's target (lower-cased), and the names of folders on the way
    /// down to the domain's folder.
    private struct Watch {
        var names: Set<String> = []
        var chain: Set<String> = []
    }
    private var watched: [CInt: Watch] = [:]
    /// Where the domain's link pointed when the watches were set (nil: no link).
    private var linkTarget: String?
    private var snapshot: PlistDictionary
    /// What the last reading could not use of an administrator's files (see `AdminLayers`).
    public private(set) var layerWarnings: [LayerWarning] = []
    /// The values of the domain's file at a stamp, when the caller already has them (its
    /// own write): then that file is not parsed again.
    private let known: (@Sendable (FileStamp) -> PlistDictionary?)?
    /// Raised by `cancel()`, from any thread.
    public let canceller: CancelSignal
    private var cancelled = false

    /// The current values are the starting point: only later changes are reported.
    public convenience init(store: DomainStore, domain: DomainName, host: DomainHost = .any, debounce: Double = 0.05)
        throws(StoreError)
    {
        try self.init(store: store, domain: domain, host: host, debounce: debounce, known: nil)
    }

    /// `known` gives the values of the domain's file at a stamp when the caller already
    /// has them (the file it just wrote), so that file is not parsed again.
    package init(
        store: DomainStore, domain: DomainName, host: DomainHost = .any, debounce: Double = 0.05,
        known: (@Sendable (FileStamp) -> PlistDictionary?)?
    ) throws(StoreError) {
        (self.store, self.domain, self.host, self.debounce, self.known) = (
            store, domain, host, max(0, debounce), known
        )
        path = store.path(of: domain, host: host)
        do { (inotify, canceller) = (try Inotify(), try CancelSignal()) } catch {
            throw StoreError.cannotWatch(path: path, error)
        }
        snapshot = PlistDictionary()
        try arm()
        snapshot = try current()
    }

    /// The domain as readers see it now: the user's values with the layers applied.
    private func current() throws(StoreError) -> PlistDictionary {
        let user: PlistDictionary
        if let known, let stamp = DomainStore.stamp(at: path), let values = known(stamp) {
            user = values
        } else {
            user = try store.load(domain, host: host)?.values ?? PlistDictionary()
        }
        let layers = store.adminLayers(of: domain, host: host)
        layerWarnings = layers.warnings
        return layers.isEmpty ? user : layers.merged(over: user)
    }

    /// Seconds on the monotonic clock the watcher times itself by, for callers that keep
    /// one deadline across several calls of `next`.
    public static func clock() -> Double { FileSystem.monotonicSeconds() }

    /// The values as last read.
    public var values: PlistDictionary { snapshot }

    /// The domain as readers see it now, read afresh; `values`, which `next` compares
    /// with, stay as they were (`watch --exec` tells its command's own changes with it).
    package func read() throws(StoreError) -> PlistDictionary { try current() }

    /// Ends a `next` waiting now, and every later one, with nil. To stop a watcher from
    /// another thread, take its `canceller` there and call `cancel()` on that.
    public func cancel() { canceller.cancel() }

    /// Blocks until the domain's values change, and returns the changes sorted by key;
    /// nil when `timeout` seconds pass first. A file that does not parse even after the
    /// store's retries throws, and the snapshot is kept, so it is never taken for a
    /// domain with every key deleted. Nil at once after `cancel()`.
    public func next(timeout: Double? = nil) throws(StoreError) -> [KeyChange]? {
        let deadline = timeout.map { FileSystem.monotonicSeconds() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - FileSystem.monotonicSeconds()) }
            guard try wait(left), try settle() else {
                if cancelled { return nil }
                if let deadline, FileSystem.monotonicSeconds() >= deadline { return nil }
                continue
            }
            let current = try current()
            let changes = current.changes(from: snapshot)
            snapshot = current
            if !changes.isEmpty { return changes }
            if let deadline, FileSystem.monotonicSeconds() >= deadline { return nil }
        }
    }

    // MARK: Events

    /// True when events are queued; false on time-out or once cancelled.
    private func wait(_ seconds: Double?) throws(StoreError) -> Bool {
        guard !cancelled else { return false }
        let wake: Inotify.Wake
        do { wake = try inotify.wait(seconds: seconds, cancel: canceller) } catch {
            throw StoreError.unreadable(path: path, error)
        }
        if wake == .cancelled { cancelled = true }
        return wake == .events
    }

    /// Drains events until the domain's file has been quiet for `debounce`; true when
    /// any of them may have changed it. Only events for the domain count toward the
    /// quiet window: a neighbour rewritten every 20 ms cannot hold a change back, and
    /// events only for neighbours return false at once.
    private func settle() throws(StoreError) -> Bool {
        var relevant = false
        var rearm = false
        var quietAt = 0.0
        while true {
            let events: [Inotify.Event]
            do { events = try inotify.events() } catch { throw StoreError.unreadable(path: path, error) }
            for event in events {
                var mine = event.isOverflow
                if !mine, let watch = watched[event.watch] {
                    if event.endsWatch || watch.chain.contains(event.name) {
                        // A folder on the way went away, appeared or was swapped (a
                        // re-pointed link is a rename over its name): watch again.
                        rearm = true
                        mine = true
                    } else if watch.names.contains(event.name.lowercased()) {
                        mine = true
                    }
                }
                if mine {
                    relevant = true
                    quietAt = FileSystem.monotonicSeconds() + debounce
                }
            }
            guard relevant else { return false }
            let left = quietAt - FileSystem.monotonicSeconds()
            if left <= 0 { break }
            if try !wait(left), cancelled { break }
        }
        // The link may now point elsewhere; then the watches follow it.
        if rearm || currentLinkTarget() != linkTarget { try arm() }
        return true
    }

    /// Where the domain's file, if it is a link, points (one level, dangling or not).
    private func currentLinkTarget() -> String? {
        guard let target = try? store.writeTarget(path), target != path else { return nil }
        return target
    }

    /// Watches the domain's folder and the folders on the way to it, and the folder of
    /// the link's target when the domain is a link.
    private func arm() throws(StoreError) {
        for watch in watched.keys { inotify.remove(watch) }
        watched = [:]
        linkTarget = currentLinkTarget()
        try watchFolder(of: path)
        if let linkTarget { try watchFolder(of: linkTarget) }
        for file in store.adminCandidates(of: domain, host: host) { try watchFolder(of: file) }
    }

    /// Watches the file's folder for its name (in any case: the store finds a file in
    /// any case), and every folder above it, both as named and as its links resolve,
    /// for the name of the next folder down: so a folder that appears, goes, or is
    /// swapped for another (a re-pointed link, a renamed parent) re-arms the watch and
    /// re-reads the domain. A missing folder is waited for from its nearest ancestor.
    private func watchFolder(of file: String) throws(StoreError) {
        let folder = Path.directory(of: file)
        if let watch = try add(folder, Inotify.folderEvents) {
            watched[watch, default: Watch()].names.insert(Path.lastComponent(of: file).lowercased())
        }
        for (parent, next) in FileSystem.foldersAbove(folder) {
            if let watch = try add(parent, Inotify.entryEvents) { watched[watch, default: Watch()].chain.insert(next) }
        }
    }

    /// Adds a watch (to any already on the folder): its descriptor, or nil when the
    /// folder is not there (or not ours to watch).
    private func add(_ folder: String, _ events: UInt32) throws(StoreError) -> CInt? {
        do {
            return try inotify.watch(folder, events)
        } catch  where error == .noSuchFile || error == .notADirectory || error == .accessDenied {
            return nil
        } catch {
            throw StoreError.cannotWatch(path: folder, error)
        }
    }
}
