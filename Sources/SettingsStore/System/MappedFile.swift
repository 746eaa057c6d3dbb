#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A regular file mapped read-only, for a pass over a big file that must not hold it whole:
/// its pages are the page cache's, read in as they are looked at, and `dropPages` gives
/// them back (they read in again, unchanged, when looked at again). A file read into an
/// array costs its whole size for as long as it is used.
///
/// A mapped file another program cuts short in place (a truncating writer; ours replace
/// files by renaming) would end the process with SIGBUS at the next look past its new end.
/// While a mapping lives, that signal ends the process with status 3 and one line naming
/// the file, as any file that cannot be read does (the line names the newest mapping: the
/// store keeps one at a time). Whatever looks at the bytes must check
/// every offset it reads, as `BinaryReader` does: another program may change them.
///
/// Sendable: nothing in it changes after it is made, and giving pages back is safe from
/// any thread (a thread looking at them reads them in again).
package final class MappedFile: @unchecked Sendable {
    package let bytes: UnsafeBufferPointer<UInt8>

    /// `path`'s bytes, when it is a regular file that is not empty and can be mapped; nil
    /// otherwise (nothing there, another kind of file, an empty one, or any failure), and
    /// the caller reads the file as it reads any other.
    package init?(_ path: String) {
        guard let (fd, status) = try? FileSystem.openToRead(path) else { return nil }
        defer { FileSystem.close(fd) }
        guard status.isRegular, status.size > 0, status.size <= FileSystem.maximumReadSize,
            let start = mmap(nil, status.size, PROT_READ, MAP_PRIVATE, fd, 0), start != MAP_FAILED
        else { return nil }
        FileSystem.note("mmap", fd: fd, result: status.size)
        bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: status.size)
        Self.guardAgainstTruncation(path)
    }

    deinit {
        Self.cutShortMessage = nil
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Gives the pages looked at so far back to the kernel: the process's memory no longer
    /// counts them, and the bytes are unchanged.
    package func dropPages() {
        let r = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, MADV_DONTNEED)
        FileSystem.note("madvise", result: Int(r))
    }

    // MARK: A file cut short

    /// The line SIGBUS writes while a mapping lives, made before the signal can come: a
    /// handler may only write. Never freed, as a signal may be reading it.
    nonisolated(unsafe) private static var cutShortMessage: UnsafeMutableBufferPointer<UInt8>?

    private static func guardAgainstTruncation(_ path: String) {
        let text = Array("settings: \(path) was cut short by another program while it was read; try again\n".utf8)
        let message = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = message.initialize(from: text)
        cutShortMessage = message
        signal(SIGBUS) { _ in
            guard let message = MappedFile.cutShortMessage else {
                // Not a mapping of ours: the fault, run again, ends the process as it would have.
                signal(SIGBUS, SIG_DFL)
                return
            }
            _ = write(2, message.baseAddress, message.count)
            _exit(3)
        }
    }
}
