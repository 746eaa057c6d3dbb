import PlistModel
import SettingsStore

/// A desktop domain watched (`watch gsettings:…`): the folder of the user's dconf
/// database, which dconf's service replaces by a rename on every change, and the config
/// folder above it until that folder exists. Each change is the domain's values read
/// again and compared key by key, as a plist domain's watch does.
package final class DesktopWatcher {
    let store: DesktopStore
    let place: DesktopStore.Place
    let debounce: Double
    private let inotify: Inotify
    package let canceller: CancelSignal
    private var database: String?
    private var watchingFolder = false
    /// The domain's values as last read.
    package private(set) var values: PlistDictionary

    package init(store: DesktopStore, place: DesktopStore.Place, debounce: Double) throws(DesktopError) {
        (self.store, self.place, self.debounce) = (store, place, debounce)
        do throws(Errno) {
            inotify = try Inotify()
            canceller = try CancelSignal()
        } catch {
            throw .noDesktop("cannot watch: \(error.message)")
        }
        database = store.profile.userDatabase
        values = try store.stateDomain(place) ?? [:]
        try arm()
    }

    /// Watches the database's folder, or the nearest folder above it that exists (for its
    /// creation), so a first write by dconf's service is seen too.
    private func arm() throws(DesktopError) {
        guard let database, !watchingFolder else { return }
        let folder = Path.directory(of: database)
        if (try? inotify.watch(folder, Inotify.folderEvents)) != nil {
            watchingFolder = true
            return
        }
        var above = Path.directory(of: folder)
        while above.count > 1, (try? inotify.watch(above, Inotify.folderEvents)) == nil {
            above = Path.directory(of: above)
        }
    }

    package func cancel() { canceller.cancel() }

    /// The domain's values read now, from the databases as they are on the disk (the
    /// watch's own values move only with `next`).
    package func read() throws(DesktopError) -> PlistDictionary {
        store.forgetDatabases()
        return try store.stateDomain(place) ?? [:]
    }

    /// Blocks until the domain's values change and returns the changes sorted by key; nil
    /// when `timeout` seconds pass first, or at once after `cancel()`.
    package func next(timeout: Double?) throws(DesktopError) -> [KeyChange]? {
        let deadline = timeout.map { FileSystem.monotonicSeconds() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - FileSystem.monotonicSeconds()) }
            let wake: Inotify.Wake
            do throws(Errno) {
                wake = try inotify.wait(seconds: left, cancel: canceller)
                _ = try inotify.events()
                // Quiet for `debounce`: one batch however many renames a change takes.
                while try inotify.wait(seconds: debounce, cancel: canceller) == .events { _ = try inotify.events() }
            } catch {
                throw .noDesktop("cannot watch: \(error.message)")
            }
            if wake == .cancelled { return nil }
            if wake == .events {
                try arm()
                let current = try read()
                let changes = current.changes(from: values)
                values = current
                if !changes.isEmpty { return changes }
            }
            if let deadline, FileSystem.monotonicSeconds() >= deadline { return nil }
        }
    }
}
