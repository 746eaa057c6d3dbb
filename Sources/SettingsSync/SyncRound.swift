import PlistCodecs
import PlistModel
import SettingsStore

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
    /// The folders a schema is looked for in, each checked once a round: a link to
    /// nothing there fails every domain's rules closed.
    let schemaFolders: [(path: String, problem: Errno?)]
    /// Pushes tried before the round gives up to the next one.
    package var maximumAttempts = 40
    /// The desktop's settings, for the `gsettings:` domains a pattern carries (none: they
    /// stay in the repository untouched).
    package var desktop: (any SyncDesktop)? = nil

    package init(store: DomainStore, environment: Environment, cancel: CancelSignal? = nil) throws(SyncError) {
        var store = store
        // A value another machine's domain holds is stored here exactly: text XML cannot
        // hold makes the domain binary, as on the machine it came from.
        store.binaryForAnyText = true
        // The round lists the config folder once (`readLive`); a domain it imports is
        // looked for in that listing, not by listing the folder again for each.
        store.folderNames = FolderNames()
        self.store = store
        schemaFolders = SchemaFiles.folders(configDirectory: store.directory, environment: store.environment).map {
            ($0, FileSystem.unusableFolder($0))
        }
        folder = SyncFolder(environment: environment)
        git = try Git(directory: folder.repository, environment: environment, cancel: cancel)
    }

    /// Runs the round, holding the repository's lock (two rounds at once take turns), and
    /// records how it ended (`sync status`) and the values that lost a conflict (`sync log`).
    package func run() throws(SyncError) -> SyncReport {
        guard folder.isSetUp else { throw .notSyncing }
        let report: SyncReport
        try folder.checkUsable()
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
        try SyncSetup.holdingLock(git, timeout: store.lockTimeout) { () throws(SyncError) in try locked() }
    }

    /// The round, under the repository's lock, in named steps (as git's `builtin/pull.c`
    /// is): finish a round that was stopped after its push; read the live side, fetch, see
    /// where both sides stand; then plan the merge, record how the round will end, push
    /// it, apply it here and move the base, planning again on the remote's new head when
    /// another machine pushed first. Each step says why it comes where it does.
    /// (`finishing`: a stopped round's record is looked for; not again once one was finished.)
    private func locked(finishing: Bool = true) throws(SyncError) -> SyncReport {
        SyncSetup.clearStaleLocks(git.directory)
        var config = try SyncSetup.Config(git, folder)
        // A rule file that cannot be read stops the round: without it, a key meant to stay
        // here would travel.
        let ignoreFile = SyncRules.ignoreFile(configDirectory: store.directory)
        if let error = FileSystem.unusableEntry(ignoreFile) {
            throw .store(.unreadable(path: ignoreFile, error))
        }
        let ignore = try SyncFolder.contents(ignoreFile) ?? []
        let rules = SyncRules(patterns: config.patterns, ignore: ignore)
        var refs = Refs(branch: config.branch)
        var report = SyncReport()
        let found = finishing ? try PendingRound.read(folder) : .none
        // The sync's own files are checked before anything is pushed or applied: one
        // planted (a link, a FIFO) would stop the round only after, its losers unlogged.
        try folder.checkOwnFiles()

        let live = try readLive(rules, &report)
        let state = try folder.readState()
        let prepared = try fetch(live, changedSince: state, config)
        var start = try startingPoint(refs, state)
        if start.remote.commit == nil, let branch = try branchToFollow(config) {
            report.notes.append(
                "\(config.shownRemote) has no branch \(CanonicalText.escapedLine(config.branch)) any more; "
                    + "following the remote's HEAD, \(CanonicalText.escapedLine(branch))")
            config = try config.following(branch, folder)
            refs = Refs(branch: branch)
            start = try startingPoint(refs, state)
        }
        if case .record(let pending) = found {
            var committer = Committer(git: git, config: config)
            if try finishStopped(pending, start, refs, &report, &committer) {
                // The live files and the base changed: the round starts again from them.
                var next = try locked(finishing: false)
                next.imported = report.imported + next.imported.filter { !report.imported.contains($0) }
                next.notes = report.notes + next.notes
                next.unsettled = next.unsettled || report.unsettled
                return next
            }
        }
        var now = stateAtStart(start, live, config, ignore, state)
        if state == now, live.values.allSatisfy({ $0.print != nil }) {
            report.idle = true
            return report
        }

        let previousLocal = LocalRecord(try folder.contents(ofOwn: folder.localRules) ?? [])
        var remote = start.remote
        var base = Tree(start.baseEntries, git)
        var joining = false
        if case .unreadable = found {
            // What the stopped round pushed is unknown: the base cannot say what either side
            // changed since, so the round merges as a machine joining does (nothing taken
            // for removed), as for a rewritten history.
            report.notes.append("the record of a stopped round cannot be read: merged as a machine joining does")
            joining = true
            base = Tree([], git)
        }
        var committer = Committer(git: git, config: config)
        while report.attempts < maximumAttempts {
            report.attempts += 1
            // Checked again for each head a refused push fetched: one may be a rewrite.
            if !report.rewritten, !joining, try rewritten(start.anchor, remote.commit) {
                report.rewritten = true
                base = Tree([], git)
            }
            let plan = try Plan(
                base: base, remote: Tree(remote.entries, git), live: live, prepared: prepared, rules: rules,
                state: state, previousLocal: previousLocal, desktopRead: !report.desktopUnread, round: self)
            var record = PendingRound(
                pushed: nil, remote: remote.commit, agreedBefore: start.agreed, rewritten: report.rewritten || joining,
                plan: plan,
                base: base)
            switch try push(plan, onto: remote, refs, config, &committer, &record) {
            case .refused(let moved):
                remote = moved
                try backOff(after: report.attempts)
                continue
            case .pushed(let commit): remote.commit = commit
            case .unchanged: break
            }
            // What was pushed is what the round reports; a refused attempt's plan is gone.
            report.exported = plan.exported
            report.conflicts = plan.conflicts
            report.notes += plan.notes
            now.base = try finish(record, start, refs, &report, &committer, tracking: true)
            // The rules the base now agrees under, for the next round to see one deleted.
            var local = previousLocal
            for (name, keys) in plan.localRules { local.domains[name] = keys.isEmpty ? nil : keys }
            if local != previousLocal { try folder.write(local.bytes, to: folder.localRules) }
            now.remote = remote.commit ?? ""
            try save(now, plan, live, report)
            return report
        }
        throw .remoteKeptMoving(remote: config.shownRemote, attempts: report.attempts)
    }

    // MARK: The steps of a round

    /// The refs a round reads and moves.
    struct Refs {
        /// The remote's branch as last fetched.
        let remote: String
        /// What this machine last agreed with the repository: the remote's commit, or one
        /// of this machine's own when it agreed with less than the remote's tree (a domain
        /// it does not carry, one it could not apply).
        let base = "refs/settings/base"
        /// The remote's commit the base was agreed against, which the remote's history
        /// must still hold for the base to say what the remote removed since.
        let agreed = "refs/settings/agreed"

        init(branch: String) { remote = "refs/remotes/origin/\(branch)" }
    }

    /// The remote's branch as fetched: its commit (nil: there is no branch) and the
    /// entries of its tree.
    struct Head {
        var commit: String?
        var entries: [TreeEntry]
    }

    /// Where both sides stood when the round began.
    struct Start {
        let remote: Head
        /// The base's commit (nil: none, as for a machine joining) and its tree's entries.
        let baseCommit: String?
        let baseEntries: [TreeEntry]
        /// The commit `Refs.agreed` names.
        let agreed: String?
        /// The remote's commit the base was agreed against (see `rewritten`); nil with no base.
        let anchor: String?
    }

    /// How a push ended.
    enum PushOutcome {
        /// The remote already holds the merge: nothing to push.
        case unchanged
        /// The remote's branch is now this commit.
        case pushed(String)
        /// Another machine pushed first: the remote's head, fetched again.
        case refused(Head)
    }

    /// Makes the round's commits, with the user's git identity looked up once, for the first.
    struct Committer {
        let git: Git
        let config: SyncSetup.Config
        private var identity: [String: String?]? = nil

        init(git: Git, config: SyncSetup.Config) { (self.git, self.config) = (git, config) }

        /// A commit of a tree of `entries` on `parents`; its id.
        mutating func commit(_ entries: [TreeEntry], parents: [String], message: String) throws(SyncError) -> String {
            let tree = try git.tree(entries)
            if identity == nil { identity = try config.identity() }
            return try git.commit(tree, parents: parents, message: message, identity: identity!)
        }
    }

    /// No FETCH_HEAD: it would keep the remote's URL, a token in its query included.
    private static let fetchArguments = ["fetch", "-q", "--no-tags", "--prune", "--no-write-fetch-head", "origin"]

    /// Fetches the remote. A domain whose file changed since the last round is merged
    /// whatever the remote did, so its bytes are read now and parsed here while git, on
    /// other threads, fetches and stores them as a blob (what is pushed when the remote
    /// did not move): the round's two slowest waits overlap. The domains parsed, by name.
    private func fetch(_ live: [String: Live], changedSince state: SyncState, _ config: SyncSetup.Config)
        throws(SyncError) -> [String: Prepared]
    {
        let changed = live.values.filter { $0.print != nil && state.prints[DomainKey.exact($0.name)] != $0.print }
        var prepared: [String: Prepared] = [:]
        let fetched: Git.Outcome
        if changed.isEmpty {
            fetched = try git.attempt(Self.fetchArguments)
        } else {
            let git = self.git
            let fetching = Background { Result { () throws(SyncError) in try git.attempt(Self.fetchArguments) } }
            let reads = changed.map { domain in (domain, Result { () throws(StoreError) in try domain.read() }) }
            let storing = Background { () -> [String: String] in
                // Worth a git for the few files a person changed, not for the thousands a
                // round just imported (their blobs are the repository's).
                guard reads.count <= 8 else { return [:] }
                var names: [String] = [], files: [[UInt8]] = []
                for (domain, read) in reads {
                    guard case .success(let bytes?) = read, PropertyList.sniff(bytes) == .xml else { continue }
                    names.append(DomainKey.exact(domain.name))
                    files.append(bytes)
                }
                guard let ids = try? git.store(all: files) else { return [:] }
                return Dictionary(zip(names, ids)) { first, _ in first }
            }
            for (domain, read) in reads {
                switch read {
                case .success(let bytes?): prepared[DomainKey.exact(domain.name)] = domain.prepared(bytes)
                case .success(nil): continue
                case .failure(let error):
                    prepared[DomainKey.exact(domain.name)] = Prepared(values: .failure(error), print: "")
                }
            }
            for (name, blob) in storing.join() { prepared[name]?.blob = blob }
            fetched = try fetching.join().get()
        }
        guard fetched.ok else { throw .unreachable(remote: config.shownRemote, reason: fetched.reason) }
        return prepared
    }

    /// Reads where both sides stand, in one `git cat-file --batch`: the remote's branch,
    /// the base, and the commit it was agreed against. A base made before `Refs.agreed`
    /// was kept is anchored at the state file's remote commit, the one the round that
    /// made it ended on (else at the base itself).
    private func startingPoint(_ refs: Refs, _ state: SyncState) throws(SyncError) -> Start {
        let snapshot = try git.snapshot(
            [refs.remote, refs.base, refs.agreed], hints: state.remote.isEmpty ? [] : [state.remote])
        let base = snapshot[refs.base], agreed = snapshot[refs.agreed]?.commit
        return Start(
            remote: Head(commit: snapshot[refs.remote]?.commit, entries: snapshot[refs.remote]?.entries ?? []),
            baseCommit: base?.commit, baseEntries: base?.entries ?? [], agreed: agreed,
            anchor: base.map { agreed ?? snapshot[state.remote]?.commit ?? $0.commit })
    }

    /// The branch to follow when the remote has none of this machine's (renamed, as hosting
    /// services offer, or deleted, or the remote re-created): the one the remote's HEAD
    /// names when it exists there, or when the remote has no branch at all (a new remote,
    /// which this round seeds); nil to go on with this one (the HEAD names it: the branch
    /// is to be made). Any other answer stops the round: seeding a branch beside the
    /// fleet's would split it, and reading "no branch" as empty would remove everything.
    private func branchToFollow(_ config: SyncSetup.Config) throws(SyncError) -> String? {
        let asked = try git.attempt(["ls-remote", "--symref", "origin", "HEAD"])
        guard asked.ok else { throw .unreachable(remote: config.shownRemote, reason: asked.reason) }
        let head = SyncSetup.symbolicHead(asked.output)
        if head == config.branch { return nil }
        let branches = try git.text(["for-each-ref", "--format=%(refname)", "refs/remotes/origin/"])
            .split(separator: "\n").map { String($0.dropFirst("refs/remotes/origin/".count)) }
        if let head, branches.contains(head) { return head }
        if branches.filter({ $0 != "HEAD" }).isEmpty { return head }
        throw .branchGone(branch: config.branch, remote: config.shownRemote, head: head)
    }

    /// A stamp of the domain's schema file (one `stat`): it changes when the file does.
    private func schemaStamp(_ name: String) -> String {
        guard
            let path = SchemaFiles.path(for: name, configDirectory: store.directory, environment: store.environment),
            let stamp = DomainStore.stamp(at: path)
        else { return "none" }
        return stamp.text
    }

    /// What the state file would say of a round that changes nothing: the commits it
    /// started from, the prints of the live files it hashed, and of which domains travel
    /// (a new pattern can carry a domain only the repository has). The same as the last
    /// round's, nothing moved on either side, and the round is done without reading a tree.
    private func stateAtStart(
        _ start: Start, _ live: [String: Live], _ config: SyncSetup.Config, _ ignore: [UInt8], _ state: SyncState
    ) -> SyncState {
        var now = SyncState()
        now.base = start.baseCommit ?? ""
        for domain in live.values { if let print = domain.print { now.prints[DomainKey.exact(domain.name)] = print } }
        now.remote = start.remote.commit ?? ""
        now.rules = SyncState.print(Array(config.patterns.joined(separator: "\n").utf8), ignore)
        for name in state.refused.keys { now.refused[name] = schemaStamp(name) }
        return now
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

    /// Pushes the merge on the remote's head, before anything here changes: other
    /// machines merge against what is pushed, and a push refused because another machine
    /// pushed first leaves nothing here to undo. How the round will end is on the disk
    /// first (`PendingRound`), so a round stopped once the remote has the push is finished
    /// by the next. A fetch tells a refusal (the head moved: plan again on it) from a push
    /// that landed though git said it failed (the network dropped after the remote took
    /// it: the head is the push, or holds it) and from any other failure (the round stops).
    private func push(
        _ plan: Plan, onto remote: Head, _ refs: Refs, _ config: SyncSetup.Config, _ committer: inout Committer,
        _ record: inout PendingRound
    ) throws(SyncError) -> PushOutcome {
        guard plan.entries != remote.entries else {
            if !record.domains.isEmpty { try record.write(folder) }
            return .unchanged
        }
        let message = "settings sync from \(FileSystem.hostName()): " + plan.exported.joined(separator: ", ")
        let commit = try committer.commit(plan.entries, parents: remote.commit.map { [$0] } ?? [], message: message)
        (record.pushed, record.remote) = (commit, commit)
        try record.write(folder)
        let push = try git.attempt(["push", "-q", "origin", "\(commit):refs/heads/\(config.branch)"])
        if push.ok { return .pushed(commit) }
        let again = try git.attempt(Self.fetchArguments)
        guard again.ok else { throw .unreachable(remote: config.shownRemote, reason: again.reason) }
        let moved = try git.snapshot([refs.remote])[refs.remote]
        if let tip = moved?.commit, try landed(commit, in: tip) { return .pushed(commit) }
        guard moved?.commit != remote.commit else { throw .pushFailed(remote: config.shownRemote, reason: push.reason) }
        return .refused(Head(commit: moved?.commit, entries: moved?.entries ?? []))
    }

    /// Whether the remote's head `tip` is `commit` or holds it.
    private func landed(_ commit: String, in tip: String) throws(SyncError) -> Bool {
        if tip == commit { return true }
        let check = try git.attempt(["merge-base", "--is-ancestor", commit, tip])
        switch check.status {
        case 0: return true
        case 1: return false
        default: throw .historyUnknown(reason: check.reason)
        }
    }

    /// Finishes a round from its record: applies each domain's merge to its live file
    /// (a key written since the round read the file keeps the new value), then moves the
    /// base, and removes the record. At the start of a round, for a record a stopped round
    /// left, only when the remote took its push (a push that never landed changed nothing
    /// here) and the base has not moved since; true when it finished one. `tracking`: the
    /// remote-tracking ref moves to what was pushed (the round pushed just now).
    @discardableResult
    private func finish(
        _ record: PendingRound, _ start: Start, _ refs: Refs, _ report: inout SyncReport,
        _ committer: inout Committer, tracking: Bool
    ) throws(SyncError) -> String {
        var agreed = record.kept
        let imported = report.imported.count
        for domain in record.domains { agreed += apply(domain, &report) }
        let base: String
        do {
            base = try moveBase(
                to: agreed.sorted(by: Tree.order), planEntries: record.planEntries, remote: record.remote,
                pushed: tracking ? record.pushed : nil, start, refs, rewritten: record.rewritten, &committer)
        } catch {
            // Settings here changed: "the live settings are unchanged" would be untrue.
            guard report.imported.count > imported else { throw error }
            if case .cancelled = error { throw error }
            throw .unfinished(reason: error.reason)
        }
        PendingRound.remove(folder)
        return base
    }

    /// A stopped round's record, at the start of the next: finished when the remote took
    /// its push and the base has not moved since; else dropped (nothing here changed).
    private func finishStopped(
        _ record: PendingRound, _ start: Start, _ refs: Refs, _ report: inout SyncReport,
        _ committer: inout Committer
    ) throws(SyncError) -> Bool {
        let landed: Bool
        if start.agreed != record.agreedBefore {
            landed = false  // its base moved: it finished
        } else if let pushed = record.pushed {
            landed = try start.remote.commit.map { tip throws(SyncError) in try self.landed(pushed, in: tip) } ?? false
        } else {
            landed = true
        }
        guard landed else {
            PendingRound.remove(folder)
            return false
        }
        report.notes.append("finished the round that was stopped after it pushed")
        try finish(record, start, refs, &report, &committer, tracking: false)
        return true
    }

    /// Waits before planning again on the head a refused push fetched: backoff with full
    /// jitter (a pause anywhere up to a doubling bound), so a fleet pushing at once spreads
    /// out instead of colliding again in step. A cancel ends the wait and the round.
    private func backOff(after attempts: Int) throws(SyncError) {
        let pause = Double.random(in: 0.01...min(1.6, 0.05 * Double(1 << min(attempts, 5))))
        if let cancel = git.cancel {
            if cancel.wait(seconds: pause) { throw .cancelled }
        } else {
            FileSystem.sleep(seconds: pause)
        }
    }

    /// Moves the base to what this machine now agrees with, with the remote-tracking ref
    /// (to what was pushed) and the anchor, in one `update-ref` transaction, so a round
    /// stopped here leaves them as they were or all moved: the remote's commit when that
    /// is all of it, as in most rounds, else a commit of this machine's own of the entries
    /// agreed. The base's commit ("": none).
    private func moveBase(
        to agreed: [TreeEntry], planEntries: [TreeEntry], remote: String?, pushed: String?, _ start: Start,
        _ refs: Refs, rewritten: Bool, _ committer: inout Committer
    ) throws(SyncError) -> String {
        var updates: [(ref: String, commit: String?)] = pushed.map { [(refs.remote, $0)] } ?? []
        var base = start.baseCommit ?? ""
        if remote == nil, rewritten {
            // The branch is gone and nothing was pushed: nothing is agreed, and the next
            // round joins whatever the remote holds then, as a new machine does.
            base = ""
            updates += [(refs.base, nil), (refs.agreed, nil)]
        } else if agreed != start.baseEntries || rewritten {
            if agreed == planEntries, let remote {
                base = remote
            } else {
                base = try committer.commit(agreed, parents: [], message: "settings sync base")
            }
            updates.append((refs.base, base))
        }
        // The remote's commit the base now agrees with, whose descendants the next round
        // merges against the base.
        if let remote, remote != start.agreed { updates.append((refs.agreed, remote)) }
        try git.update(updates)
        return base
    }

    /// Writes the state file, the next round's way to tell it is idle: the commits this
    /// round ended on, the prints of what it merged. A domain it wrote or could not read
    /// has no print, so the next round looks at it again; while something waits to be
    /// applied there is no state at all, so the next round cannot be taken for idle.
    private func save(_ state: SyncState, _ plan: Plan, _ live: [String: Live], _ report: SyncReport)
        throws(SyncError)
    {
        var state = state
        // What the merge read, which may be newer than what the idle check hashed.
        for (name, print) in plan.livePrints { state.prints[name] = print }
        // A domain this round wrote is looked at again next round: its print now
        // would be of a file another writer may have changed since.
        for name in report.imported { state.prints[DomainKey.exact(name)] = nil }
        for domain in live.values where domain.print == nil { state.prints[DomainKey.exact(domain.name)] = nil }
        for name in plan.unreadable { state.prints[name] = nil }
        state.refused = [:]
        for name in report.refused { state.refused[name] = schemaStamp(name) }
        if report.unsettled {
            do throws(Errno) { _ = try FileSystem.unlink(folder.state) } catch {
                throw .store(.writeFailed(path: folder.state, error))
            }
        } else {
            try folder.write(state.bytes, to: folder.state)
        }
    }
}

extension SyncSetup.Config {
    /// This configuration, following `branch` from now on.
    func following(_ branch: String, _ folder: SyncFolder) throws(SyncError) -> SyncSetup.Config {
        try Self.save(branch: branch, patterns: patterns, folder)
        return try SyncSetup.Config(git, folder)
    }
}
