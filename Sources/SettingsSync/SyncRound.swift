import PlistCodecs
import PlistModel
import SettingsStore

/// What a round did, for the verb to print.
public struct SyncReport: Sendable {
    /// Domains whose content in the repository this round changed (this machine's
    /// changes, carried).
    public internal(set) var exported: [String] = []
    /// Domains whose live file this round changed (other machines' changes).
    public internal(set) var imported: [String] = []
    /// One line per value that lost a conflict (also appended to the log).
    public internal(set) var conflicts: [String] = []
    /// One line per thing left as it was: a key this machine's schema refuses, a file of
    /// the repository that is no domain or does not parse, a live domain that could not
    /// be read or written. The round went on with everything else.
    public internal(set) var notes: [String] = []
    /// Nothing changed on either side since the last round: no tree was read.
    public internal(set) var idle = false
    /// Pushes tried (more than one when other machines pushed first).
    public internal(set) var attempts = 0
}

/// One round of `settings sync`. Per carried domain it merges three states key by key:
/// the **base** (what this machine last agreed with the repository, kept as the ref
/// `refs/settings/base`), the **live** domain, and the **repository**'s (the remote
/// branch just fetched). A change since the base on either side wins; both changed
/// differently is a conflict, which the repository's value (already pushed) wins, the
/// losing value logged. So a removed key or domain is a change that travels, and a
/// machine that joins with base nothing loses no other machine's value.
///
/// The merge is pushed first (a refused push is fetched, merged and pushed again, with
/// backoff), then applied to each live domain inside the store's locked update against
/// the file as it is then: a key written since the round read it keeps the new value
/// (the next round carries it), and a key this machine's schema refuses stays. The base
/// moves only for domains applied: a round stopped at any point (kill, full disk, a file
/// that does not parse) leaves a base from which the next round applies what was missed.
package struct SyncRound {
    let store: DomainStore
    let folder: SyncFolder
    let git: Git
    /// Pushes tried before the round gives up to the next one.
    package var maximumAttempts = 24

    package init(store: DomainStore, environment: Environment, cancel: CancelSignal? = nil) throws(SyncError) {
        self.store = store
        folder = SyncFolder(environment: environment)
        git = try Git(directory: folder.repository, environment: environment, cancel: cancel)
    }

    /// Runs the round, holding the repository's lock (two rounds at once take turns), and
    /// records how it ended (`sync status`) and the values that lost a conflict (`sync log`).
    package func run() throws(SyncError) -> SyncReport {
        guard folder.isSetUp else { throw .notSyncing }
        let report: SyncReport
        do {
            try folder.makePrivate()
            report = try lockedRound()
        } catch {
            try? SyncSetup.record(folder, ok: false, error.message)
            throw error
        }
        try SyncSetup.log(folder, report.conflicts)
        if !report.idle || !SyncFolder.exists(folder.last) {
            try SyncSetup.record(
                folder, ok: true, "exported \(report.exported.count), imported \(report.imported.count)")
        }
        return report
    }

    private func lockedRound() throws(SyncError) -> SyncReport {
        do {
            return try FolderLock.holding(git.directory, for: git.directory, timeout: store.lockTimeout) { _ in
                try locked()
            }
        } catch let error as SyncError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.writeFailed(path: git.directory, .ioError))
        }
    }

    private func locked() throws(SyncError) -> SyncReport {
        SyncSetup.clearStaleLocks(git.directory)
        let config = try SyncSetup.Config(git)
        let rules = SyncRules(
            patterns: config.patterns,
            ignore: (try? SyncFolder.contents(SyncRules.ignoreFile(configDirectory: store.directory))) ?? nil ?? [])
        let remoteRef = "refs/remotes/origin/\(config.branch)", baseRef = "refs/settings/base"
        var report = SyncReport()

        let live = try readLive(rules, &report)
        let fetched = try git.attempt(["fetch", "-q", "--no-tags", "--prune", "origin"])
        guard fetched.ok else { throw .unreachable(remote: config.shownRemote, reason: fetched.reason) }
        let refs = try git.refs([remoteRef, baseRef])
        var remoteTip = refs[remoteRef]
        let baseTip = refs[baseRef]

        // Nothing moved on either side since the last round: done without reading a tree.
        let state = SyncState((try? SyncFolder.contents(folder.state)) ?? nil ?? [])
        var now = SyncState()
        now.base = baseTip ?? ""
        for domain in live.values { if let print = domain.print { now.prints[domain.name] = print } }
        now.remote = remoteTip ?? ""
        if state == now, live.values.allSatisfy({ $0.print != nil }) {
            report.idle = true
            return report
        }

        let base = try Tree(git.entries(of: baseTip), git)
        while report.attempts < maximumAttempts {
            report.attempts += 1
            let remote = try Tree(git.entries(of: remoteTip), git)
            var round = report
            let plan = try Plan(base: base, remote: remote, live: live, rules: rules, state: state, round: self)
            round.exported = plan.exported
            round.conflicts = plan.conflicts
            round.notes += plan.notes
            if plan.entries != remote.entries {
                let tree = try git.tree(plan.entries)
                let message = "settings sync from \(FileSystem.hostName()): " + plan.exported.joined(separator: ", ")
                let commit = try git.commit(
                    tree, parents: remoteTip.map { [$0] } ?? [], message: message, identity: config.identity)
                let push = try git.attempt(["push", "-q", "origin", "\(commit):refs/heads/\(config.branch)"])
                if !push.ok {
                    // Another machine pushed first, or the remote refused: which, a fetch tells.
                    let again = try git.attempt(["fetch", "-q", "--no-tags", "--prune", "origin"])
                    guard again.ok else { throw .unreachable(remote: config.shownRemote, reason: again.reason) }
                    let tip = try git.refs([remoteRef])[remoteRef]
                    guard tip != remoteTip else { throw .pushFailed(remote: config.shownRemote, reason: push.reason) }
                    remoteTip = tip
                    // Backoff with jitter, so a fleet pushing at once spreads out.
                    let pause = min(2, 0.05 * Double(1 << min(report.attempts, 6))) * Double.random(in: 0.5...1.5)
                    if git.cancel?.wait(seconds: pause) == true { throw .cancelled }
                    continue
                }
                try git.update(remoteRef, to: commit)
                remoteTip = commit
            }
            report = round
            // Pushed (or nothing to push): now each live domain, and the base with it.
            var agreed = base.entriesKeeping(plan.folded)
            for domain in plan.domains {
                let outcome = apply(domain, &report)
                agreed += outcome
            }
            if agreed.sorted(by: Tree.order) != base.entries {
                let tree = try git.tree(agreed)
                let commit = try git.commit(tree, parents: [], message: "settings sync base", identity: config.identity)
                try git.update(baseRef, to: commit)
                now.base = commit
            }
            now.remote = remoteTip ?? ""
            // A domain this round wrote is looked at again next round: its print now
            // would be of a file another writer may have changed since.
            for name in report.imported { now.prints[name] = nil }
            for domain in live.values where domain.print == nil { now.prints[domain.name] = nil }
            try folder.write(now.bytes, to: folder.state)
            return report
        }
        throw .remoteKeptMoving(remote: config.shownRemote, attempts: report.attempts)
    }

    // MARK: The live side

    /// A carried live domain as the round read it.
    struct Live {
        let name: String
        /// Nil when it could not be read (then it is left alone, and said so).
        let values: PlistDictionary?
        /// Of its bytes and its local-key rules; nil when it could not be read.
        let print: String?
        let local: LocalKeys
    }

    /// The carried live domains, by folded name (the store finds a domain in any case).
    private func readLive(_ rules: SyncRules, _ report: inout SyncReport) throws(SyncError) -> [String: Live] {
        let names: [String]
        do { names = try store.domainNames() } catch { throw .store(error) }
        var live: [String: Live] = [:]
        for name in names where Self.isDomainName(name) && rules.carries(name) {
            let key = name.lowercased()
            if let other = live[key] {
                report.notes.append("\(name).plist is another spelling of \(other.name): left out of the sync")
                continue
            }
            let local = localKeys(name, rules)
            let path = store.path(of: .named(name))
            do throws(StoreError) {
                let read: (bytes: [UInt8], status: FileSystem.Status)?
                do throws(FileError) { read = try FileSystem.readFile(path) } catch {
                    throw StoreError(reading: path, error)
                }
                guard let read else { continue }
                let values = try PlistFiles.dictionary(from: read.bytes, name: path)
                live[key] = Live(
                    name: name, values: values, print: SyncState.print(read.bytes, local.text), local: local)
            } catch {
                report.notes.append("\(error.message): \(name) left out of this round")
                live[key] = Live(name: name, values: nil, print: nil, local: local)
            }
        }
        return live
    }

    func localKeys(_ name: String, _ rules: SyncRules) -> LocalKeys {
        let schema: Schema? =
            switch SchemaFiles.load(for: name, configDirectory: store.directory, environment: store.environment) {
            case .success(let schema): schema
            case .failure: nil
            }
        return rules.localKeys(name, schema: schema, managed: store.adminLayers(of: .named(name)).managed)
    }

    /// A name the store takes as a domain of the config folder (not the global domain,
    /// not a dotfile, no `/`, no control character).
    static func isDomainName(_ name: String) -> Bool {
        guard let domain = try? DomainName(name), case .named(let named) = domain else { return false }
        return sameKey(named, name)
    }

    // MARK: Applying

    /// Applies one domain's merge to its live file; the base entries it agreed to.
    private func apply(_ domain: Plan.Domain, _ report: inout SyncReport) -> [TreeEntry] {
        guard domain.liveBefore != domain.liveAfter else {
            return domain.agreed.map { [$0] } ?? []
        }
        let schema: Schema? =
            switch SchemaFiles.load(for: domain.name, configDirectory: store.directory, environment: store.environment)
            {
            case .success(let schema): schema
            case .failure: nil
            }
        var refused: [(key: String, kept: PlistValue?)] = []
        var refusals: [String] = []
        defer { report.notes += refusals }
        do {
            var emptied = false
            var changed = false
            try store.update(.named(domain.name)) { current in
                (refused, refusals) = ([], [])
                var next: [PlistDictionary.Entry] = []
                changed = false
                PlistDictionary.walk([current, domain.liveBefore, domain.liveAfter]) { key, values in
                    let (now, before, after) = (values[0], values[1], values[2])
                    var value = now
                    // A key this round did not change, or one written since it read the
                    // file (the next round carries that write), stays as it is now.
                    if before != after, now == before {
                        if let after, let problem = schema?.key(key)?.violation(after) {
                            refusals.append(
                                "\(domain.name): kept \(Self.shown(key)) as it is here; the repository's "
                                    + "\(Self.json(after)) is not allowed by its schema (\(problem.message))")
                            refused.append((key, before))
                        } else {
                            value = after
                            changed = true
                        }
                    }
                    if let value { next.append(.init(key: key, value: value)) }
                }
                guard changed else { return false }
                current = PlistDictionary(entries: next)
                emptied = next.isEmpty
                return true
            }
            if changed {
                report.imported.append(domain.name)
                if emptied { _ = try store.remove(.named(domain.name), onlyIfEmpty: true) }
            }
        } catch {
            let message = (error as? StoreError)?.message ?? "\(error)"
            report.notes.append("\(message): \(domain.name) is as it was; the next sync tries again")
            return domain.previous
        }
        guard !refused.isEmpty, var agreed = domain.agreedValues else { return domain.agreed.map { [$0] } ?? [] }
        // The base keeps this machine's value of a refused key, so it is not sent back as
        // a change, and the repository's is looked at again next round.
        for (key, kept) in refused { agreed[key] = kept }
        do { return try Plan.entry(domain.name, agreed, git).map { [$0] } ?? [] } catch { return domain.previous }
    }

    /// A key as a message shows it: control characters and a backslash escaped.
    static func shown(_ key: String) -> String {
        String(decoding: CanonicalText.escaped(key), as: UTF8.self)
    }

    static func json(_ value: PlistValue) -> String { String(decoding: JSONWriter.encode(value), as: UTF8.self) }
}
