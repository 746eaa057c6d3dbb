import PlistCodecs
import PlistModel
import SettingsStore

/// `settings sync`: the user's settings carried between machines in a git repository of
/// their own (no server of ours), merged per key. The clone lives in
/// `$XDG_DATA_HOME/settings/sync`, never in the live config folder; which domains it
/// carries is this machine's git config (`settings.carry`, shell patterns); the lost side
/// of each conflict is kept in `$XDG_DATA_HOME/settings/sync.log`.
enum SyncCommand {
    static func sync(_ context: inout Context, _ arguments: [Token]) throws {
        switch arguments.first?.text {
        case nil: try round(&context)
        case "init"?: try setUp(&context, Array(arguments.dropFirst()))
        case "--watch"?: try watch(&context, Array(arguments.dropFirst()))
        case "status"?:
            try expectAtMost(1, arguments)
            try status(&context)
        case "log"?:
            try expectAtMost(1, arguments)
            let places = Places(context)
            context.output += try GitCommand.contents(places.log) ?? []
        case let word?: throw CLIError.unexpectedArgument(word)
        }
    }

    /// Where a sync keeps its things.
    struct Places {
        let data: String
        var repository: String { Path.join(data, "settings/sync") }
        var log: String { Path.join(data, "settings/sync.log") }
        var lastRound: String { Path.join(data, "settings/sync.last") }
        var fingerprints: String { Path.join(data, "settings/sync.exported") }

