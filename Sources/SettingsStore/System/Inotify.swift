import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The kernel's change notifications for folders (`inotify(7)`): the one door to them,
/// one small function a call. The descriptor is closed when the value goes away.
package final class Inotify {
    /// One event: the watch it came from, what happened, and the name in the folder
    /// (empty for an event on the folder itself).
    package struct Event {
        package let watch: CInt
        package let mask: UInt32
        package let name: String

        /// The queue overflowed and events were lost: whatever is watched must be read again.
        package var isOverflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
        /// The watched folder itself was deleted or moved away, or its watch dropped.
        package var endsWatch: Bool { mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 }
    }

    /// What a domain's folder is watched for: a file closed after writing, renamed in or
    /// out, created or deleted, and the folder itself deleted or moved.
    package static let folderEvents = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
            | IN_DELETE_SELF | IN_MOVE_SELF)

    /// What a folder on the way to a watched one is watched for: names that appear or
    /// go (a folder made, removed, renamed, or a link renamed over).
    package static let entryEvents = UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    private let fd: CInt
    /// Read into again and again: an empty queue then costs one `read(2)` and no allocation.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    package init() throws(Errno) {
        fd = try FileSystem.retrying {
            let fd = inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC))
            FileSystem.note("inotify_init1", result: Int(fd))
            return fd
        }
    }

    deinit { FileSystem.close(fd) }

    /// `inotify_add_watch(2)`: the watch descriptor. The events are added to any the
    /// folder is already watched for (`IN_MASK_ADD`), so two reasons to watch one folder
    /// never narrow each other.
    package func watch(_ path: String, _ mask: UInt32) throws(Errno) -> CInt {
        try FileSystem.retrying { inotify_add_watch(fd, path, mask | UInt32(IN_MASK_ADD)) }
    }

    /// `inotify_rm_watch(2)`; a watch the kernel already dropped is no error.
    package func remove(_ watch: CInt) { _ = inotify_rm_watch(fd, watch) }

    /// What ended a wait.
    package enum Wake { case events, timeout, cancelled }

    /// `poll(2)` for events, blocking (no wake-ups) up to `seconds`, or forever for nil,
    /// and ending early once `cancel` is signalled.
    package func wait(seconds: Double?, cancel: CancelSignal) throws(Errno) -> Wake {
        var entries = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: cancel.fd, events: Int16(POLLIN), revents: 0),
        ]
        let deadline = seconds.map { FileSystem.monotonicSeconds() + $0 }
        while true {
            // Clamped: a wait of more than 24 days (CInt.max ms) is made of several polls.
            let timeout =
                deadline.map {
                    CInt(min(max(0, ($0 - FileSystem.monotonicSeconds()) * 1000).rounded(.up), Double(CInt.max)))
                } ?? -1
            let n = poll(&entries, 2, timeout)
            if n > 0 { return entries[1].revents != 0 ? .cancelled : .events }
            if n == 0 {
                if let deadline, FileSystem.monotonicSeconds() < deadline { continue }
                return .timeout
            }
            if errno != EINTR { throw Errno.current }
        }
    }

    /// Every event queued now (none when the queue is empty).
    package func events() throws(Errno) -> [Event] {
        var events: [Event] = []
        while true {
            let size = buffer.count
            let n = read(fd, &buffer, size)
            FileSystem.note("read", fd: fd, result: n)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return events }
                throw Errno.current
            }
            if n == 0 { return events }
            // Each record: wd (4), mask (4), cookie (4), len (4), then `len` bytes of name, NUL-padded.
            var at = 0
            while at + 16 <= n {
                // The four fields as two words, each two of them, the first the low half.
                let (low, high) = (buffer.span.word(at: at), buffer.span.word(at: at + 8))
                let length = Int(high >> 32)
                let nameBytes = buffer[(at + 16)..<min(n, at + 16 + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                events.append(
                    Event(
                        watch: CInt(bitPattern: UInt32(truncatingIfNeeded: low)),
                        mask: UInt32(truncatingIfNeeded: low >> 32),
                        name: name))
                at += 16 + length
            }
        }
    }
}

/// A one-way flag any thread may raise to end a wait in another: a pipe whose read end
/// becomes readable (Glibc's module offers no `eventfd`). Once raised it stays raised,
/// so every later wait ends at once. Both ends close when the last reference goes.
public final class CancelSignal: Sendable {
    /// The end a wait polls.
    let fd: CInt
    private let writeEnd: CInt

    package init() throws(Errno) {
        var ends: [CInt] = [-1, -1]
        _ = try FileSystem.retrying { pipe(&ends) }
        for end in ends { FileSystem.note("pipe", result: Int(end)) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (fd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        FileSystem.close(fd)
        FileSystem.close(writeEnd)
    }

    /// Waits `seconds`, or less when the flag is raised; whether it was.
    package func wait(seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = FileSystem.monotonicSeconds() + seconds
        while true {
            let left = deadline - FileSystem.monotonicSeconds()
            if left <= 0 { return false }
            let n = poll(&entry, 1, CInt(min(left * 1000 + 1, 60_000)))
            if n > 0 { return true }
            if n < 0, errno != EINTR { return false }
        }
    }

    /// Raises the flag; safe from any thread, any number of times.
    public func cancel() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Raises the flag on SIGINT or SIGTERM instead of ending the process, so a loop
    /// (`sync --watch`) ends between two pieces of work. The handler only writes a byte
    /// (async-signal-safe); one signal at most is wired so per process.
    package func raisedOnTerminationSignals() {
        CancelSignal.signalledEnd = writeEnd
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in
                var byte: UInt8 = 1
                _ = write(CancelSignal.signalledEnd, &byte, 1)
            }
        }
    }

    nonisolated(unsafe) private static var signalledEnd: CInt = -1
}
