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
            let environment = git.environment
            // An identity the environment names whole is git's whatever its config says
            // (CI, a container): no git is asked.
            let named = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"]
            if named.allSatisfy({ environment[$0] != nil }) { return [:] }
            let outcome = try git.attempt(["config", "-z", "--get-regexp", #"^user\.(name|email)$"#])
            let user = Set(Self.records(outcome.output).filter { !$0.1.isEmpty }.map(\.0))
            var identity: [String: String?] = [:]
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

    /// `sync init REMOTE [PATTERN…]`: a bare repository in the sync's private folder,
    /// fetched from the remote as a bare clone is, and in its `settings` file the patterns
    /// and the branch the remote's HEAD names. Nothing is imported yet: the first round does
    /// that. A remote that cannot be reached leaves nothing behind. The remote's URL reaches
    /// git through its config file only, never a process's arguments (`git clone URL` would
    /// show a token in it to every user of the machine, in `/proc/PID/cmdline`). Returns the
    /// line to print.
    package static func initialize(
        remote given: String, patterns: [String], environment: Environment, cancel: CancelSignal? = nil
    ) throws(SyncError) -> String {
        let remote = try usable(given)
        let folder = SyncFolder(environment: environment)
        guard !folder.isSetUp else { throw .alreadySyncing(folder: folder.path) }
        try folder.checkUsable()
        let existed = FileSystem.exists(folder.path)
        try folder.makePrivate()
        let git = try Git(directory: Path.join(folder.path, "repo.git"), environment: environment, cancel: cancel)
        do throws(SyncError) {
            let made = try git.attempt(["init", "-q", "--bare", "--", git.directory], outside: true)
            guard made.ok else { throw SyncError.git(command: "init", reason: made.reason) }
            try setOrigin(remote, git, folder)
            let head = try git.attempt(["ls-remote", "--symref", "origin", "HEAD"])
            guard head.ok else { throw SyncError.cannotSetUp(remote: RemoteURL.redacted(remote), reason: head.reason) }
            // No FETCH_HEAD, which would keep the URL (git hides its user part there, not a
            // query's token).
            let fetched = try git.attempt(["fetch", "-q", "--no-tags", "--no-write-fetch-head", "origin"])
            guard fetched.ok else {
                throw SyncError.cannotSetUp(remote: RemoteURL.redacted(remote), reason: fetched.reason)
            }
            // No HEAD listed: it is unborn (an empty repository's), which only a clone learns.
            let named = head.output.isEmpty ? try unbornHead(git, folder) : symbolicHead(head.output)
            let branch = named ?? "master"
            // As a clone's: HEAD names the branch followed (nothing reads it; a person might).
            _ = try git.attempt(["symbolic-ref", "HEAD", "refs/heads/" + branch])
            try Config.save(branch: branch, patterns: patterns, folder)
        } catch {
            _ = try? FileSystem.removeTree(existed ? git.directory : folder.path)
            throw error
        }
        let carried = patterns.isEmpty ? "every domain" : patterns.joined(separator: " ")
        return "sync: \(folder.path) from \(RemoteURL.redacted(remote)), carrying \(carried); "
            + "settings sync runs the first round"
    }

    /// The remote as git is told it: a relative path made absolute (git takes one relative to
    /// the folder it runs in, and rounds run from anywhere, as `git clone` made it for
    /// `sync init` before). Refused when empty or holding a control character: no URL
    /// does, and each would be a line of its own in git's config or on a terminal.
    static func usable(_ remote: String) throws(SyncError) -> String {
        guard !remote.isEmpty else { throw .unusableRemote(remote: "", reason: "it is empty") }
        if remote.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .unusableRemote(
                remote: CanonicalText.controlsEscaped(RemoteURL.redacted(remote)),
                reason: "it holds a control character, which no URL does")
        }
        guard RemoteURL.isLocalPath(remote), !remote.hasPrefix("/") else { return remote }
        return Path.join(FileSystem.currentDirectory(), remote)
    }

    /// The branch `git ls-remote --symref REMOTE HEAD` says HEAD names (`ref:
    /// refs/heads/NAME<TAB>HEAD`); nil for a detached HEAD.
    static func symbolicHead(_ output: [UInt8]) -> String? {
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, fields[1] == "HEAD", fields[0].hasPrefix("ref: refs/heads/") else { continue }
            return String(fields[0].dropFirst("ref: refs/heads/".count))
        }
        return nil
    }

    /// The branch an unborn HEAD of the remote names (an empty repository's: the first round
    /// pushes there), which git 2.39 tells a clone only, never `ls-remote`: a bare clone
    /// into a scratch folder beside the repository, removed after. The clone is given an
    /// alias in its arguments and the URL in its environment (`url.URL.insteadOf ALIAS`
    /// through `GIT_CONFIG_COUNT`, which only this user can read), the URL as `git fetch`
    /// reaches it (the user's own `insteadOf` rewrites applied, as git applies one). nil when
    /// it cannot tell.
    private static func unbornHead(_ git: Git, _ folder: SyncFolder) throws(SyncError) -> String? {
        let url = try git.text(["ls-remote", "--get-url", "origin"])
        let probe = Path.join(folder.path, "probe.git")
        _ = try? FileSystem.removeTree(probe)
        defer { _ = try? FileSystem.removeTree(probe) }
        // No path can be under /dev/null, and its `:` makes clone take it for a URL.
        let alias = "/dev/null/settings-sync:origin"
        let index = Int(git.environment["GIT_CONFIG_COUNT"] ?? "") ?? 0
        let clone = try git.attempt(
            ["clone", "-q", "--bare", "--", alias, probe],
            with: [
                "GIT_CONFIG_COUNT": String(index + 1), "GIT_CONFIG_KEY_\(index)": "url.\(url).insteadOf",
                "GIT_CONFIG_VALUE_\(index)": alias,
            ], outside: true)
        guard clone.ok else { return nil }
        let head = try git.attempt(["--git-dir=" + probe, "symbolic-ref", "-q", "HEAD"], outside: true)
        let name = String(decoding: head.output, as: UTF8.self).trimmingBlanks()
        return head.ok && name.hasPrefix("refs/heads/") ? String(name.dropFirst("refs/heads/".count)) : nil
    }

    /// Points `origin` at `url` by writing git's config file itself, through the door for
    /// the sync's files: `git config remote.origin.url URL` would put the URL, and a token
    /// in it, in a process's arguments. git unsets the old URL (naming none), the new one
    /// goes into the section git left (or a new one, with the fetch refspec when there is
    /// none), quoted as git quotes a value, and git reads it back: anything else restores
    /// the file as it was.
    static func setOrigin(_ url: String, _ git: Git, _ folder: SyncFolder) throws(SyncError) {
        let file = folder.repositoryFile("config")
        let before: [UInt8]
        do throws(StateFileError) { before = try file.read() ?? [] } catch { throw SyncError(error) }
        let hasFetch = try git.attempt(["config", "--get-all", "remote.origin.fetch"]).ok
        do throws(SyncError) {
            let unset = try git.attempt(["config", "--unset-all", "remote.origin.url"])
            // 5: there was none to unset.
            guard unset.ok || unset.status == 5 else { throw SyncError.git(command: "config", reason: unset.reason) }
            let text: [UInt8]
            do throws(StateFileError) { text = try file.read() ?? [] } catch { throw SyncError(error) }
            var lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
            if lines.last == "" { lines.removeLast() }
            var value = ""
            for scalar in url.unicodeScalars {
                if scalar == "\\" || scalar == "\"" { value += "\\" }
                value.unicodeScalars.append(scalar)
            }
            let entry = "\turl = \"\(value)\""
            let header = #"[remote "origin"]"#
            if hasFetch, let at = lines.lastIndex(of: header) {
                lines.insert(entry, at: at + 1)
            } else {
                lines += [header, entry] + (hasFetch ? [] : ["\tfetch = +refs/heads/*:refs/remotes/origin/*"])
            }
            do throws(StateFileError) {
                try file.replace(with: Array((lines.joined(separator: "\n") + "\n").utf8), durable: true)
            } catch {
                throw SyncError(error)
            }
            let read = try git.attempt(["config", "-z", "--get-all", "remote.origin.url"])
            guard read.ok, read.output == Array(url.utf8) + [0] else {
                throw SyncError.git(command: "config", reason: "remote.origin.url does not read back as written")
            }
        } catch {
            do throws(StateFileError) { try file.replace(with: before, durable: true) } catch {}
            throw error
        }
    }

    /// `sync leave`: the sync's folder removed (repository, state, log); the live
    /// settings and the remote are as they were. Returns the line to print.
    package static func leave(environment: Environment) throws(SyncError) -> String {
        let folder = SyncFolder(environment: environment)
        guard folder.isSetUp else { throw .notSyncing }
        try folder.checkUsable()
        let git = try Git(directory: folder.repository, environment: environment)
        let remote = (try? Config(git, folder).shownRemote) ?? "the remote"
        try holdingLock(git) { () throws(SyncError) in
            do throws(Errno) { try FileSystem.removeTree(folder.path) } catch {
                throw .store(.writeFailed(path: folder.path, error))
            }
        }
        return "sync: this machine no longer syncs with \(remote); its settings stay as they are"
    }

    /// `sync remote URL`: the remote changed, or only its URL (a renewed token, another
    /// spelling of the same repository). The base and the commit it was agreed against
    /// (`refs/settings/*`) stay: the round merges against them while the remote's history
    /// holds that commit, as the same repository's does, so a removal another machine made
    /// meanwhile is still one; a different repository's does not hold it, and the round
    /// merges with it as a machine joining does (`SyncRound.rewritten`). The old
    /// remote-tracking refs and the state file go, so the next round is a full one.
    package static func setRemote(_ given: String, environment: Environment) throws(SyncError) -> String {
        let url = try usable(given)
        let folder = SyncFolder(environment: environment)
        let git = try configured(environment)
        // A round under way finishes with the remote it began with.
        try holdingLock(git) { () throws(SyncError) in
            try setOrigin(url, git, folder)
            let refs = try git.text(["for-each-ref", "--format=%(refname)", "refs/remotes/origin"])
            try git.update(refs.split(separator: "\n").map { (ref: String($0), commit: nil) })
            folder.own(folder.state).remove()
        }
        return "sync: the remote is now \(RemoteURL.redacted(url))"
    }

    /// `sync carry [PATTERN…]`: the domains carried from now on (every one when none).
    package static func setPatterns(_ patterns: [String], environment: Environment) throws(SyncError) -> String {
        let folder = SyncFolder(environment: environment)
        let config = try Config(configured(environment), folder)
        try Config.save(branch: config.branch, patterns: patterns, folder)
        return "sync: carrying " + (patterns.isEmpty ? "every domain" : patterns.joined(separator: " "))
    }

    /// Runs `body` holding the repository's lock, which a round holds throughout (a verb
    /// that changes the repository waits for the round under way), its failures as
    /// `SyncError`s.
    static func holdingLock<T>(_ git: Git, timeout: Double = 10, _ body: () throws(SyncError) -> T)
        throws(SyncError) -> T
    {
        do {
            return try FolderLock.holding(git.directory, for: git.directory, timeout: timeout) { _ in try body() }
        } catch let error as SyncError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.writeFailed(path: git.directory, (error as? Errno) ?? .ioError))
        }
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
        let log = String(decoding: try folder.logTail(), as: UTF8.self)
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

    /// The most the log holds, in bytes: past it, the oldest lines go, down to three
    /// quarters of it (`newest`), so most rounds only append and one in many rewrites it.
    package static let logLimit = 1 << 20

    /// Appends the lines to the log of values that lost a conflict, each with its time and
    /// its control characters escaped, without reading the log; one past `logLimit` is
    /// cut to its newest lines. (A round appending while another cuts may lose its lines
    /// from the log; they were printed.)
    static func log(_ folder: SyncFolder, _ lines: [String]) throws(SyncError) {
        guard !lines.isEmpty else { return }
        let time = FileSystem.localTime(FileSystem.wallClockNanoseconds() / 1_000_000_000)
        var text: [UInt8] = []
        for line in lines { text += Array("\(time) \(CanonicalText.controlsEscaped(line))\n".utf8) }
        guard try folder.append(text, to: folder.log) > logLimit else { return }
        try folder.write(Array(newest(try folder.logTail(), within: logLimit / 4 * 3)), to: folder.log)
    }

    /// The newest whole lines of `log` that fit in `bytes`; the newest line alone when it
    /// is longer (the value a conflict lost is kept, whatever its size).
    static func newest(_ log: [UInt8], within bytes: Int) -> ArraySlice<UInt8> {
        guard log.count > bytes else { return log[...] }
        let newline = UInt8(ascii: "\n")
        let cut = log.count - bytes
        if log[cut - 1] == newline { return log[cut...] }
        if let end = log[cut...].dropLast().firstIndex(of: newline) { return log[(end + 1)...] }
        let start = log.dropLast().lastIndex(of: newline).map { $0 + 1 } ?? 0
        return log[start...]
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
