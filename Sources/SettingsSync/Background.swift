#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Work on a thread of its own, joined once: a round lets git fetch and store a changed
/// domain's bytes on the other core while it parses them (an 8 MB domain is most of a
/// round's own time). What the work touches must be safe to use from another thread: git
/// runs as a process of its own, and the work's value is handed over by `join`, after
/// `pthread_join`, which orders the two threads' memory.
final class Background<T>: @unchecked Sendable {
    private var value: T?
    private var thread = pthread_t()
    private var started = false
    private var joined = false

    init(_ work: @escaping () -> T) {
        let job = BackgroundJob { [self] in value = work() }
        let raw = Unmanaged.passRetained(job).toOpaque()
        started =
            pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<BackgroundJob>.fromOpaque(raw!).takeRetainedValue().work()
                    return nil
                }, raw) == 0
        if !started {
            Unmanaged<BackgroundJob>.fromOpaque(raw).release()
            value = work()
        }
    }

    /// Waits for the work (the first call); its value.
    func join() -> T {
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
