#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file so that any reader, and any crash, sees the old bytes or the new,
/// never a mix.
///
/// Contract: the new bytes go to a temporary file `.<name>.XXXXXX` in the same folder
/// (so the rename cannot cross file systems), created mode 0600; it gets the old file's
/// mode and, where the kernel allows, its owner; it is written in full and fsynced,
/// renamed over the old name, and the folder is fsynced so the rename itself is durable.
/// On every error path the temporary file is removed and the old file is untouched.
/// The caller holds the folder's lock.
enum AtomicFile {
    static func replace(_ path: String, directoryFD: CInt, with bytes: [UInt8],
                        keeping old: FileSystem.Status?) throws(Errno) {
        let directory = Path.directory(of: path)
        let (fd, temporary) = try FileSystem.makeTemporaryFile(in: directory, for: Path.lastComponent(of: path))
        var renamed = false
        defer {
            FileSystem.close(fd)
            if !renamed { _ = try? FileSystem.unlink(temporary) }
        }
        if let old {
            try FileSystem.fchmod(fd, old.permissions)
            if old.uid != getuid() || old.gid != getgid() {
                do throws(Errno) { try FileSystem.fchown(fd, old.uid, old.gid) } catch where error == .notPermitted {}
            }
        }
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try FileSystem.writeAll(fd, buffer) } }.get()
        try FileSystem.fsync(fd)
        try FileSystem.rename(temporary, path)
        renamed = true
        try FileSystem.fsync(directoryFD)
    }
}
