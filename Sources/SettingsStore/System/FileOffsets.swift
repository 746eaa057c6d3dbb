#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads and writes at offsets of an open file (the journal's copy of the last write),
/// and the helpers the tool's own files share; opening them is `StateFile`'s.
extension FileSystem {
    /// Up to `count` bytes of `fd` from `offset`.
    package static func readBytes(_ fd: CInt, count: Int, at offset: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = pread(fd, &bytes, count, off_t(offset))
        note("pread", fd: fd, result: n)
        return n <= 0 ? [] : Array(bytes.prefix(n))
    }

    /// Writes all of `bytes` to `fd` at `offset`.
    package static func writeBytes(_ bytes: [UInt8], to fd: CInt, at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            note("pwrite", fd: fd, result: n)
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
        note("pwritev", fd: fd, result: written)
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
