import PlistModel
import Synchronization

/// The lock every writer of a folder takes, so no two change one file at once.
///
/// A change to a file that exists takes the folder's `flock` shared and the file's own
/// exclusive: writers of different domains never wait for each other. Anything else (a
/// new file, whose name must be chosen alone, as two cases of one name would otherwise
/// make two files; a removal; a file reached through a link) takes the folder's `flock`
/// exclusive, which waits for every writer of the folder and holds off new ones. The
/// kernel drops a `flock` when the process dies, so none can go stale, and none needs a
/// lock file beside the domains. A writer of an older version, which takes the folder
/// exclusive for everything, still excludes and is excluded by every writer.
package enum FolderLock {
    /// Runs `body` with the folder's descriptor, holding its lock, after removing any
    /// temporary file a killed writer left there (the first time this process locks the
    /// folder exclusive: a program making a thousand writes lists the folder once). The
    /// folder must exist: the lock never makes one. `path` is the file the caller means to
    /// change, for messages. `waiting` is told, once, when the lock has been waited for a
    /// second.
    ///
    package static func holding<T>(
        _ folder: String, for path: String, timeout: Double,
        waiting: (@Sendable (String, Double) -> Void)? = nil,
        _ body: (CInt) throws -> T
    ) throws -> T {
        try holding(folder, for: path, timeout: timeout, waiting: waiting, file: nil) { folder, _ in try body(folder) }
    }

    /// `holding`, and with `file`, a regular file in the folder (no link), the folder is
    /// held shared and `file` exclusive, once it is checked to be still the file at that
    /// name (a writer that replaced it meanwhile made a new one, which is locked in its
    /// turn): `body` is given the file's descriptor, open to read, and its status as
    /// locked, so that the write reads it without opening or looking at it again. A file
    /// gone by then is written as a new one, under the folder's exclusive lock (and `body`
    /// is given no file).
    static func holding<T>(
        _ folder: String, for path: String, timeout: Double,
        waiting: (@Sendable (String, Double) -> Void)? = nil, file: String?,
        _ body: (_ folder: CInt, _ file: LockedFile?) throws -> T
    ) throws -> T {
        let fd: CInt
        do { fd = try FileSystem.openFolder(folder) } catch {
            throw StoreError.writeFailed(path: path, error)
        }
        defer { FileSystem.close(fd) }
        let deadline = FileSystem.monotonicSeconds() + timeout
        func lock(_ fd: CInt, shared: Bool) throws -> Bool {
            do {
                let left = max(deadline - FileSystem.monotonicSeconds(), 0)
                return try FileSystem.lockExclusive(fd, shared: shared, timeoutSeconds: left) {
                    waiting?(path, timeout)
                }
            } catch {
                throw StoreError.writeFailed(path: path, error)
            }
        }
        if let file {
            // The first lock in this process sweeps the folder, if it can have it alone now.
            if !swept.withLock({ $0.contains(folder) }), FileSystem.tryLock(fd) {
                sweep(folder)
            }
            guard try lock(fd, shared: true) else { throw StoreError.lockTimeout(path: path, seconds: timeout) }
            // Looked at once, locked: what a `stat` before the lock saw could change before it.
            while let own = try? FileSystem.openToLock(file) {
                defer { FileSystem.close(own) }
                guard try lock(own, shared: false) else { throw StoreError.lockTimeout(path: path, seconds: timeout) }
                guard let locked = try? FileSystem.status(fd: own), let named = try? FileSystem.linkStatus(file) else {
                    break
                }
                if named.isRegular, locked.isRegular, locked.device == named.device, locked.inode == named.inode {
                    return try body(fd, LockedFile(fd: own, status: locked))
                }
            }
            // Gone, or no longer a file: a new file, written alone.
        }
        guard try lock(fd, shared: false) else { throw StoreError.lockTimeout(path: path, seconds: timeout) }
        if !swept.withLock({ $0.contains(folder) }) { sweep(folder) }
        return try body(fd, nil)
    }

    private static func sweep(_ folder: String) {
        swept.withLock { _ = $0.insert(folder) }
        AtomicFile.removeAbandonedTemporaryFiles(in: folder)
    }

    /// The folders this process has cleared of abandoned temporary files.
    private static let swept = Mutex<Set<String>>([])
}

/// A domain's file as `FolderLock` holds it: open to read at its first byte, and its
/// status once locked.
struct LockedFile {
    let fd: CInt
    let status: FileSystem.Status
}
