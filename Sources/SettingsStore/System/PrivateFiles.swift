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
    /// Appends `bytes` to the file at `path`, made if missing; returns the file's size
    /// after. (A caller that must survive a torn last line starts each record with a
    /// newline of its own: no read is needed to find out.)
    @discardableResult
    package static func appendPrivate(_ bytes: [UInt8], to path: String) throws(Errno) -> Int {
        let fd = try open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        defer { close(fd) }
        let size = try Self.status(fd: fd).size
        if size == 0 { try giveToFolderOwner(fd, path) }
        try write(bytes, to: fd)
        return size + bytes.count
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

    /// The file at `path` open to read and write, made (empty) if missing, and its
    /// status; with `creating` false, open to read; nil when missing or not looked at.
    package static func openPrivate(_ path: String, creating: Bool) -> (fd: CInt, status: Status)? {
        guard let fd = try? open(path, creating ? O_RDWR | O_CREAT : O_RDONLY, 0o600) else { return nil }
        guard let status = try? status(fd: fd) else {
            close(fd)
            return nil
        }
        // Only root gives a new file away.
        if creating, isRoot, status.size == 0 { try? giveToFolderOwner(fd, path) }
        return (fd, status)
    }

    /// Up to `count` bytes of `fd` from `offset`.
    package static func readBytes(_ fd: CInt, count: Int, at offset: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n <= 0 ? [] : Array(bytes.prefix(n))
    }

    /// Writes all of `bytes` to `fd` at `offset`.
    package static func writeBytes(_ bytes: [UInt8], to fd: CInt, at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw n < 0 ? Errno.current : Errno(EIO) }
            done += n
        }
    }

    /// Writes `head` and then `tail` to `fd` from `offset`: one `pwritev(2)` when the
    /// tail is one piece (a file written in one), else one `pwrite` of them joined.
    package static func writeBytes(_ head: [UInt8], then tail: [ArraySlice<UInt8>], to fd: CInt, at offset: Int)
        throws(Errno)
    {
        guard tail.count == 1, let piece = tail.first else {
            var joined = head
            for piece in tail { joined.append(contentsOf: piece) }
            return try writeBytes(joined, to: fd, at: offset)
        }
        let total = head.count + piece.count
        let written = head.withUnsafeBytes { head in
            piece.withUnsafeBytes { piece in
                let vectors = [
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count),
                    iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count),
                ]
                return pwritev(fd, vectors, 2, off_t(offset))
            }
        }
        if written == total { return }
        // Cut short (or interrupted): the rest the plain way, from where it stopped.
        if written < 0, errno != EINTR { throw Errno.current }
        let done = max(written, 0)
        var joined = head
        joined.append(contentsOf: piece)
        try writeBytes(Array(joined[done...]), to: fd, at: offset + done)
    }

    /// Moves `fd` back to its first byte, for a read from the start.
    package static func rewind(_ fd: CInt) throws(Errno) {
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw Errno.current }
    }

    /// Cuts or extends `fd` to `size` bytes.
    package static func truncate(_ fd: CInt, to size: Int) throws(Errno) {
        _ = try retrying { ftruncate(fd, off_t(size)) }
    }

    /// Run as root, a new file is given to the owner of its folder.
    private static func giveToFolderOwner(_ fd: CInt, _ path: String) throws(Errno) {
        guard isRoot, let owner = try status(Path.directory(of: path)), owner.uid != 0 else { return }
        try fchown(fd, owner.uid, owner.gid)
    }
}

extension FileSystem {
    /// Runs `body` with `count` bytes of zeroed memory from `calloc`, which for a big
    /// block maps fresh pages that cost nothing until written; nil when there is none.
    package static func withZeroedMemory<T>(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> T?) -> T? {
        guard count > 0, let memory = calloc(count, 1) else { return nil }
        defer { free(memory) }
        return body(UnsafeMutableRawBufferPointer(start: memory, count: count))
    }

    /// This process's id, for the journal.
    package static var processID: Int32 { getpid() }
}
