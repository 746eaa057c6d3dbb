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
/// files by renaming) raises SIGBUS at the next look past its new end. So a file is mapped
/// only in a program that set `ProgramChoices.mappings`, which is told each file's path as
/// it is mapped and catches the signal (the `settings` executable ends with status 3 and
/// one line naming the file); in any other there is no mapping, and callers read the file
/// whole. Whatever looks at the bytes must check every offset it reads, as `BinaryReader`
/// does: another program may change them.
///
/// Sendable: nothing in it changes after it is made, and giving pages back is safe from
/// any thread (a thread looking at them reads them in again).
package final class MappedFile: @unchecked Sendable {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The mapping as `mmap` made it, for `munmap` and `madvise`.
    private let mapping: UnsafeMutableRawPointer

    /// `path`'s bytes, when it is a regular file that is not empty and can be mapped; nil
    /// otherwise (no program hook, nothing there, another kind of file, an empty one, or
    /// any failure), and the caller reads the file as it reads any other.
    package convenience init?(_ path: String) {
        guard ProgramChoices.mappings.withLock({ $0 }) != nil, let (fd, status) = try? FileSystem.openToRead(path)
        else { return nil }
        defer { FileSystem.close(fd) }
        self.init(fd, status, path: path)
    }

    /// The file open as `fd`, `status.size` bytes of it: the file a lock opened, mapped
    /// rather than opened again by name, so the bytes are those the lock and `status`
    /// stand for. Nil as for `init(_:)`; `path` is what the hook is told.
    package init?(_ fd: CInt, _ status: FileSystem.Status, path: String) {
        guard let mapped = ProgramChoices.mappings.withLock({ $0 }), status.isRegular, status.size > 0,
            status.size <= FileSystem.maximumReadSize,
            let start = mmap(nil, status.size, PROT_READ, MAP_PRIVATE, fd, 0), start != MAP_FAILED
        else { return nil }
        FileSystem.note("mmap", fd: fd, result: status.size)
        mapping = start
        bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: status.size)
        told = mapped
        mapped(path)
    }

    /// The program's hook this mapping told, told again when it is unmapped.
    private let told: @Sendable (String?) -> Void

    deinit {
        told(nil)
        munmap(mapping, bytes.count)
    }

    /// Gives the pages looked at so far back to the kernel: the process's memory no longer
    /// counts them, and the bytes are unchanged.
    package func dropPages() {
        let r = madvise(mapping, bytes.count, MADV_DONTNEED)
        FileSystem.note("madvise", result: Int(r))
    }
}
