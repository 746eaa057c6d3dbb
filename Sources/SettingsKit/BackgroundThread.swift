#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plain OS thread for work that blocks, such as a watcher waiting in `poll(2)`: a
/// blocked Swift task would hold one of the few cooperative threads.
final class BackgroundThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
    }

    /// Whether the caller is running on this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Waits for the body to return; a thread cannot wait for itself, and then this
    /// lets it finish on its own.
    func join() {
        guard !joined else { return }
        joined = true
        if isCurrent { pthread_detach(thread) } else { pthread_join(thread, nil) }
    }

    deinit { if !joined { pthread_detach(thread) } }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
