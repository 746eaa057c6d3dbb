import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// <unistd.h>'s pipe2 and <spawn.h>'s closefrom action are GNU extensions, which Glibc's
// module leaves out (internal: `CommandGroup` uses them too).
@_extern(c, "pipe2") func pipe2(_ fds: UnsafeMutablePointer<CInt>, _ flags: CInt) -> CInt
@_extern(c, "pidfd_open") func pidfdOpen(_ pid: pid_t, _ flags: CUnsignedInt) -> CInt
@_extern(c, "posix_spawn_file_actions_addclosefrom_np")
func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: CInt) -> CInt

/// Runs another program as the user's own (git, for `git-setup` and `sync`): found on
/// `PATH`, with this process's environment, and waited for. Nothing is vendored: what
/// runs is whatever the user would run by that name.
package enum Subprocess {
    /// How a program ended, and what it printed.
    package struct Result {
        /// The exit status; 128 + the signal's number when a signal ended it.
        package let status: Int32
        /// Standard output.
        package let output: [UInt8]
        /// Standard error: never passed straight to ours, so what the program says reaches
        /// the user through the caller (the command line's streams), in one line where one
        /// is promised.
        package var errors: [UInt8] = []
        /// Whether it was ended for running past its time limit, or on the cancel signal.
        package var stopped: Stop? = nil
    }

    /// Why a program was ended before it finished.
    package enum Stop: Equatable, Sendable {
        case timedOut, cancelled
        /// The caller's `consume` wanted no more of its output.
        case declined
    }

    /// Runs `arguments` (the first is the program), standard output and error captured, in
    /// `environment` (the command line's, which a test gives in process). Standard input
    /// is `input`, written while the output is read (so neither side can block the other),
    /// or /dev/null when there is none. With `timeLimit` (seconds) or `cancel`, a program
    /// still running past the limit or when the signal is raised is sent SIGTERM, then
    /// SIGKILL two seconds later, and its `Result.stopped` says why: a remote that stops
    /// answering never holds a caller forever. Throws when the program cannot be started
    /// (ENOENT: not installed). With `consume`, standard output is handed to it as it
    /// arrives, a piece at a time, and not kept: a caller reading a stream of any size
    /// (`git cat-file --batch`) holds what it keeps of it, never the whole; when it returns
    /// false the program is ended as for the time limit (`Stop.declined`).
    package static func run(
        _ arguments: [String], environment: Environment = .process, input: [UInt8]? = nil,
        timeLimit: Double? = nil, cancel: CancelSignal? = nil, consume: ((UnsafeRawBufferPointer) -> Bool)? = nil
    ) throws(Errno) -> Result {
        var out: [CInt] = [-1, -1], err: [CInt] = [-1, -1], inp: [CInt] = [-1, -1]
        var opened: [CInt] = []
        defer { for fd in opened where fd >= 0 { close(fd) } }
        guard pipe2(&out, O_CLOEXEC) == 0 else { throw Errno.current }
        opened += out
        guard pipe2(&err, O_CLOEXEC) == 0 else { throw Errno.current }
        opened += err
        if input != nil {
            guard pipe2(&inp, O_CLOEXEC) == 0 else { throw Errno.current }
            opened += inp
            _ = fcntl(inp[1], F_SETFL, fcntl(inp[1], F_GETFL) | O_NONBLOCK)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inp[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        // Nothing else of ours reaches the program: not a lock's descriptor (a git outliving
        // a killed round would hold the lock), not a pipe our own caller reads to its end.
        _ = addCloseFrom(&actions, 3)
        var pid: pid_t = 0
        let started = spawn(&pid, arguments, environment, &actions, nil)
        // The child's ends are the child's alone now.
        for end in [out[1], err[1], inp[0]] where end >= 0 {
            close(end)
            opened.removeAll { $0 == end }
        }
        guard started == 0 else { throw Errno(started) }

        var output: [UInt8] = [], errorText: [UInt8] = []
        var pending = input ?? []
        var written = 0
        var reading: [CInt] = [out[0]] + (err[0] >= 0 ? [err[0]] : [])
        var writing: CInt = inp[1]
        if pending.isEmpty, writing >= 0 {
            close(writing)
            opened.removeAll { $0 == writing }
            writing = -1
        }
        let deadline = timeLimit.map { FileSystem.monotonicSeconds() + $0 }
        var stopped: Stop? = nil
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !reading.isEmpty || writing >= 0 {
            var fds = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writing >= 0 { fds.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            if let cancel { fds.append(pollfd(fd: cancel.fd, events: Int16(POLLIN), revents: 0)) }
            var wait: CInt = -1
            if let deadline {
                let left = deadline - FileSystem.monotonicSeconds()
                if left <= 0 { stopped = .timedOut; break }
                wait = CInt(min(left * 1000 + 1, 60_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Errno.current
            }
            if ready == 0 { continue }
            if cancel != nil, fds.last!.revents != 0 { stopped = .cancelled; break }
            for entry in fds where entry.revents != 0 && stopped == nil {
                if entry.fd == writing {
                    let count = pending.withUnsafeBytes { bytes in
                        write(writing, bytes.baseAddress! + written, bytes.count - written)
                    }
                    if count > 0 { written += count }
                    if (count < 0 && errno != EAGAIN && errno != EINTR) || written == pending.count {
                        // Done, or the program stopped reading (EPIPE): it ends its input.
                        close(writing)
                        opened.removeAll { $0 == writing }
                        writing = -1
                        pending = []
                    }
                } else if reading.contains(entry.fd) {
                    let size = buffer.count
                    let count = read(entry.fd, &buffer, size)
                    if count > 0 {
                        if entry.fd != out[0] {
                            errorText += buffer[..<count]
                        } else if let consume {
                            let more = buffer.withUnsafeBytes {
                                consume(UnsafeRawBufferPointer(rebasing: $0[..<count]))
                            }
                            if !more { stopped = .declined }
                        } else {
                            output += buffer[..<count]
                        }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        reading.removeAll { $0 == entry.fd }
                    }
                }
            }
            if stopped != nil { break }
        }
        // Its output is closed, but it may still run (or a child it left holds nothing of
        // ours and it waits on that): the limit and the cancel signal hold here too, waited
        // on through a descriptor of the process (`pidfd_open`) rather than by polling.
        if stopped == nil, deadline != nil || cancel != nil, !exited(pid, deadline: deadline, cancel: cancel) {
            stopped = deadline.map { FileSystem.monotonicSeconds() >= $0 } == true ? .timedOut : .cancelled
        }
        if stopped != nil {
            // A program ended early may leave its own children holding our pipes: the
            // status is what is waited for, not their end.
            kill(pid, SIGTERM)
            let grace = FileSystem.monotonicSeconds() + 2
            var status: CInt = 0
            while true {
                let ended = waitpid(pid, &status, WNOHANG)
                if ended == pid || (ended < 0 && errno != EINTR) { break }
                if FileSystem.monotonicSeconds() > grace {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                    break
                }
                FileSystem.sleep(seconds: 0.01)
            }
            return Result(status: 128 + SIGTERM, output: output, errors: errorText, stopped: stopped)
        }
        return Result(status: waitForExit(pid), output: output, errors: errorText)
    }

    /// `posix_spawnp` of `arguments` in `environment` (the command line's table, or the
    /// process's own); the error number, 0 when it started.
    static func spawn(
        _ pid: inout pid_t, _ arguments: [String], _ environment: Environment,
        _ actions: inout posix_spawn_file_actions_t, _ attributes: UnsafePointer<posix_spawnattr_t>?
    ) -> CInt {
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let table: [UnsafeMutablePointer<CChar>?]? = environment.table.map { variables in
            variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in table ?? [] { free(pointer) } }
        if let table { return posix_spawnp(&pid, arguments[0], &actions, attributes, argv, table) }
        return posix_spawnp(&pid, arguments[0], &actions, attributes, argv, environ)
    }

    /// Waits for `pid` and returns its exit status, 128 + the signal's number when a signal
    /// ended it. (WIFEXITED and friends are macros Swift cannot see: the low seven bits are
    /// the signal, 0 for a normal exit, the next byte the exit status.)
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: CInt = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Runs `arguments` as a person's own program (`$EDITOR`, `capture -- CMD`): standard
    /// input, output and error are ours. Returns its exit status, 128 + the signal's number
    /// when a signal ended it. Throws when it cannot be started.
    package static func runAttached(_ arguments: [String], environment: Environment = .process) throws(Errno) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        _ = addCloseFrom(&actions, 3)
        // As system(3): while the program has the terminal, an interrupt or a quit is its
        // to handle (vi ignores it), not ours; the program itself gets them as usual.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let interrupt = signal(SIGINT, SIG_IGN), quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGQUIT, quit)
        }
        var pid: pid_t = 0
        let started = spawn(&pid, arguments, environment, &actions, &attributes)
        guard started == 0 else { throw Errno(started) }
        return waitForExit(pid)
    }

    /// Waits until `pid` has ended (true), the deadline passes or the cancel signal is
    /// raised (false); it is not reaped here.
    private static func exited(_ pid: pid_t, deadline: Double?, cancel: CancelSignal?) -> Bool {
        let fd = pidfdOpen(pid, 0)
        guard fd >= 0 else { return true }  // No pidfd (an old kernel): the caller waits as before.
        defer { close(fd) }
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let cancel { fds.append(pollfd(fd: cancel.fd, events: Int16(POLLIN), revents: 0)) }
            var wait: CInt = -1
            if let deadline {
                let left = deadline - FileSystem.monotonicSeconds()
                if left <= 0 { return false }
                wait = CInt(min(left * 1000 + 1, 60_000))
            }
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0, errno != EINTR { return true }
            if ready > 0 {
                if fds[0].revents != 0 { return true }
                return false
            }
        }
    }

    /// The path of the running program, as the kernel knows it (so a driver written into
    /// git's config runs this binary, wherever it is and whatever PATH holds).
    /// Where `name` is on the environment's PATH (the one the command line was given, not
    /// necessarily this process's): the first regular file anyone may run; nil if none.
    package static func program(_ name: String, in environment: Environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if let status = try? FileSystem.status(candidate), status.isRegular, status.permissions & 0o111 != 0 {
                return candidate
            }
        }
        return nil
    }

    package static var currentExecutable: String? { FileSystem.resolvedPath("/proc/self/exe") }
}

extension FileSystem {
    /// This machine's host name (`gethostname`), for messages such as a sync's commits.
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `name` matches the shell pattern `pattern` (`fnmatch`; with `caseFold`,
    /// letters in either case).
    package static func matches(_ name: String, pattern: String, caseFold: Bool = false) -> Bool {
        // FNM_CASEFOLD (1 << 4), a GNU extension the Glibc module does not import.
        fnmatch(pattern, name, caseFold ? 1 << 4 : 0) == 0
    }

    /// `seconds` since the epoch as local time, `2026-11-24 23:59:07 +0000`, for a person.
    package static func localTime(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return String(seconds) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S %z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
