#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The tool's own small files in its state folder (the journal, apply's records): private
/// (0600, in 0700 folders), given to the folder's owner when made by root (`sudo`), so the
/// user can still write them. None is ever fsynced: losing the last lines in a crash
/// loses history, never a setting.
extension FileSystem {
    /// Appends `bytes` to the file at `path`, made if missing. A last line a crash left
    /// without its newline gets one first, so a torn record never swallows the next.
    /// Returns the file's size after.
    @discardableResult
    package static func appendPrivate(_ bytes: [UInt8], to path: String) throws(Errno) -> Int {
        let fd = try open(path, O_RDWR | O_APPEND | O_CREAT, 0o600)
        defer { close(fd) }
        let status = try Self.status(fd: fd)
        if status.size == 0 { try giveToFolderOwner(fd, path) }
        var out = bytes
        if status.size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, off_t(status.size - 1)) == 1, last != UInt8(ascii: "\n") {
                out.insert(UInt8(ascii: "\n"), at: 0)
            }
        }
        try write(out, to: fd)
        return status.size + out.count
    }

    /// Replaces the file at `path` with `bytes` (a temporary file renamed over it).
    package static func replacePrivate(_ path: String, with bytes: [UInt8]) throws(Errno) {
        let (fd, temporary) = try makeTemporaryFile(in: Path.directory(of: path), prefix: ".settings-tmp.")
        do throws(Errno) {
            defer { close(fd) }
            try giveToFolderOwner(fd, path)
            try write(bytes, to: fd)
            try rename(temporary, path)
        } catch {
            _ = try? unlink(temporary)
            throw error
        }
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); nil when
    /// there is no such file.
    package static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        guard let fd = try? open(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        return n < 0 ? nil : Array(bytes.prefix(n))
    }

    private static func write(_ bytes: [UInt8], to fd: CInt) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try writeAll(fd, buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The last `count` bytes of the file at `path` (all of a shorter one); nil when there
    /// is no such file.
    package static func readSuffix(_ path: String, count: Int) -> [UInt8]? {
        guard let fd = try? open(path, O_RDONLY), let size = try? status(fd: fd).size else { return nil }
        defer { close(fd) }
        let start = max(0, size - count)
        var bytes = [UInt8](repeating: 0, count: size - start)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        return n < 0 ? nil : Array(bytes.prefix(n))
    }

    /// A private copy of all that `fd` holds, made by the kernel (`sendfile`, no copy in
    /// this process), in a new temporary file in `folder`; its path.
    package static func copyPrivate(from fd: CInt, into folder: String) throws(Errno) -> String {
        let size = try status(fd: fd).size
        let (out, temporary) = try makeTemporaryFile(in: folder, prefix: ".settings-tmp.")
        defer { close(out) }
        do throws(Errno) {
            try giveToFolderOwner(out, temporary)
            var offset: off_t = 0
            while Int(offset) < size {
                let n = sendfile(out, fd, &offset, size - Int(offset))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { throw n < 0 ? Errno.current : Errno(EIO) }
            }
        } catch {
            _ = try? unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Run as root, a new file is given to the owner of its folder.
    private static func giveToFolderOwner(_ fd: CInt, _ path: String) throws(Errno) {
        guard isRoot, let owner = try status(Path.directory(of: path)) else { return }
        try fchown(fd, owner.uid, owner.gid)
    }
}

extension FileSystem {
    /// This process's id, for the journal.
    package static var processID: Int32 { getpid() }
}
