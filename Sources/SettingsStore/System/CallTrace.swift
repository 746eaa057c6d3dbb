#if DEBUG
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
    import Synchronization

    /// The calls the system door (`FileSystem` and its extensions, `Inotify`, `CancelSignal`,
    /// `MappedFile`) made while a test was recording, in the manner of swift-system's
    /// mocking trace: a test counts the files opened, the descriptors left open or the bytes
    /// read from what the engine itself says it did, instead of tracing a process with
    /// `strace` or counting `/proc/self/fd`, which see every other thread of the process
    /// too (the test runner's, libdispatch's) and made those tests flaky.
    ///
    /// Debug builds only: a release build has no trace, and `FileSystem.note` is empty
    /// there. In a debug build, a call made while nothing records costs one relaxed load.
    package final class CallTrace: @unchecked Sendable {
        /// One call: its name (`open`, `close`, `read`, `pwritev`, `stat`, …), the path it
        /// named, the descriptor it acted on, and what it returned (a descriptor, a byte
        /// count; -1 for a failure, with `errno` in `error`).
        package struct Call: Equatable, CustomStringConvertible, Sendable {
            package let name: String
            package let path: String?
            package let fd: CInt
            package let result: Int
            package let error: CInt

            package var description: String {
                let target = path.map { "\"\($0)\"" } ?? (fd >= 0 ? "\(fd)" : "")
                return "\(name)(\(target)) = \(result)" + (result < 0 ? " errno \(error)" : "")
            }
        }

        /// Which threads a recording hears: the one that records, or every thread (a
        /// writer or watcher SettingsKit runs on a thread of its own).
        package enum Threads: Sendable { case this, all }

        /// The thread heard (nil: all), and the one that records.
        private let thread: pthread_t?, owner: pthread_t
        private let recorded = Mutex<[Call]>([])

        private init(thread: pthread_t?) { (self.thread, owner) = (thread, pthread_self()) }

        /// The calls recorded so far, in order.
        package var calls: [Call] { recorded.withLock { $0 } }

        /// Runs `body` with a recording on, and returns its result with the calls made.
        package static func record<T>(
            _ threads: Threads = .this, _ body: () throws -> T
        ) rethrows -> (result: T, calls: [Call]) {
            let trace = CallTrace(thread: threads == .this ? pthread_self() : nil)
            recorders.withLock { $0.append(trace) }
            active.add(1, ordering: .relaxed)
            defer {
                active.subtract(1, ordering: .relaxed)
                recorders.withLock { $0.removeAll { $0 === trace } }
            }
            return (try body(), trace.calls)
        }

        /// The calls that made a descriptor (an open, a temporary file, an inotify queue, a
        /// pipe's end, an `openat` below a folder) and whose descriptor no later `close` in
        /// `calls` closed, by descriptor.
        package static func leftOpen(_ calls: [Call]) -> [CInt: Call] {
            let making: Set = ["open", "openat", "openat2", "mkostemp", "inotify_init1", "pipe"]
            var open: [CInt: Call] = [:]
            for call in calls {
                if making.contains(call.name), call.result >= 0 { open[CInt(call.result)] = call }
                if call.name == "close" { open[call.fd] = nil }
            }
            return open
        }

        /// The calls recorded so far by the innermost recording this thread runs (none
        /// when it runs none): what a test looks at halfway through its `record`.
        package static var current: [Call] {
            let me = pthread_self()
            return recorders.withLock { $0.last { pthread_equal($0.owner, me) != 0 } }?.calls ?? []
        }

        /// Whether any recording is on: the one thing a call looks at when none is.
        static let active = Atomic<Int>(0)
        private static let recorders = Mutex<[CallTrace]>([])

        static func add(_ call: Call) {
            let me = pthread_self()
            let hearing = recorders.withLock { all in
                all.filter { trace in trace.thread.map { pthread_equal($0, me) != 0 } ?? true }
            }
            for trace in hearing { trace.recorded.withLock { $0.append(call) } }
        }
    }
#endif

extension FileSystem {
    /// Adds a call to the recordings on (`CallTrace`); nothing in a release build, and in a
    /// debug build nothing past one load while none records. `path` is evaluated only then.
    @inline(__always)
    package static func note(_ name: StaticString, path: @autoclosure () -> String? = nil, fd: CInt = -1, result: Int) {
        #if DEBUG
            guard CallTrace.active.load(ordering: .relaxed) > 0 else { return }
            // The caller looks at errno after this: the recording must leave it as the call did.
            let saved = errno
            defer { errno = saved }
            CallTrace.add(.init(name: "\(name)", path: path(), fd: fd, result: result, error: result < 0 ? saved : 0))
        #endif
    }
}
