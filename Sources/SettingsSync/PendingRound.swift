import PlistCodecs
import PlistModel
import SettingsStore

/// How a round that pushes (or applies) will end, written durably before its push: the
/// commit pushed, the remote's commit the round ends on, and per domain what applying
/// changes. A round stopped after the remote took its push (a kill, SIGTERM, a failing
/// `update-ref`, the network dropping) leaves it, and the next round finishes that round
/// from it: applies what was not applied and moves the base to what was pushed. Merged
/// again instead, from the old base, the round's own push would read as another
/// machine's change, and undo this machine's later edits.
///
/// A binary property list in the sync folder (`pending`, 0600, through the door), removed
/// once the base has moved.
struct PendingRound {
    /// The commit pushed; nil when the remote already held the merge.
    var pushed: String?
    /// The remote's commit the round ends on (what `Refs.agreed` becomes).
    var remote: String?
    /// `Refs.agreed` when the round began: moved since, the round was finished.
    var agreedBefore: String?
    /// The round merged as a join (see `SyncRound.rewritten`).
    var rewritten: Bool
    /// The tree pushed, in git's order.
    var planEntries: [TreeEntry]
    /// The base's entries agreed without applying anything: the domains the plan left,
    /// and those whose live file the merge does not change.
    var kept: [TreeEntry]
    /// The domains whose live file the merge changes.
    var domains: [Plan.Domain]

    init(
        pushed: String?, remote: String?, agreedBefore: String?, rewritten: Bool, plan: Plan, base: Tree
    ) {
        (self.pushed, self.remote, self.agreedBefore, self.rewritten) = (pushed, remote, agreedBefore, rewritten)
        planEntries = plan.entries
        kept = base.entriesKeeping(plan.folded)
        domains = []
        for domain in plan.domains {
            if domain.liveBefore == domain.liveAfter {
                if let agreed = domain.agreed { kept.append(agreed) }
            } else {
                domains.append(domain)
            }
        }
    }

    // MARK: The file

    var bytes: [UInt8] {
        func text(_ value: String?) -> PlistValue { .string(value ?? "") }
        func entry(_ entry: TreeEntry?) -> PlistValue {
            guard let entry else { return .array([]) }
            return .array([.string(entry.mode), .string(entry.type), .string(entry.id), .string(entry.name)])
        }
        var domains: [PlistValue] = []
        for domain in self.domains {
            var fields: PlistDictionary = [
                "name": .string(domain.name), "before": .dict(domain.liveBefore), "after": .dict(domain.liveAfter),
                "agreed": entry(domain.agreed), "previous": .array(domain.previous.map(entry)),
            ]
            if let values = domain.agreedValues { fields["agreedValues"] = .dict(values) }
            domains.append(.dict(fields))
        }
        let root: PlistDictionary = [
            "pushed": text(pushed), "remote": text(remote), "agreedBefore": text(agreedBefore),
            "rewritten": .bool(rewritten), "planEntries": .array(planEntries.map(entry)),
            "kept": .array(kept.map(entry)), "domains": .array(domains),
        ]
        return BinaryWriter.encode(.dict(root))
    }

    /// The record in `bytes`; nil when they are not one this version wrote.
    init?(_ bytes: [UInt8]) {
        guard case .dict(let root)? = try? PropertyList.read(bytes, as: .binary) else { return nil }
        func text(_ key: String, in dictionary: PlistDictionary = root) -> String? {
            guard case .string(let value)? = dictionary[key], !value.isEmpty else { return nil }
            return value
        }
        func entry(_ value: PlistValue?) -> TreeEntry?? {
            guard case .array(let fields)? = value else { return .none }
            if fields.isEmpty { return .some(nil) }
            guard fields.count == 4, case .string(let mode) = fields[0], case .string(let type) = fields[1],
                case .string(let id) = fields[2], case .string(let name) = fields[3]
            else { return .none }
            return TreeEntry(mode: mode, type: type, id: id, name: name)
        }
        func entries(_ value: PlistValue?) -> [TreeEntry]? {
            guard case .array(let items)? = value else { return nil }
            var list: [TreeEntry] = []
            for item in items {
                guard case .some(.some(let one)) = entry(item) else { return nil }
                list.append(one)
            }
            return list
        }
        guard case .bool(let rewritten)? = root["rewritten"], let planEntries = entries(root["planEntries"]),
            let kept = entries(root["kept"]), case .array(let items)? = root["domains"]
        else { return nil }
        var domains: [Plan.Domain] = []
        for item in items {
            guard case .dict(let fields) = item, let name = text("name", in: fields),
                case .dict(let before)? = fields["before"], case .dict(let after)? = fields["after"],
                case .some(let agreed) = entry(fields["agreed"]), let previous = entries(fields["previous"])
            else { return nil }
            var agreedValues: PlistDictionary? = nil
            if case .dict(let values)? = fields["agreedValues"] { agreedValues = values }
            domains.append(
                Plan.Domain(
                    name: name, liveBefore: before, liveAfter: after, agreed: agreed, agreedValues: agreedValues,
                    previous: previous))
        }
        (pushed, remote, agreedBefore) = (text("pushed"), text("remote"), text("agreedBefore"))
        (self.rewritten, self.planEntries, self.kept, self.domains) = (rewritten, planEntries, kept, domains)
    }

    /// What a stopped round left.
    enum Found {
        case none
        case record(PendingRound)
        /// A file there that is no record this version wrote (it is written whole, synced
        /// and renamed, so this takes a disk that lost it): what was pushed is unknown.
        case unreadable
    }

    /// The record a stopped round left, if any.
    static func read(_ folder: SyncFolder) throws(SyncError) -> Found {
        guard let bytes = try folder.contents(ofOwn: folder.pending) else { return .none }
        return PendingRound(bytes).map(Found.record) ?? .unreadable
    }

    /// Writes the record durably: it must be on the disk before the remote can take the push.
    func write(_ folder: SyncFolder) throws(SyncError) {
        try folder.write(bytes, to: folder.pending)
    }

    static func remove(_ folder: SyncFolder) {
        folder.own(folder.pending).remove()
    }
}
