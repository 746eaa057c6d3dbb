import PlistModel
import Synchronization

/// The one lock every writer of a folder takes: an exclusive `flock` on the folder
/// itself, polled up to a time-out. The kernel drops it when the process dies, so it
/// can never go stale, and it needs no lock file beside the domains.
package enum FolderLock {
    /// Runs `body` with the folder's descriptor, holding its lock, after removing any
    /// temporary file a killed writer left there (the first time this process locks the
    /// folder: a program making a thousand writes lists the folder once, not each time). The folder must exist: the lock never
    /// makes one. `path` is the file the caller means to change, for messages.
    /// `waiting` is told, once, when the lock has been waited for a second.
    package static func holding<T>(
        _ folder: String, for path: String, timeout: Double,
        waiting: (@Sendable (String, Double) -> Void)? = nil,
        _ body: (CInt) throws -> T
    ) throws -> T {
        let fd: CInt
        do { fd = try FileSystem.openFolder(folder) } catch {
            throw StoreError.writeFailed(path: path, error)
        }
        defer { FileSystem.close(fd) }
        let locked: Bool
        do {
            locked = try FileSystem.lockExclusive(fd, timeoutSeconds: timeout) { waiting?(path, timeout) }
        } catch {
            throw StoreError.writeFailed(path: path, error)
        }
        guard locked else { throw StoreError.lockTimeout(path: path, seconds: timeout) }
        if swept.withLock({ $0.insert(folder).inserted }) {
            AtomicFile.removeAbandonedTemporaryFiles(in: folder)
        }
        return try body(fd)
    }

    /// The folders this process has cleared of abandoned temporary files.
    private static let swept = Mutex<Set<String>>([])
}
