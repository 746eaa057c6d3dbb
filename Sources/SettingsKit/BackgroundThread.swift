#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import SettingsStore

/// A plain OS thread for work that blocks, such as a watcher waiting in `poll(2)`: a
/// blocked Swift task would hold one of the few cooperative threads.
final class BackgroundThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var joined = false

    /// The stack size of new threads; 0 is the system's. A test sets one no system can give,
    /// to see what a failed `pthread_create` does.
    nonisolated(unsafe) static var stackSize = 0

    /// Starts `body` on a new thread; the error `pthread_create` gave when it cannot (at the
    /// system's limit of threads, `EAGAIN`), and then `body` never runs.
    init(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if Self.stackSize > 0 { pthread_attr_setstacksize(&attributes, Self.stackSize) }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            joined = true  // there is no thread to join or detach
            throw Errno(result)
        }
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
