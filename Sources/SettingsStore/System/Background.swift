#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Work on a thread of its own, joined once: a sync round lets git fetch and store a
/// changed domain's bytes on the other core while it parses them, and a big XML domain
/// is parsed in two halves at once (`DomainStore`). What the work touches must be safe to
/// use from another thread, and its value is handed over by `join`, after `pthread_join`,
/// which orders the two threads' memory. Where no thread can be started, the work runs
/// at once, on the caller's.
package final class Background<T>: @unchecked Sendable {
    private var value: T?
    private var thread = pthread_t()
    private var started = false
    private var joined = false

    package init(_ work: @escaping () -> T) {
        let job = BackgroundJob { [self] in value = work() }
        let raw = Unmanaged.passRetained(job).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        Self.startElsewhere(&attributes)
        started =
            pthread_create(
                &thread, &attributes,
                { raw in
                    Unmanaged<BackgroundJob>.fromOpaque(raw!).takeRetainedValue().work()
                    return nil
                }, raw) == 0
        if !started {
            Unmanaged<BackgroundJob>.fromOpaque(raw).release()
            value = work()
        }
    }

    /// Starts the thread on the CPUs this process may use but the one it runs on, when
    /// there are others. Left to itself, Linux often queued a busy parent's new thread on
    /// the parent's own CPU, where it began 2 to 4 ms later: about the time half of a big
    /// domain takes, so the two halves were mostly read one after the other.
    private static func startElsewhere(_ attributes: inout pthread_attr_t) {
        var cpus = [UInt8](repeating: 0, count: 128)  // glibc's cpu_set_t: 1,024 CPUs
        let here = Int(sched_getcpu())
        guard sched_getaffinity(0, cpus.count, &cpus) == 0, here >= 0, here < cpus.count * 8 else { return }
        cpus[here / 8] &= ~UInt8(1 << (here % 8))
        guard cpus.contains(where: { $0 != 0 }) else { return }
        _ = pthread_attr_setaffinity_np(&attributes, cpus.count, cpus)
    }

    /// Waits for the work (the first call); its value.
    package func join() -> T {
        if started, !joined {
            pthread_join(thread, nil)
            joined = true
        }
        return value!
    }

    deinit {
        // Never left running behind its owner.
        if started, !joined { pthread_join(thread, nil) }
    }
}

/// The work a thread runs (not generic: a C function cannot be).
private final class BackgroundJob: @unchecked Sendable {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
}

// glibc's GNU extensions of <sched.h> and <pthread.h>, which Glibc's module leaves out.
@_extern(c, "sched_getcpu") private func sched_getcpu() -> CInt
@_extern(c, "sched_getaffinity") private func sched_getaffinity(
    _ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer
) -> CInt
@_extern(c, "pthread_attr_setaffinity_np") private func pthread_attr_setaffinity_np(
    _ attributes: UnsafeMutablePointer<pthread_attr_t>, _ size: Int, _ mask: UnsafeRawPointer
) -> CInt

// <malloc.h> is not in Glibc's module map.
@_extern(c, "mallopt") private func mallopt(_ parameter: CInt, _ value: CInt) -> CInt
private let M_TOP_PAD: CInt = -2

extension FileSystem {
    /// Lets every malloc heap grow 16 MB at a time: a second thread building half of a big
    /// domain's values in a heap of its own otherwise grew it by `mprotect` hundreds of
    /// times. Memory only reserved so is never touched, so never paid for.
    package static func growHeapsInBigSteps() {
        _ = mallopt(M_TOP_PAD, 16 << 20)
    }
}
