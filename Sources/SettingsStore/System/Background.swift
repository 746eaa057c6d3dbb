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
        if let setup = ProgramChoices.threadSetup.withLock({ $0 }) { setup(&attributes) }
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
