import PlistCodecs
import PlistModel
import SettingsStore

/// Setting a machine's sync up, changing it, ending it, and what `sync status` shows.
package enum SyncSetup {
    /// What this machine syncs: the branch and the patterns, kept in the sync folder's
    /// `settings` file (`branch<TAB>NAME`, `carry<TAB>PATTERN` lines), so a round reads
    /// them without running git; the remote's URL is git's (`remote.origin.url`), read
    /// only when a message names it, and so is the user's identity, read when committing.
    struct Config {
        let branch: String
        let patterns: [String]
        let git: Git

        init(_ git: Git, _ folder: SyncFolder) throws(SyncError) {
            self.git = git
            var branch = "master", patterns: [String] = []
            if let bytes = try folder.contents(ofOwn: folder.settings) {
                for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                    let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
                    guard fields.count == 2 else { continue }
                    if fields[0] == "branch" {
                        branch = fields[1]
                    } else if fields[0] == "carry" {
                        patterns.append(fields[1])
                    }
                }
            } else {
                // A folder set up by an earlier version keeps them in the clone's git config.
                let outcome = try git.attempt(["config", "-z", "--get-regexp", #"^settings\.(carry|branch)$"#])
                for (name, value) in Self.records(outcome.output) {
                    if name == "settings.branch" { branch = value } else { patterns.append(value) }
                }
                try Self.save(branch: branch, patterns: patterns, folder)
            }
            (self.branch, self.patterns) = (branch, patterns)
        }

        static func save(branch: String, patterns: [String], _ folder: SyncFolder) throws(SyncError) {
            let text = "branch\t\(branch)\n" + patterns.map { "carry\t\($0)\n" }.joined()
            try folder.write(Array(text.utf8), to: folder.settings)
        }

        /// `git config -z` output: NAME, a newline, VALUE, a NUL, each.
        private static func records(_ output: [UInt8]) -> [(String, String)] {
            output.split(separator: 0).map { record in
                let parts = record.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    String(decoding: parts[0], as: UTF8.self),
                    parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
                )
            }
        }

        /// The remote as it may be shown (no password).
        var shownRemote: String {
            let url = (try? git.text(["config", "--get", "remote.origin.url"])) ?? ""
            return url.isEmpty ? "the remote" : RemoteURL.redacted(url)
        }

        /// The commit identity to add: none when the user has one of their own.
        func identity() throws(SyncError) -> [String: String?] {
            let outcome = try git.attempt(["config", "-z", "--get-regexp", #"^user\.(name|email)$"#])
            let user = Set(Self.records(outcome.output).filter { !$0.1.isEmpty }.map(\.0))
            var identity: [String: String?] = [:]
            let environment = git.environment
            if !user.contains("user.name") {
                for variable in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] where environment[variable] == nil {
                    identity[variable] = "settings sync"
                }
            }
            if !user.contains("user.email"), environment["EMAIL"] == nil {
                for variable in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] where environment[variable] == nil {
                    identity[variable] = "settings@\(FileSystem.hostName())"
                }
            }
            return identity
        }
    }

    /// `sync init REMOTE [PATTERN…]`: a bare clone in the sync's private folder, and in
    /// its `settings` file the patterns and the branch the remote's HEAD names. Nothing is
    /// imported yet: the first round does that. A remote that cannot be reached leaves
    /// nothing behind. Returns the line to print.
    package static func initialize(
        remote: String, patterns: [String], environment: Environment, cancel: CancelSignal? = nil
    ) throws(SyncError) -> String {
        let folder = SyncFolder(environment: environment)
        guard !folder.isSetUp else { throw .alreadySyncing(folder: folder.path) }
        try folder.checkUsable()
        let existed = FileSystem.exists(folder.path)
        try folder.makePrivate()
        let git = try Git(directory: Path.join(folder.path, "repo.git"), environment: environment, cancel: cancel)
        do throws(SyncError) {
            // A bare clone, never checked out: it learns the branch the remote's HEAD names
            // even when the remote is empty (git's "unborn HEAD"), as a plain clone does.
            let clone = try git.attempt(["clone", "-q", "--bare", "--", remote, git.directory], outside: true)
            guard clone.ok else {
                throw SyncError.cannotSetUp(remote: RemoteURL.redacted(remote), reason: clone.reason)
            }
            try git.run(["config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"])
            let head = try git.attempt(["symbolic-ref", "-q", "HEAD"])
            let named = String(decoding: head.output, as: UTF8.self).trimmingBlanks().split(separator: "\n").first
            let branch = named.flatMap { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : nil } ?? "master"
            try Config.save(branch: branch, patterns: patterns, folder)
        } catch {
            _ = try? FileSystem.removeTree(existed ? git.directory : folder.path)
            throw error
        }
        let carried = patterns.isEmpty ? "every domain" : patterns.joined(separator: " ")
        return "sync: \(folder.path) from \(RemoteURL.redacted(remote)), carrying \(carried); "
            + "settings sync runs the first round"
    }

    /// `sync leave`: the sync's folder removed (repository, state, log); the live
    /// settings and the remote are as they were. Returns the line to print.
    package static func leave(environment: Environment) throws(SyncError) -> String {
        let folder = SyncFolder(environment: environment)
        guard folder.isSetUp else { throw .notSyncing }
        try folder.checkUsable()
        let git = try Git(directory: folder.repository, environment: environment)
        let remote = (try? Config(git, folder).shownRemote) ?? "the remote"
        do {
            try FolderLock.holding(git.directory, for: git.directory, timeout: 10) { _ in
                try FileSystem.removeTree(folder.path)
            }
        } catch {
            throw .store((error as? StoreError) ?? .writeFailed(path: folder.path, (error as? Errno) ?? .ioError))
        }
        return "sync: this machine no longer syncs with \(remote); its settings stay as they are"
    }

    /// `sync remote URL`: the remote changed; the next round merges with what it holds as
    /// a machine joining it does (an empty base: nothing here is taken for removed there).
    package static func setRemote(_ url: String, environment: Environment) throws(SyncError) -> String {
        let git = try configured(environment)
        try git.run(["config", "remote.origin.url", url])
        let refs = try git.text(["for-each-ref", "--format=%(refname)", "refs/remotes/origin", "refs/settings"])
        for ref in refs.split(separator: "\n") { try git.run(["update-ref", "-d", String(ref)]) }
        _ = try? FileSystem.unlink(SyncFolder(environment: environment).state)
        return "sync: the remote is now \(RemoteURL.redacted(url))"
    }

    /// `sync carry [PATTERN…]`: the domains carried from now on (every one when none).
    package static func setPatterns(_ patterns: [String], environment: Environment) throws(SyncError) -> String {
        let folder = SyncFolder(environment: environment)
        let config = try Config(configured(environment), folder)
        try Config.save(branch: config.branch, patterns: patterns, folder)
        return "sync: carrying " + (patterns.isEmpty ? "every domain" : patterns.joined(separator: " "))
    }

    private static func configured(_ environment: Environment) throws(SyncError) -> Git {
        let folder = SyncFolder(environment: environment)
        guard folder.isSetUp else { throw .notSyncing }
        try folder.checkUsable()
        return try Git(directory: folder.repository, environment: environment)
    }

    /// What `sync status` shows.
    package struct Status {
        package let remote: String
        package let branch: String
        package let folder: String
        /// `2026-11-24 23:59:07 +0000, ok: exported 1, imported 0`, or `never`.
        package let lastRound: String
        package let patterns: [String]
        package let ignoreFile: String
        package let conflictsKept: Int
        package let log: String
    }

    /// The sync's status; nil when this machine does not sync.
    package static func status(environment: Environment, configDirectory: String) throws(SyncError) -> Status? {
        let folder = SyncFolder(environment: environment)
        guard folder.isSetUp else { return nil }
        try folder.checkUsable()
        let config = try Config(Git(directory: folder.repository, environment: environment), folder)
        let last = String(decoding: try folder.contents(ofOwn: folder.last) ?? [], as: UTF8.self)
        let fields = last.split(separator: "\t", maxSplits: 2).map(String.init)
        let lastRound =
            fields.count == 3 ? "\(FileSystem.localTime(Int64(fields[0]) ?? 0)), \(fields[1]): \(fields[2])" : "never"
        let log = String(decoding: try folder.contents(ofOwn: folder.log) ?? [], as: UTF8.self)
        return Status(
            remote: config.shownRemote, branch: config.branch, folder: folder.path,
            lastRound: lastRound.hasSuffix("\n") ? String(lastRound.dropLast()) : lastRound,
            patterns: config.patterns, ignoreFile: SyncRules.ignoreFile(configDirectory: configDirectory),
            conflictsKept: log.split(separator: "\n").count, log: folder.log)
    }

    /// Remembers how a round ended (`ok` or `failed`, and what), for `sync status`; its
    /// control characters escaped, so the line stays one line and prints as it reads.
    static func record(_ folder: SyncFolder, ok: Bool, _ text: String) throws(SyncError) {
        let line =
            "\(FileSystem.wallClockNanoseconds() / 1_000_000_000)\t\(ok ? "ok" : "failed")\t"
            + "\(CanonicalText.controlsEscaped(text))\n"
        try folder.write(Array(line.utf8), to: folder.last)
    }

    /// Appends the lines to the log of values that lost a conflict, each with its time and
    /// its control characters escaped.
    static func log(_ folder: SyncFolder, _ lines: [String]) throws(SyncError) {
        guard !lines.isEmpty else { return }
        var text = try folder.contents(ofOwn: folder.log) ?? []
        let time = FileSystem.localTime(FileSystem.wallClockNanoseconds() / 1_000_000_000)
        for line in lines { text += Array("\(time) \(CanonicalText.controlsEscaped(line))\n".utf8) }
        try folder.write(text, to: folder.log)
    }

    /// Removes the lock files a git killed mid-step left in the repository (a ref's, the
    /// packed refs', the config's): under the round's lock no other git works in it.
    static func clearStaleLocks(_ directory: String) {
        for name in ["packed-refs.lock", "config.lock", "shallow.lock", "index.lock", "HEAD.lock"] {
            _ = try? FileSystem.unlink(Path.join(directory, name))
        }
        func sweep(_ folder: String) {
            for name in (try? FileSystem.directoryEntries(folder)) ?? [] {
                let path = Path.join(folder, name)
                guard let status = (try? FileSystem.linkStatus(path)) ?? nil else { continue }
                if status.isDirectory {
                    sweep(path)
                } else if name.hasSuffix(".lock"), status.isRegular {
                    _ = try? FileSystem.unlink(path)
                }
            }
        }
        sweep(Path.join(directory, "refs"))
    }
}
