// A lock over a set of the tool's own files, in the store's errors.
extension StateFile {
    /// Runs `body` holding the folder of this file (made where missing) locked, exclusive:
    /// one process at a time in a set of files kept together (`apply`'s records). The
    /// kernel drops the lock when the process dies. Throws `StoreError.lockTimeout` after
    /// `timeout` seconds of waiting.
    package func holdingFolderLock<T>(timeout: Double, _ body: () throws -> T) throws -> T {
        let opened: Folder?
        do throws(StateFileError) { opened = try openFolder(creating: true) } catch { throw StoreError(error) }
        guard let folder = opened else { throw StoreError.writeFailed(path: path, .noSuchFile) }
        let locked: Bool
        do throws(Errno) { locked = try FileSystem.lockExclusive(folder.fd, timeoutSeconds: timeout) } catch {
            throw StoreError.writeFailed(path: path, error)
        }
        guard locked else { throw StoreError.lockTimeout(path: path, seconds: timeout) }
        return try withExtendedLifetime(folder) { try body() }
    }
}