        init(_ context: Context) {
            let environment = context.streams.environment
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                self.data = data
            } else {
                data = Path.join(environment.home, ".local/share")
            }
        }
    }

    /// `sync init REMOTE [PATTERN…]`: clones REMOTE (an empty bare repository is fine),
    /// records the patterns of the domains to carry (default all), and sets the merge
    /// driver up in the clone.
    private static func setUp(_ context: inout Context, _ arguments: [Token]) throws {
        guard let remote = arguments.first?.text else { throw CLIError.usage("sync init needs a remote") }
        let places = Places(context)
        if GitCommand.exists(places.repository) {
            throw CLIError.external("\(places.repository) exists: this machine already syncs", status: 1)
        }
        let environment = context.streams.environment
        do { try FileSystem.makeDirectories(Path.directory(of: places.repository)) } catch {
            throw StoreError.writeFailed(path: places.repository, error)
        }
        try GitCommand.run(["git", "clone", "-q", remote, places.repository], environment, &context, quiet: true)
        let git = ["git", "-C", places.repository]
        // A clone of an empty repository has no branch yet: name it, so every machine does alike.
        if (try? GitCommand.run(git + ["rev-parse", "-q", "--verify", "HEAD"], environment, &context)) == nil {
            try GitCommand.run(git + ["symbolic-ref", "HEAD", "refs/heads/main"], environment, &context)
        }
        for pattern in arguments.dropFirst() {
            try GitCommand.run(git + ["config", "--add", "settings.carry", pattern.text], environment, &context)
        }
        let program = GitCommand.shellQuoted(Subprocess.currentExecutable ?? "settings")
        let driver =
            "\(program) merge-file %O %A %B --path %P --keep-theirs --log \(GitCommand.shellQuoted(places.log))"
        try GitCommand.run(git + ["config", "merge.plist.driver", driver], environment, &context)
        try GitCommand.run(git + ["config", "merge.plist.name", "settings sync"], environment, &context)
        try GitCommand.run(git + ["config", "diff.plist.textconv", "\(program) textconv"], environment, &context)
        let attributes = Path.join(places.repository, ".gitattributes")
        if !GitCommand.exists(attributes) {
            try PlistFiles.write(
                Array("\(GitCommand.attributes)\n".utf8), to: attributes, lockTimeout: context.store.lockTimeout)
        }
        let carried = arguments.count > 1 ? arguments.dropFirst().map(\.text).joined(separator: " ") : "every domain"
        context.print("sync: \(places.repository) from \(remote), carrying \(carried)")
    }

    /// One round, holding the clone's lock: two rounds at once (a timer and a watch) take
    /// turns. What a killed round left (git's index lock, a merge under way) is cleared
    /// first: under the lock no other round runs, and no one else works in this clone.
    private static func round(_ context: inout Context) throws {
        let places = Places(context)
        guard GitCommand.exists(Path.join(places.repository, ".git")) else {
            throw CLIError.external("this machine does not sync yet: settings sync init REMOTE", status: 1)
        }
        var inner = context
        defer { context = inner }
        // The lock is on .git: the clone's own folder is locked by each file written into it.
        let gitFolder = Path.join(places.repository, ".git")
        try FolderLock.holding(gitFolder, for: places.repository, timeout: context.store.lockTimeout) { _ in
            _ = try? FileSystem.unlink(Path.join(gitFolder, "index.lock"))
            if GitCommand.exists(Path.join(gitFolder, "MERGE_HEAD")) {
                _ = try? Subprocess.run(
                    ["git", "-C", places.repository, "merge", "--abort"], environment: inner.streams.environment,
                    capturingErrors: true)
            }
            try lockedRound(&inner, places)
        }
    }

    private static func lockedRound(_ context: inout Context, _ places: Places) throws {
        let environment = context.streams.environment
        let git = ["git", "-C", places.repository]
        var carry = Carry(context, places)

        // A domain whose file and rules are byte for byte as at its last export is not
        // parsed and encoded again (a 100,000-key domain is most of an idle round): its
        // fingerprint says so. Any changed byte counts, so no change is ever left behind.
        var exported: [String] = []
        var fingerprints = Fingerprints(at: places.fingerprints)
        for name in try context.store.domainNames() where carry.carries(name) {
            carry.learn(name, context.schema(for: .named(name)))
            let file = Path.join(places.repository, name + ".plist")
            let live = try PlistFiles.read(context.store.path(of: .named(name), host: .any))
            let print = Fingerprints.of(live, carry.rules(for: name))
            if fingerprints[name] == print, GitCommand.exists(file) { continue }
            let values = carry.shared(name, try context.store.load(.named(name))?.values ?? [:])
            var bytes: [UInt8] = []
            try XMLWriter.encode(.dict(PlistDictionary(entries: values.sortedEntries)), chunk: Int.max) { bytes += $0 }
            let stored = try GitCommand.contents(file)
            if stored != bytes {
                try PlistFiles.write(bytes, to: file, lockTimeout: context.store.lockTimeout)
                exported.append(name)
            }
            // The print of the bytes read before this export: a write since then changes
            // the file, so the next round exports again.
            fingerprints[name] = print
        }
        try fingerprints.save(lockTimeout: context.store.lockTimeout)
        try GitCommand.run(git + ["add", "-A"], environment, &context)
        let staged = try Subprocess.run(git + ["diff", "--cached", "--quiet"], environment: environment)
        if staged.status == 1 {
            let message = "settings sync from \(FileSystem.hostName()): " + exported.joined(separator: ", ")
            try GitCommand.run(git + ["commit", "-q", "-m", message], environment, &context)
        }

        let branch = try GitCommand.run(git + ["symbolic-ref", "--short", "HEAD"], environment, &context)
        /// The commit `name` is, or nil when there is none (an unborn branch).
        func revision(_ name: String) -> String? {
            try? GitCommand.run(git + ["rev-parse", "-q", "--verify", name], environment, &context)
        }
        let before = revision("HEAD")
        let remote = (try? GitCommand.run(git + ["remote", "get-url", "origin"], environment, &context)) ?? "origin"
        // git's own words for a failure are its last line; the message is one line.
        func quietly(_ arguments: [String]) -> (ok: Bool, why: String) {
            guard let result = try? Subprocess.run(git + arguments, environment: environment, capturingErrors: true)
            else { return (false, "git cannot run") }
            let why = String(decoding: result.output, as: UTF8.self).split(separator: "\n").last ?? ""
            return (result.status == 0, String(why))
        }
        let fetch = quietly(["fetch", "-q", "origin"])
        guard fetch.ok else {
            try record(places, "\(remote) unreachable; \(exported.count) domain(s) waiting", &context)
            throw CLIError.external(
                "cannot reach \(remote) (\(fetch.why)): the live settings are unchanged; the next sync carries them",
                status: 4)
        }
        if revision("origin/\(branch)") != nil {
            // Two machines that began on an empty repository each made a first commit.
            let logged = try GitCommand.contents(places.log)?.count ?? 0
            let merge = quietly(["merge", "-q", "--no-edit", "--allow-unrelated-histories", "origin/\(branch)"])
            // What lost a conflict, which the driver appended to the log, is said here too.
            if let log = try GitCommand.contents(places.log) {
                let lost = log.dropFirst(logged)
                for line in String(decoding: lost, as: UTF8.self).split(separator: "\n") { context.warn(String(line)) }
            }
            guard merge.ok else {
                _ = quietly(["merge", "--abort"])
                throw CLIError.external(
                    "the merge with \(remote) failed (\(merge.why)): the live settings are unchanged", status: 4)
            }
        }
        if revision("HEAD") != nil {
            let push = quietly(["push", "-q", "origin", "HEAD:\(branch)"])
            guard push.ok else {
                try record(places, "push to \(remote) failed", &context)
                throw CLIError.external("cannot push to \(remote) (\(push.why)): the next sync tries again", status: 4)
            }
        }

        // What the merge brought: every carried file that changed since this round began.
        let after = revision("HEAD")
        var changed: [String] = []
        if let after, after != before {
            // With no commit of ours before (a first round that had nothing to carry),
            // everything the remote holds is new here.
            let names =
                if let before {
                    try GitCommand.run(
                        git + ["diff", "--name-only", "--no-renames", before, after, "--", "*.plist"], environment,
                        &context)
                } else {
                    try GitCommand.run(git + ["ls-tree", "-r", "--name-only", after], environment, &context)
                }
            changed = names.split(separator: "\n").map(String.init)
        }
        var imported: [String] = []
        for file in changed where !file.contains("/") && file.hasSuffix(".plist") {
            let name = String(file.dropLast(6))
            guard carry.carries(name), GitCommand.exists(Path.join(places.repository, file)) else { continue }
            let path = Path.join(places.repository, file)
            carry.learn(name, context.schema(for: .named(name)))
            let incoming = try PlistFiles.dictionary(from: PlistFiles.read(path), name: path)
            try context.update(.named(name)) { values in
                var next = incoming
                for entry in values.sortedEntries where carry.staysLocal(name, entry.key) {
                    next[entry.key] = entry.value
                }
                guard next != values else { return false }
                values = next
                return true
            }
            imported.append(name)
        }
        let summary = "exported \(exported.count), imported \(imported.count)"
        try record(places, "ok: \(summary)", &context)
        context.print("sync: \(summary)" + (imported.isEmpty ? "" : " (\(imported.joined(separator: ", ")))"))
    }

    /// `sync --watch [--interval S]`: a round now, then one after local changes settle
    /// (a second without another) and one every S seconds (default 60) for the other
    /// machines'. SIGINT or SIGTERM ends it with status 0, between rounds: a round under
    /// way is finished, never cut. A round that fails is one line, and the loop goes on.
    private static func watch(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        let interval =
            try GitCommand.takeOption("--interval", from: &arguments).map { text -> Double in
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw CLIError.badValue(flag: "--interval", text: text, expected: "a number of seconds")
                }
                return seconds
            } ?? 60
        try expectAtMost(0, arguments)
        let stop: CancelSignal, inotify: Inotify
        do {
            (stop, inotify) = (try CancelSignal(), try Inotify())
            try FileSystem.makeDirectories(context.store.directory)
            _ = try inotify.watch(context.store.directory, Inotify.folderEvents)
        } catch {
            throw StoreError.unreadable(path: context.store.directory, error)
        }
        if context.streams.processEndsAfterRun { stop.raisedOnTerminationSignals() }
        var quiet: Double? = nil
        while true {
            do { try round(&context) } catch { context.report(error) }
            try? context.streams.output(context.output)
            context.streams.error(context.error)
            (context.output, context.error) = ([], [])
            // Wait for a change of a domain file, then for it to settle, or for the interval.
            var wake: Inotify.Wake
            repeat {
                do { wake = try inotify.wait(seconds: quiet ?? interval, cancel: stop) } catch {
                    throw StoreError.unreadable(path: context.store.directory, error)
                }
                if wake == .events {
                    let names = (try? inotify.events())?.map(\.name) ?? []
                    if names.contains(where: { $0.hasSuffix(".plist") && !$0.hasPrefix(".") }) { quiet = 1 }
                }
            } while wake == .events
            if wake == .cancelled { return }
            quiet = nil
        }
    }

    /// Remembers how the last round ended, for `sync status`.
    private static func record(_ places: Places, _ text: String, _ context: inout Context) throws {
        let line = "\(FileSystem.wallClockNanoseconds() / 1_000_000_000) \(text)\n"
        try PlistFiles.write(Array(line.utf8), to: places.lastRound, lockTimeout: context.store.lockTimeout)
    }

    /// `sync status`: the remote, the last round, the domains carried and the conflicts kept.
    private static func status(_ context: inout Context) throws {
        let places = Places(context)
        guard GitCommand.exists(Path.join(places.repository, ".git")) else {
            context.print("not syncing: settings sync init REMOTE")
            return
        }
        let environment = context.streams.environment
        let git = ["git", "-C", places.repository]
        let remote = (try? GitCommand.run(git + ["remote", "get-url", "origin"], environment, &context)) ?? "(none)"
        context.print("remote: \(remote)")
        context.print("repository: \(places.repository)")
        let last =
            String(decoding: try GitCommand.contents(places.lastRound) ?? [], as: UTF8.self)
        context.print("last round: " + (last.isEmpty ? "never" : String(last.dropLast())))
        let carry = Carry(context, places)
        let names = try context.store.domainNames().filter(carry.carries)
        context.print("carried: " + (names.isEmpty ? "(none)" : names.joined(separator: ", ")))
        let log = String(decoding: try GitCommand.contents(places.log) ?? [], as: UTF8.self)
        context.print("conflicts kept in \(places.log): \(log.split(separator: "\n").count)")
    }

    /// Which domains and keys travel: the patterns given at `init` (every domain when
    /// none), less the lines of the repository's `.settingsignore` (`domain` or
    /// `domain:key`, shell patterns), which travels with it, and the keys a domain's
    /// schema marks `"sync": false`.
    struct Carry {
        let patterns: [String]
        let ignored: [(domain: String, key: String?)]
        /// Per domain, the keys its schema keeps on each machine.
        private var schemaLocal: [String: Set<String>] = [:]

        mutating func learn(_ domain: String, _ schema: Schema?) {
            guard schemaLocal[domain] == nil else { return }
            schemaLocal[domain] = Set(schema?.keys.filter { !$0.syncs }.map(\.name) ?? [])
        }

        init(_ context: Context, _ places: Places) {
            var context = context
            let git = ["git", "-C", places.repository]
            let configured =
                (try? GitCommand.run(
                    git + ["config", "--get-all", "settings.carry"], context.streams.environment, &context))
                ?? ""
            patterns = configured.split(separator: "\n").map(String.init)
            let file = Path.join(places.repository, ".settingsignore")
            let text =
                String(decoding: ((try? GitCommand.contents(file)) ?? nil) ?? [], as: UTF8.self)
            ignored = text.split(separator: "\n").compactMap { line in
                let line = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let words = line.split(separator: ":", maxSplits: 1).map { String($0.trimmingBlanks()) }
                guard let domain = words.first, !domain.isEmpty else { return nil }
                return (domain, words.count > 1 ? words[1] : nil)
            }
        }

        /// Whether the domain travels (never `ByHost`: those are not in `domainNames`).
        func carries(_ name: String) -> Bool {
            guard patterns.isEmpty || patterns.contains(where: { FileSystem.matches(name, pattern: $0) }) else {
                return false
            }
            return !ignored.contains { $0.key == nil && FileSystem.matches(name, pattern: $0.domain) }
        }

        /// Whether `key` of `domain` stays on this machine.
        func staysLocal(_ domain: String, _ key: String) -> Bool {
            if schemaLocal[domain]?.contains(key) == true { return true }
            return ignored.contains { rule in
                guard let pattern = rule.key else { return false }
                return FileSystem.matches(domain, pattern: rule.domain) && FileSystem.matches(key, pattern: pattern)
            }
        }

        /// What decides which of the domain's keys travel, as text, for its fingerprint.
        func rules(for domain: String) -> [UInt8] {
            var text = patterns.joined(separator: "\n") + "\u{0}"
            for rule in ignored { text += rule.domain + ":" + (rule.key ?? "") + "\n" }
            text += "\u{0}" + (schemaLocal[domain] ?? []).sorted().joined(separator: "\n")
            return Array(text.utf8)
        }

        /// The domain's values that travel.
        func shared(_ domain: String, _ values: PlistDictionary) -> PlistDictionary {
            PlistDictionary(entries: values.sortedEntries.filter { !staysLocal(domain, $0.key) })
        }
    }
}

/// Per domain, a 64-bit FNV-1a of its file's bytes and of the rules that shaped its last
/// export, kept in `$XDG_DATA_HOME/settings/sync.exported` as `DOMAIN<TAB>HEX` lines.
struct Fingerprints {
    private let path: String
    private var prints: [String: String] = [:]

    init(at path: String) {
        self.path = path
        guard let bytes = (try? GitCommand.contents(path)) ?? nil else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 2 { prints[String(fields[0])] = String(fields[1]) }
        }
    }

    subscript(_ domain: String) -> String? {
        get { prints[domain] }
        set { prints[domain] = newValue }
    }

    func save(lockTimeout: Double) throws {
        let text = prints.keys.sorted().map { "\($0)\t\(prints[$0]!)\n" }.joined()
        try PlistFiles.write(Array(text.utf8), to: path, lockTimeout: lockTimeout)
    }

    static func of(_ bytes: [UInt8], _ rules: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [bytes, [0xff], rules] {
            for byte in part {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
