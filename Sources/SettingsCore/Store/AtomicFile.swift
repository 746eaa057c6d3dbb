#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file so that any reader, and any crash, sees the old bytes or the new,
/// never a mix.
///
/// Contract: the new bytes go to a temporary file `.<name>.XXXXXX` in the same folder
/// (so the rename cannot cross file systems); it gets the old file's mode and, where the
/// kernel allows, its owner, or `newFileMode` when there is no old file; it is written in full and fsynced,
/// renamed over the old name, and the folder is fsynced so the rename itself is durable.
/// On every error path the temporary file is removed and the old file is untouched.
/// The caller holds the folder's lock.
///
/// The bytes come from `contents`, which may call its writer more than once: the XML
/// writer streams a big domain in pieces so it never holds the whole text beside the
/// values. A small file, the usual case, is still one `write(2)`.
enum AtomicFile {
    static func replace(_ path: String, directoryFD: CInt, with bytes: [UInt8],
                        keeping old: FileSystem.Status?, newFileMode: mode_t = 0o600) throws(Errno) {
        try replace(path, directoryFD: directoryFD, keeping: old, newFileMode: newFileMode) { write in try write(bytes[...]) }
    }

    static func replace(_ path: String, directoryFD: CInt, keeping old: FileSystem.Status?, newFileMode: mode_t = 0o600,
                        contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws(Errno) {
        let directory = Path.directory(of: path)
        let (fd, temporary) = try FileSystem.makeTemporaryFile(in: directory, for: Path.lastComponent(of: path))
        var renamed = false
        defer {
            FileSystem.close(fd)
            if !renamed { _ = try? FileSystem.unlink(temporary) }
        }
        try FileSystem.fchmod(fd, old?.permissions ?? newFileMode)
        if let old, old.uid != getuid() || old.gid != getgid() {
            do throws(Errno) { try FileSystem.fchown(fd, old.uid, old.gid) } catch where error == .notPermitted {}
        }
        do {
            try contents { piece in try piece.withUnsafeBytes { buffer in try FileSystem.writeAll(fd, buffer) } }
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno(EIO)
        }
        try FileSystem.fsync(fd)
        try FileSystem.rename(temporary, path)
        renamed = true
        try FileSystem.fsync(directoryFD)
    }
}
