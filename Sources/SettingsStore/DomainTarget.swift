import PlistCodecs
import PlistModel

// The file a change replaces, found and locked.
extension DomainStore {
    /// `FolderLock.holding` with this store's time-out and waiting notice.
    func holdingLock<T>(
        _ folder: String, for path: String, file: String? = nil,
        _ body: (_ folder: CInt, _ file: LockedFile?) throws -> T
    ) throws -> T {
        try FolderLock.holding(folder, for: path, timeout: lockTimeout, waiting: waitingForLock, file: file, body)
    }

    /// A domain file to change: where it is, whether it was named through a link, and
    /// its folder, locked.
    struct Target {
        let path: String
        /// The domain's file as named (`path(of:host:)`), looked up under the lock.
        let named: String
        let linked: Bool
        /// A file named by its path (`./Info.plist`): emptied, it stays a file, an empty
        /// dictionary, as PlistBuddy's `Clear` leaves one; a domain's file goes, as
        /// Foundation removes it.
        var isPath = false
        let directoryFD: CInt
        /// Whether an emptied file stays, as an empty dictionary: a link's target, or a path.
        var keepsEmptyFile: Bool { linked || isPath }
        /// The file at `path`, open to read, when the lock opened it (see `FolderLock`).
        let opened: LockedFile?
    }

    /// Runs `body` on the domain's file holding its folder's lock. Everything that looks
    /// at the folder happens under the lock, so two first writes of one domain in two
    /// cases cannot both decide to make a file: the name's lookup in any case, the
    /// links' resolution and the read. A link into another folder locks that one too.
    ///
    /// Only the config folder (and its ByHost folder) is ever created; a path domain or
    /// a link's target must be in a folder that exists.
    func withTarget(
        _ domain: DomainName, host: DomainHost,
        _ body: (Target) throws -> StoreWarning?
    ) throws -> StoreWarning? {
        let (folder, typed) = try located(domain, host: host)
        // An existing file, named without a link, is locked alone (see `FolderLock`). The
        // name as typed is looked at first: the one lookup `path(of:host:)` starts with.
        var existing = typed
        if case .path = domain { existing = path(of: domain, host: host) }
        var status: FileSystem.Status? = try? FileSystem.linkStatus(existing)
        if status == nil, existing == typed {
            existing = path(of: domain, host: host)
            if existing != typed { status = try? FileSystem.linkStatus(existing) }
        }
        // A file found in the folder means the folder is there: no `stat` of it at every write.
        if case .path = domain {
        } else if status == nil {
            do { try FileSystem.makeDirectories(folder) } catch { throw StoreError.writeFailed(path: typed, error) }
        }
        let alone = status?.isRegular == true ? existing : nil
        return try holdingLock(folder, for: typed, file: alone) { folderFD, fileFD throws in
            // The file as typed, locked and found still a regular file at its name: both
            // lookups below would find it again.
            let exact = fileFD != nil && alone == typed
            let named = exact ? typed : path(of: domain, host: host)
            let path = exact ? typed : try writeTarget(named)
            // Emptying a linked domain writes an empty dictionary through the link instead
            // of deleting its target, which would leave the link dangling.
            let linked = path != named
            let targetFolder = Path.directory(of: path)
            if !linked || Self.sameFile(folderFD, targetFolder) {
                let opened = path == alone ? fileFD : nil
                var target = Target(path: path, named: named, linked: linked, directoryFD: folderFD, opened: opened)
                if case .path = domain { target.isPath = true }
                return try body(target)
            }
            return try holdingLock(targetFolder, for: path) { targetFD, _ throws in
                var target = Target(path: path, named: named, linked: true, directoryFD: targetFD, opened: nil)
                if case .path = domain { target.isPath = true }
                return try body(target)
            }
        }
    }

    /// Whether `path` is the folder open as `fd` (a second `flock` of it would wait on ourselves).
    static func sameFile(_ fd: CInt, _ path: String) -> Bool {
        guard let open = try? FileSystem.status(fd: fd), let other = try? FileSystem.status(path) else { return false }
        return open.device == other.device && open.inode == other.inode
    }

    /// The file a write must replace: the end of a chain of links, so the link stays.
    func writeTarget(_ path: String) throws(StoreError) -> String {
        let status: FileSystem.Status?
        do { status = try FileSystem.linkStatus(path) } catch { throw StoreError.unreadable(path: path, error) }
        guard let status, status.isSymlink else { return path }
        if let resolved = FileSystem.resolvedPath(path) { return resolved }
        // A dangling link: write the file it points at (its folder must exist).
        do {
            let target = try FileSystem.linkTarget(path)
            return target.hasPrefix("/") ? target : Path.join(Path.directory(of: path), target)
        } catch {
            throw StoreError.unreadable(path: path, error)
        }
    }
}
