import SettingsStore

/// The user's own git, run on the sync's repository only: every call names the git
/// folder (`--git-dir`, no work tree, so no file of the repository is ever a path on this
/// machine), has a time limit, and ends early when the cancel signal is raised.
package struct Git: Sendable {
    /// The repository's git folder.
    package let directory: String
    /// What git runs with: the caller's environment, with no `GIT_DIR` or work tree of
    /// the user's (a hook's), no password prompt, and a floor on a transfer's speed.
    package let environment: Environment
    /// Seconds any one git process may take (`SETTINGS_SYNC_TIMEOUT`, default 120).
    package let timeLimit: Double
    package let cancel: CancelSignal?

    package init(directory: String, environment: Environment, cancel: CancelSignal? = nil) throws(SyncError) {
        self.directory = directory
        self.cancel = cancel
        do {
            timeLimit = try DomainStore.secondsFromEnvironment("SETTINGS_SYNC_TIMEOUT", in: environment) ?? 120
        } catch {
            throw .store(error)
        }
        var changes: [String: String?] = [
            "GIT_DIR": nil, "GIT_WORK_TREE": nil, "GIT_INDEX_FILE": nil, "GIT_OBJECT_DIRECTORY": nil,
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": nil, "GIT_NAMESPACE": nil, "GIT_CEILING_DIRECTORIES": nil,
            // A prompt would wait for a person no round has.
            "GIT_TERMINAL_PROMPT": "0",
        ]
        // An HTTP transfer slower than 1 kB/s for 30 s ends (git's own watchdog, before ours).
        if environment["GIT_HTTP_LOW_SPEED_LIMIT"] == nil { changes["GIT_HTTP_LOW_SPEED_LIMIT"] = "1000" }
        if environment["GIT_HTTP_LOW_SPEED_TIME"] == nil { changes["GIT_HTTP_LOW_SPEED_TIME"] = "30" }
        self.environment = environment.with(changes)
    }

    /// What one git process did.
    package struct Outcome {
        package let status: Int32
        package let output: [UInt8]
        /// git's reason in one line: its first `fatal:`/`error:` line, else its last line,
        /// with the credentials of any URL in it hidden (`RemoteURL.scrubbed`).
        package let reason: String
        package var ok: Bool { status == 0 }
    }

    /// Runs `git --git-dir=… ARGUMENTS`, `input` on its standard input; throws only when
    /// git cannot run, ran out of time, or was cancelled. `with` adds variables.
    /// `outside`: a command that makes the repository (`clone`), run without `--git-dir`.
    package func attempt(
        _ arguments: [String], input: [UInt8]? = nil, with extra: [String: String?] = [:], outside: Bool = false,
        consume: ((UnsafeRawBufferPointer) -> Bool)? = nil
    ) throws(SyncError) -> Outcome {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                ["git"] + (outside ? [] : ["--git-dir=" + directory]) + arguments,
                environment: extra.isEmpty ? environment : environment.with(extra), input: input,
                timeLimit: timeLimit, cancel: cancel, consume: consume)
        } catch {
            throw .gitMissing(error.message)
        }
        switch result.stopped {
        case .cancelled?: throw .cancelled
        case .timedOut?: throw .timedOut(what: arguments.first ?? "", seconds: timeLimit)
        case .declined?, nil: break
        }
        return Outcome(status: result.status, output: result.output, reason: Self.reason(result.errors))
    }

    /// `attempt`, and a failure is `SyncError.git`; its standard output.
    @discardableResult
    package func run(_ arguments: [String], input: [UInt8]? = nil, with extra: [String: String?] = [:])
        throws(SyncError) -> [UInt8]
    {
        let outcome = try attempt(arguments, input: input, with: extra)
        guard outcome.ok else {
            throw .git(command: arguments.first ?? "", reason: outcome.reason)
        }
        return outcome.output
    }

    /// `run`'s output as text, without its last newline.
    package func text(_ arguments: [String], input: [UInt8]? = nil) throws(SyncError) -> String {
        var output = try run(arguments, input: input)
        if output.last == UInt8(ascii: "\n") { output.removeLast() }
        return String(decoding: output, as: UTF8.self)
    }

    /// git's reason for a failure, in one line: its first `fatal:` or `error:` line
    /// (`remote: ` lines are the server's), else its last; the user part and query values
    /// of any URL in it hidden, as a token may be either.
    static func reason(_ errors: [UInt8]) -> String {
        let lines = String(decoding: errors, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: "\r").last.map(String.init) ?? ""
        }.filter { !$0.isEmpty }
        let line =
            lines.first { $0.hasPrefix("fatal: ") || $0.hasPrefix("error: ") }.map {
                String($0.drop { $0 != " " }.dropFirst())
            } ?? lines.last ?? "no reason given"
        return RemoteURL.scrubbed(line)
    }
}
