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
    /// The remote's history no longer holds the commit this machine last agreed with (it
    /// was force-pushed over, or its branch deleted): the round merged with an empty base,
    /// as a machine joining does, so nothing the new history lacks was taken for removed.
    public internal(set) var rewritten = false
    /// Pushes tried (more than one when other machines pushed first).
    public internal(set) var attempts = 0
    /// A domain could not be applied: the next round must look again, whatever changed.
    var unsettled = false
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
    package var maximumAttempts = 40

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
        try folder.checkOwner()
        do {
            try folder.makePrivate()
            report = try lockedRound()
        } catch {
            try? SyncSetup.record(folder, ok: false, error.message)
            throw error
        }
        try SyncSetup.log(folder, report.conflicts)
        if !report.idle || !FileSystem.exists(folder.last) {
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
        let config = try SyncSetup.Config(git, folder)
        // A rule file that cannot be read stops the round: without it, a key meant to stay
        // here would travel.
        let ignore = try SyncFolder.contents(SyncRules.ignoreFile(configDirectory: store.directory)) ?? []
        let rules = SyncRules(patterns: config.patterns, ignore: ignore)
        let remoteRef = "refs/remotes/origin/\(config.branch)", baseRef = "refs/settings/base"
        let agreedRef = "refs/settings/agreed"
        var report = SyncReport()

        let live = try readLive(rules, &report)
        let state = SyncState((try? SyncFolder.contents(folder.state)) ?? nil ?? [])
        // A domain whose file changed since the last round is merged whatever the remote
        // did: its bytes are read now and parsed here while git, on another thread, fetches
        // and stores them as a blob (what is pushed when the remote did not move).
        let changed = live.values.filter { $0.print != nil && state.prints[$0.name] != $0.print }
        let fetch = ["fetch", "-q", "--no-tags", "--prune", "origin"]
        var prepared: [String: Prepared] = [:]
        let fetched: Git.Outcome
        if changed.isEmpty {
            fetched = try git.attempt(fetch)
        } else {
            let git = self.git
            let fetching = Background { Result { () throws(SyncError) in try git.attempt(fetch) } }
            let reads = changed.map { domain in (domain, Result { () throws(StoreError) in try domain.read() }) }
            let storing = Background { () -> [String: String] in
                var blobs: [String: String] = [:]
                for (domain, read) in reads {
                    guard case .success(let bytes?) = read, PropertyList.sniff(bytes) == .xml else { continue }
                    blobs[domain.name] = try? git.store(bytes)
                }
                return blobs
            }
            for (domain, read) in reads {
                switch read {
                case .success(let bytes?): prepared[domain.name] = domain.prepared(bytes)
                case .success(nil): continue
                case .failure(let error): prepared[domain.name] = Prepared(values: .failure(error), print: "")
                }
            }
            for (name, blob) in storing.join() { prepared[name]?.blob = blob }
            fetched = try fetching.join().get()
        }
        guard fetched.ok else { throw .unreachable(remote: config.shownRemote, reason: fetched.reason) }
        // The state's remote commit is the anchor of a base made before `agreedRef` was kept.
        let snapshot = try git.snapshot([remoteRef, baseRef, agreedRef] + (state.remote.isEmpty ? [] : [state.remote]))
        var remoteTip = snapshot[remoteRef]?.commit
        var remoteEntries = snapshot[remoteRef]?.entries ?? []
        let baseTip = snapshot[baseRef]?.commit
        let agreedTip = snapshot[agreedRef]?.commit
        let anchor = baseTip.map { agreedTip ?? snapshot[state.remote]?.commit ?? $0 }

        // Nothing moved on either side since the last round: done without reading a tree.
        var now = SyncState()
        now.base = baseTip ?? ""
        for domain in live.values { if let print = domain.print { now.prints[domain.name] = print } }
        now.remote = remoteTip ?? ""
        // Which domains travel: a new pattern can carry a domain only the repository has.
        now.rules = SyncState.print(Array(config.patterns.joined(separator: "\n").utf8), ignore)
        if state == now, live.values.allSatisfy({ $0.print != nil }) {
            report.idle = true
            return report
        }

        let stored = Tree(snapshot[baseRef]?.entries ?? [], git)
        var base = stored
        var pushed: String? = nil
        var identity: [String: String?]? = nil
        while report.attempts < maximumAttempts {
            report.attempts += 1
            // Checked again for each head a refused push fetched: one may be a rewrite.
            if !report.rewritten, try rewritten(anchor, remoteTip) {
                report.rewritten = true
                base = Tree([], git)
            }
            let remote = Tree(remoteEntries, git)
            var round = report
            let plan = try Plan(
                base: base, remote: remote, live: live, prepared: prepared, rules: rules, state: state, round: self)
            round.exported = plan.exported
            round.conflicts = plan.conflicts
            round.notes += plan.notes
            if plan.entries != remote.entries {
                let tree = try git.tree(plan.entries)
                let message = "settings sync from \(FileSystem.hostName()): " + plan.exported.joined(separator: ", ")
                if identity == nil { identity = try config.identity() }
                let commit = try git.commit(
                    tree, parents: remoteTip.map { [$0] } ?? [], message: message, identity: identity!)
                let push = try git.attempt(["push", "-q", "origin", "\(commit):refs/heads/\(config.branch)"])
                if !push.ok {
                    // Another machine pushed first, or the remote refused: which, a fetch tells.
                    let again = try git.attempt(fetch)
                    guard again.ok else { throw .unreachable(remote: config.shownRemote, reason: again.reason) }
                    let moved = try git.snapshot([remoteRef])[remoteRef]
                    guard moved?.commit != remoteTip else {
                        throw .pushFailed(remote: config.shownRemote, reason: push.reason)
                    }
                    (remoteTip, remoteEntries) = (moved?.commit, moved?.entries ?? [])
                    // Backoff with full jitter (a pause anywhere up to a doubling bound), so a
                    // fleet pushing at once spreads out instead of colliding again in step.
                    let pause = Double.random(in: 0.01...min(1.6, 0.05 * Double(1 << min(report.attempts, 5))))
                    if let cancel = git.cancel {
                        if cancel.wait(seconds: pause) { throw .cancelled }
                    } else {
                        FileSystem.sleep(seconds: pause)
                    }
                    continue
                }
                (remoteTip, pushed) = (commit, commit)
            }
            report = round
            // Pushed (or nothing to push): now each live domain, and the base with it.
            var agreed = base.entriesKeeping(plan.folded)
            for domain in plan.domains {
                let outcome = apply(domain, &report)
                agreed += outcome
            }
            var updates: [(ref: String, commit: String?)] = pushed.map { [(remoteRef, $0)] } ?? []
            agreed.sort(by: Tree.order)
            if remoteTip == nil, report.rewritten {
                // The branch is gone and nothing was pushed: nothing is agreed, and the next
                // round joins whatever the remote holds then, as a new machine does.
                now.base = ""
                updates += [(baseRef, nil), (agreedRef, nil)]
            } else if agreed != stored.entries || report.rewritten {
                // Most rounds agree to exactly what the remote now holds: that commit is the base.
                if agreed == plan.entries, let remoteTip {
                    now.base = remoteTip
                } else {
                    let tree = try git.tree(agreed)
                    if identity == nil { identity = try config.identity() }
                    now.base = try git.commit(
                        tree, parents: [], message: "settings sync base", identity: identity!)
                }
                updates.append((baseRef, now.base))
            }
            // The remote's commit the base now agrees with, whose descendants the next round
            // merges against the base (the base is not always on the remote's history).
            if let remoteTip, remoteTip != agreedTip { updates.append((agreedRef, remoteTip)) }
            try git.update(updates)
            now.remote = remoteTip ?? ""
            // What the merge read, which may be newer than what the idle check hashed.
            for (name, print) in plan.livePrints { now.prints[name] = print }
            // A domain this round wrote is looked at again next round: its print now
            // would be of a file another writer may have changed since.
            for name in report.imported { now.prints[name] = nil }
            for domain in live.values where domain.print == nil { now.prints[domain.name] = nil }
            for name in plan.unreadable { now.prints[name] = nil }
            if report.unsettled {
                // Something waits to be applied: the next round may not be taken for idle.
                do throws(Errno) { _ = try FileSystem.unlink(folder.state) } catch {
                    throw .store(.writeFailed(path: folder.state, error))
                }
            } else {
                try folder.write(now.bytes, to: folder.state)
            }
            return report
        }
        throw .remoteKeptMoving(remote: config.shownRemote, attempts: report.attempts)
    }

    /// Whether the remote's history was rewritten since this machine agreed with it: the
    /// remote's commit the base was agreed against (`anchor`) is not an ancestor of the
    /// remote's head, or the branch is gone. Then the base says nothing of what the remote
    /// removed, and the round merges as a machine joining does. A check that fails or runs
    /// out of time stops the round: taking it either way could delete what was never
    /// removed anywhere, or bring back what was.
    private func rewritten(_ anchor: String?, _ remoteTip: String?) throws(SyncError) -> Bool {
        guard let anchor else { return false }
        guard let remoteTip else { return true }
        guard anchor != remoteTip else { return false }
        let check = try git.attempt(["merge-base", "--is-ancestor", anchor, remoteTip])
        switch check.status {
        case 0: return false
        case 1: return true
        default: throw .historyUnknown(reason: check.reason)
        }
    }

    // MARK: The live side

    /// A carried live domain as the round read it.
    struct Live {
        let name: String
        /// Of its bytes and its local-key rules, the bytes read a piece at a time (an idle
        /// round holds no copy of a big domain); nil when it could not be read.
        let print: String?
        let local: LocalKeys
        let path: String

        /// Its file's bytes, read again (nil: no file).
        func read() throws(StoreError) -> [UInt8]? {
            do throws(FileError) { return try FileSystem.readFile(path)?.bytes } catch {
                throw StoreError(reading: path, error)
            }
        }

        /// Its values, read again, and the print of the bytes they were parsed from (what
        /// the round merged is what its state may say it saw); nil when there is no file.
        func values() throws(StoreError) -> Prepared? {
            try read().map(prepared)
        }

        /// `bytes` of its file as the merge takes them: parsed (or why not), and printed.
        func prepared(_ bytes: [UInt8]) -> Prepared {
            Prepared(
                values: Result { () throws(StoreError) in try PlistFiles.dictionary(from: bytes, name: path) },
                print: SyncState.print(bytes, local.text))
        }
    }

    /// A live domain as the merge takes it: its values (or why it has none), the print of
    /// the bytes they came from, and those bytes' blob when git stored them meanwhile.
    struct Prepared {
        let values: Result<PlistDictionary, StoreError>
        let print: String
        var blob: String? = nil
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
                var print = Print()
                let found: Bool
                do throws(FileError) { found = try FileSystem.forEachChunk(path) { print.add($0) } } catch {
                    throw StoreError(reading: path, error)
                }
                guard found else { continue }
                print.endPart()
                live[key] = Live(name: name, print: print.finish(local.text), local: local, path: path)
            } catch {
                report.notes.append("\(error.message): \(name) left out of this round")
                live[key] = Live(name: name, print: nil, local: local, path: path)
            }
        }
        return live
    }

    func localKeys(_ name: String, _ rules: SyncRules) -> LocalKeys {
        rules.localKeys(name, schema: schema(name), managed: store.adminLayers(of: .named(name)).managed)
    }

    /// The domain's schema; none when it has none or its file cannot be used (the
    /// commands that read it say why).
    private func schema(_ name: String) -> Schema? {
        try? SchemaFiles.load(for: name, configDirectory: store.directory, environment: store.environment).get()
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
        let schema = schema(domain.name)
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
                            // Looked at again each round until the schema or the value allows it.
                            report.unsettled = true
                            refusals.append(
                                "\(domain.name): kept \(CanonicalText.escapedLine(key)) as it is here; the repository's "
                                    + "\(CanonicalText.json(after)) is not allowed by its schema (\(problem.message))")
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
            report.unsettled = true
            return domain.previous
        }
        guard !refused.isEmpty, var agreed = domain.agreedValues else { return domain.agreed.map { [$0] } ?? [] }
        // The base keeps this machine's value of a refused key, so it is not sent back as
        // a change, and the repository's is looked at again next round.
        for (key, kept) in refused { agreed[key] = kept }
        do { return try Plan.entry(domain.name, agreed, git).map { [$0] } ?? [] } catch {
            report.unsettled = true
            return domain.previous
        }
    }
}
