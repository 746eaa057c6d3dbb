import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// <unistd.h>'s pipe2 is a GNU extension, which Glibc's module leaves out.
@_extern(c, "pipe2") private func pipe2(_ fds: UnsafeMutablePointer<CInt>, _ flags: CInt) -> CInt

/// Runs another program as the user's own (git, for `git-setup`): found on `PATH`, with
/// this process's environment and standard error, and waited for. Nothing is vendored:
/// what runs is whatever the user would run by that name.
package enum Subprocess {
    /// How a program ended, and what it printed on standard output.
    package struct Result {
        /// The exit status; 128 + the signal's number when a signal ended it.
        package let status: Int32
        package let output: [UInt8]
    }

    /// Runs `arguments` (the first is the program), standard input closed, standard
    /// output captured (and standard error with it, when `capturingErrors`: a caller that
    /// says what failed in one line of its own), in `environment` (the command line's,
    /// which a test gives in process). Throws when the program cannot be started (ENOENT:
    /// not installed).
    package static func run(
        _ arguments: [String], environment: Environment = .process, capturingErrors: Bool = false
    ) throws(Errno) -> Result {
        var pipe: [CInt] = [0, 0]
        guard pipe2(&pipe, O_CLOEXEC) == 0 else { throw Errno.current }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        if capturingErrors { posix_spawn_file_actions_adddup2(&actions, pipe[1], 2) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let table: [UnsafeMutablePointer<CChar>?]? = environment.table.map { variables in
            variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in table ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let started =
            if let table {
                posix_spawnp(&pid, arguments[0], &actions, nil, argv, table)
            } else {
                posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
            }
        close(pipe[1])
        defer { close(pipe[0]) }
        guard started == 0 else { throw Errno(started) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
            if count > 0 { output += buffer[..<count]; continue }
            if count < 0, errno == EINTR { continue }
            break
        }
        var status: CInt = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and friends are macros Swift cannot see: the low seven bits are the
        // signal (0 for a normal exit), the next byte the exit status.
        let signal = status & 0x7f
        return Result(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: output)
    }

    /// The path of the running program, as the kernel knows it (so a driver written into
    /// git's config runs this binary, wherever it is and whatever PATH holds).
    package static var currentExecutable: String? { FileSystem.resolvedPath("/proc/self/exe") }
}

extension FileSystem {
    /// This machine's host name (`gethostname`), for messages such as a sync's commits.
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `name` matches the shell pattern `pattern` (`fnmatch`, no flags).
    package static func matches(_ name: String, pattern: String) -> Bool { fnmatch(pattern, name, 0) == 0 }
}
