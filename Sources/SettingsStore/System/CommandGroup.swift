import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `prctl(2)` with one word argument, declared as the call it is: glibc's is variadic,
/// which Swift does not import, and on Linux's ABIs the word goes in a register either way.
@_extern(c, "prctl") private func prctlWord(_ option: CInt, _ value: CUnsignedLong) -> CInt

/// A person's command run by a verb that runs until stopped (`watch --exec`): in a
/// process group of its own, so that when a signal ends the verb the command and
/// everything it started end with it (`endRunningCommand`), never left running under
/// init for a supervisor's restart to run beside a second one.
extension Subprocess {
    /// Runs `arguments` with standard output and error ours and all of `input` on its
    /// standard input, written while it runs however long it is (a pipe holds 64 KiB),
    /// and waits for it. A command that closes its input or ends before reading it all
    /// is not waited on for the rest. Returns its exit status, 128 + the signal's number
    /// when a signal ended it; throws when it cannot be started.
    ///
    /// No signal's disposition changes: the signals that end a watch are held back on this
    /// thread while the command starts, so none finds it started but not yet recorded
    /// (the command gets this thread's mask as it was); and SIGPIPE is held back on this
    /// thread while the input is written, so a command that stops reading is an EPIPE
    /// here rather than the end of the watch.
    package static func runCommand(
        _ arguments: [String], environment: Environment, input: [UInt8]
    ) throws(Errno) -> Int32 {
        if adoptsOrphans.load(ordering: .relaxed) {
            // Orphans of earlier runs that have ended since: no other child is ours.
            var status: CInt = 0
            while waitpid(-1, &status, WNOHANG) > 0 {}
        }
        var pipe: [CInt] = [-1, -1]
        guard pipe2(&pipe, O_CLOEXEC) == 0 else { throw Errno.current }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
        _ = addCloseFrom(&actions, 3)
        var held = sigset_t(), before = sigset_t()
        sigemptyset(&held)
        for signal in endingSignals { sigaddset(&held, signal) }
        sigaddset(&held, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &held, &before)
        defer {
            // A SIGPIPE the writes raised is taken, not left to end the process when the
            // mask is restored.
            var pending = sigset_t(), broken = sigset_t()
            sigpending(&pending)
            sigemptyset(&broken)
            sigaddset(&broken, SIGPIPE)
            var now = timespec()
            if sigismember(&pending, SIGPIPE) == 1, sigismember(&before, SIGPIPE) == 0 {
                _ = sigtimedwait(&broken, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &before, nil)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigmask(&attributes, &before)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let started = spawn(&pid, arguments, environment, &actions, &attributes)
        close(pipe[0])
        if started == 0 { runningGroup = pid }
        // A signal that came meanwhile is handled here, with the group known.
        var writing = before
        sigaddset(&writing, SIGPIPE)
        pthread_sigmask(SIG_SETMASK, &writing, nil)
        guard started == 0 else {
            close(pipe[1])
            throw Errno(started)
        }
        feed(pipe[1], input, while: pid)
        close(pipe[1])
        // Waited for without reaping, so the group is forgotten before its number can be
        // another process's.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        runningGroup = 0
        return waitForExit(pid)
    }

    /// Makes this process the reaper of its commands' orphans (`PR_SET_CHILD_SUBREAPER`):
    /// a command's child that outlives the command's shell is reparented here, not to
    /// init, so `endRunningCommand` reaps it as soon as it ends rather than waiting for
    /// init to (a second in some sandboxes; never where a container's first process
    /// reaps nothing, and then the wait lasted the whole grace and a second more). Those
    /// that end later are reaped before the next command starts (`runCommand`). For a
    /// process that ends after its verb: a library's host would be made the parent of
    /// processes it never waits for.
    package static func adoptCommandOrphans() {
        _ = prctlWord(36, 1)  // PR_SET_CHILD_SUBREAPER
        adoptsOrphans.store(true, ordering: .relaxed)
    }

    /// Whether `adoptCommandOrphans` made this process their reaper.
    private static let adoptsOrphans = Atomic(false)

    /// The signals that end a verb that runs until stopped.
    package static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    /// How long a command's group has to end after the signal is passed on, in seconds,
    /// before what is left of it is killed (SIGKILL). Computed, not stored: a signal
    /// handler reads it, and a stored one would be initialised lazily, there.
    package static var endingGrace: Double { 2 }

    /// For a signal handler, so only async-signal-safe calls: passes `signal` on to the
    /// group of the command `runCommand` runs now, if any, and waits until no process of
    /// the group is left; after `endingGrace` seconds what is left is killed, and after
    /// one more second the wait ends whatever is left (a zombie its new parent never
    /// reaps).
    package static func endRunningCommand(_ signal: CInt) {
        let group = runningGroup
        guard group > 0 else { return }
        kill(-group, signal)
        var deadline = FileSystem.monotonicSeconds() + endingGrace
        var killed = false
        var status: CInt = 0
        while true {
            // The shell is ours to reap; so are its children once orphaned, when this
            // process adopts them (`adoptCommandOrphans`), else they are init's.
            while waitpid(-group, &status, WNOHANG) > 0 {}
            if kill(-group, 0) != 0 { return }
            if FileSystem.monotonicSeconds() >= deadline {
                if killed { return }
                kill(-group, SIGKILL)
                killed = true
                deadline += 1
            }
            FileSystem.sleep(seconds: 0.01)
        }
    }

    /// The group `runCommand` runs now; 0 when none. A plain word, as a signal handler
    /// reads it; `runCommand` sets it first with the ending signals held back, so no
    /// handler runs while it is being initialised.
    nonisolated(unsafe) private static var runningGroup: pid_t = 0

    /// Writes `input` to `fd` while `pid` runs: all of it, unless the command closes its
    /// end (EPIPE) or ends first (then a child it left holding the pipe does not hold us;
    /// without `pidfd_open`, an old kernel, only the pipe says so).
    private static func feed(_ fd: CInt, _ input: [UInt8], while pid: pid_t) {
        guard !input.isEmpty else { return }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let process = pidfdOpen(pid, 0)
        defer { if process >= 0 { close(process) } }
        var written = 0
        input.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count > 0 {
                    written += count
                    continue
                }
                if count < 0, errno == EINTR { continue }
                guard count < 0, errno == EAGAIN else { return }
                var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                if process >= 0 { fds.append(pollfd(fd: process, events: Int16(POLLIN), revents: 0)) }
                while poll(&fds, nfds_t(fds.count), -1) < 0, errno == EINTR {}
                if process >= 0, fds[1].revents != 0 { return }
            }
        }
    }
}
