#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import SettingsStore

/// What the `settings` program chooses for its whole process. The libraries never do
/// (`ProgramChoices`): a Swift program linking them keeps its own signals, malloc and
/// threads. `main.swift` adopts it first thing; the tests that run the command line in
/// their own process adopt it too, so they see what the program does.
enum ProcessPolicy {
    static func adopt() {
        // Past `ulimit -f` a write fails with EFBIG, which is reported, instead of the
        // signal ending the process with no word and a temporary file left behind.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGBUS) { _ in
            guard let line = ProcessPolicy.cutShortLine else {
                // Not a mapping of ours: the fault, run again, ends the process as it would have.
                signal(SIGBUS, SIG_DFL)
                return
            }
            _ = write(2, line.baseAddress, line.count)
            _exit(3)
        }
        ProgramChoices.mappings.withLock { $0 = { path in cutShortLine = path.map(line) } }
        ProgramChoices.threadSetup.withLock { $0 = { attributes in setUpThread(&attributes) } }
    }

    /// The line SIGBUS writes while a mapping lives: a file another program cut short in
    /// place (a truncating writer) while it was read. Made before the signal can come, as a
    /// handler may only write, and never freed, as a signal may be reading it.
    nonisolated(unsafe) private static var cutShortLine: UnsafeBufferPointer<UInt8>?

    private static func line(_ path: String) -> UnsafeBufferPointer<UInt8> {
        let text = Array("settings: \(path) was cut short by another program while it was read; try again\n".utf8)
        let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
        _ = line.initialize(from: text)
        return UnsafeBufferPointer(line)
    }

    /// A second thread (a big XML domain's second half) is started on the CPUs this
    /// process may use but the one it runs on, when there are others: left to itself,
    /// Linux often queued a busy parent's new thread on the parent's own CPU, where it
    /// began 2 to 4 ms later, about the time half of a big domain takes, so the two halves
    /// were mostly read one after the other. And every malloc heap grows 16 MB at a time:
    /// the second thread builds its half in a heap of its own, which otherwise grew by
    /// `mprotect` hundreds of times (memory only reserved so is never touched, so never
    /// paid for).
    private static func setUpThread(_ attributes: inout pthread_attr_t) {
        _ = mallopt(M_TOP_PAD, 16 << 20)
        var cpus = [UInt8](repeating: 0, count: 128)  // glibc's cpu_set_t: 1,024 CPUs
        let here = Int(sched_getcpu())
        guard sched_getaffinity(0, cpus.count, &cpus) == 0, here >= 0, here < cpus.count * 8 else { return }
        cpus[here / 8] &= ~UInt8(1 << (here % 8))
        guard cpus.contains(where: { $0 != 0 }) else { return }
        _ = pthread_attr_setaffinity_np(&attributes, cpus.count, cpus)
    }
}

// glibc's GNU extensions of <sched.h> and <pthread.h>, and <malloc.h>, which Glibc's
// module leaves out.
@_extern(c, "sched_getcpu") private func sched_getcpu() -> CInt
@_extern(c, "sched_getaffinity") private func sched_getaffinity(
    _ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer
) -> CInt
@_extern(c, "pthread_attr_setaffinity_np") private func pthread_attr_setaffinity_np(
    _ attributes: UnsafeMutablePointer<pthread_attr_t>, _ size: Int, _ mask: UnsafeRawPointer
) -> CInt
@_extern(c, "mallopt") private func mallopt(_ parameter: CInt, _ value: CInt) -> CInt
private let M_TOP_PAD: CInt = -2
