import PlistCodecs
import PlistModel
import SettingsStore

/// A tree of the repository (the remote's, or the base), its entries sorted by domain.
struct Tree {
    /// As `git ls-tree` lists them (git's order).
    let entries: [TreeEntry]
    /// The entries that are domains (regular files named `DOMAIN.plist` with a name the
    /// store takes), by folded name (the store finds a domain in any case), each list in
    /// byte order of the names.
    private(set) var domains: [String: [TreeEntry]] = [:]
    /// Everything else (a link, a folder, `.gitattributes`, `..plist`): kept in the tree
    /// as it is, never read.
    private(set) var foreign: [TreeEntry] = []
    /// The domains (folded names) with an entry of another kind under their name (a link,
    /// a folder, a gitlink): it says nothing of the domain, which is taken as unchanged.
    private(set) var otherKinds: Set<String> = []
    /// One line per `.plist` entry that is not read, and why.
    private(set) var notes: [String] = []
    private let git: Git

    init(_ entries: [TreeEntry], _ git: Git) {
        self.entries = entries
        self.git = git
        for entry in entries {
            guard entry.name.hasSuffix(".plist"), entry.name.utf8.count > 6 else {
                foreign.append(entry)
                continue
            }
            let stem = String(entry.name.dropLast(6))
            guard SyncRound.isDomainName(stem) else {
                notes.append(
                    "\(CanonicalText.escapedLine(entry.name)) in the repository is not a domain's name: not imported")
                foreign.append(entry)
                continue
            }
            guard entry.isRegularFile else {
                notes.append(
                    "\(CanonicalText.escapedLine(entry.name)) in the repository is not a regular file (\(entry.mode)): "
                        + "not imported")
                foreign.append(entry)
                otherKinds.insert(DomainKey.folded(stem))
                continue
            }
            domains[DomainKey.folded(stem), default: []].append(entry)
        }
        for key in domains.keys { domains[key]!.sort { byteOrderPrecedes($0.name, $1.name) } }
    }

    /// Why a domain's file in a tree cannot be used: it does not parse, or it is too big.
    struct Unusable: Error {
        let message: String
    }

    /// git's order of tree entries: by name's bytes, a folder's as if it ended in `/`.
    static func order(_ a: TreeEntry, _ b: TreeEntry) -> Bool {
        let x = Array(a.name.utf8) + (a.type == "tree" ? [UInt8(ascii: "/")] : [])
        let y = Array(b.name.utf8) + (b.type == "tree" ? [UInt8(ascii: "/")] : [])
        return x.lexicographicallyPrecedes(y)
    }

    /// The entries of the domains not in `folded`, and everything foreign.
    func entriesKeeping(_ folded: Set<String>) -> [TreeEntry] {
        foreign + domains.filter { !folded.contains($0.key) }.flatMap(\.value)
    }

    /// The domain's values: its spellings' dictionaries together (the first spelling in
    /// byte order wins a key two of them have); nil when the tree has none.
    func values(_ entries: [TreeEntry], _ reader: BlobReader? = nil) throws(SyncError)
        -> Result<PlistDictionary?, Unusable>
    {
        guard !entries.isEmpty else { return .success(nil) }
        let blobs: [String: [UInt8]?]
        if let reader { blobs = try reader.blobs(entries) } else { blobs = try git.blobs(entries) }
        var parsed: [PlistDictionary] = []
        for entry in entries {
            guard case .some(.some(let bytes)) = blobs[entry.id] else {
                return .failure(
                    Unusable(
                        message: "\(CanonicalText.escapedLine(entry.name)) is larger than "
                            + "\(Git.objectLimit >> 20) MiB, the most a round reads"))
            }
            do throws(StoreError) {
                parsed.append(try PlistFiles.dictionary(from: bytes, name: entry.name))
            } catch {
                return .failure(Unusable(message: error.message))
            }
        }
        if parsed.count == 1 { return .success(parsed[0]) }
        var merged: [PlistDictionary.Entry] = []
        PlistDictionary.walk(parsed) { key, values in
            if let value = values.lazy.compactMap({ $0 }).first { merged.append(.init(key: key, value: value)) }
        }
        return .success(PlistDictionary(entries: merged))
    }
}

/// What a round does, computed before anything is written: the new tree to push, and
/// per domain what its live file becomes and what the base becomes once it does.
struct Plan {
    struct Domain {
        /// The name the store is given (the repository's spelling when it has one).
        let name: String
        /// The live domain's values that travel, as the round read them, and as the merge
        /// leaves them: the keys that differ are what applying changes.
        let liveBefore: PlistDictionary
        let liveAfter: PlistDictionary
        /// The base's entry once applied: what was pushed (nil: no file).
        var agreed: TreeEntry?
        /// Its values, when the merge built them (for a key the schema refuses).
        let agreedValues: PlistDictionary?
        /// The base's entries before: kept when applying fails.
        let previous: [TreeEntry]
    }

    private(set) var domains: [Domain] = []
    /// The new tree, in git's order.
    private(set) var entries: [TreeEntry] = []
    private(set) var exported: [String] = []
    private(set) var conflicts: [String] = []
    private(set) var notes: [String] = []
    /// The folded names of the domains the plan decides (the base's entries of the others stay).
    private(set) var folded: Set<String> = []
    /// Live domains whose file does not parse: no print of theirs is kept.
    private(set) var unreadable: Set<String> = []
    /// The local-key rules of each domain the plan merged, by exact name.
    private(set) var localRules: [String: LocalKeys] = [:]
    /// The print of each live file the merge parsed, by name.
    private(set) var livePrints: [String: String] = [:]

    init(
        base: Tree, remote: Tree, live: [String: SyncRound.Live], prepared: [String: SyncRound.Prepared],
        rules: SyncRules, state: SyncState, previousLocal: LocalRecord = LocalRecord(), desktopRead: Bool = true,
        round: SyncRound
    ) throws(SyncError) {
        let git = round.git
        notes = remote.notes
        var tree: [TreeEntry] = []
        var keys = Set(remote.domains.keys).union(live.keys)
        keys.formUnion(base.domains.keys)
        let order = keys.sorted(by: byteOrderPrecedes)
        // The blobs the merge may read, in its order, read a chunk at a time in one git
        // each: one git per domain was seconds a round at thousands of domains.
        var wanted: [TreeEntry] = []
        for key in order {
            let theirs = remote.domains[key] ?? [], previous = base.domains[key] ?? []
            let unchanged = Self.sameFile(theirs, previous)
            if unchanged, let mine = live[key], let print = mine.print,
                state.prints[DomainKey.exact(mine.name)] == print
            {
                continue
            }
            wanted += theirs
            if !unchanged { wanted += previous }
        }
        let blobs = BlobReader(wanted, git)
        // The blobs of merged values, stored after the loop in one git, not one each: a
        // first round exporting a folder of domains ran a git per domain.
        var unstored: [(bytes: [UInt8], tree: Int, domain: Int, theirs: [TreeEntry], exported: Int)] = []
        for key in order {
            let previous = base.domains[key] ?? []
            // An entry of another kind under the domain's name says nothing of it: the
            // repository's side is taken as unchanged since the base, never as removed.
            let theirs = remote.domains[key] ?? (remote.otherKinds.contains(key) ? previous : [])
            let mine = live[key]
            let name =
                theirs.first.map { String($0.name.dropLast(6)) } ?? mine?.name ?? String(previous[0].name.dropLast(6))
            // Not carried here, a live file that could not be read, or a desktop domain
            // whose schema is not installed here: the repository's entry and the base stay
            // as they are.
            guard rules.carries(mine?.name ?? name), mine == nil || mine?.print != nil,
                !SyncRound.isDesktopName(name) || (desktopRead && round.desktop?.keys(of: name) != nil)
            else {
                tree += theirs
                continue
            }
            let local: LocalKeys
            if let mine {
                local = mine.local
            } else {
                switch round.localKeys(name, rules) {
                case .success(let keys): local = keys
                case .failure(let problem):
                    notes.append("\(problem.message): \(name) left out of this round")
                    tree += theirs
                    continue
                }
            }
            let rejoined = local.rejoined(since: previousLocal.domains[DomainKey.exact(name)])
            let unchangedRemote = Self.sameFile(theirs, previous) && rejoined == nil
            if unchangedRemote, let print = mine?.print, state.prints[DomainKey.exact(mine!.name)] == print {
                // Neither side moved since the last round agreed.
                tree += theirs
                if remote.domains[key] == nil { exported.append(name) }
                folded.insert(key)
                localRules[DomainKey.exact(name)] = local
                domains.append(
                    Domain(
                        name: name, liveBefore: [:], liveAfter: [:], agreed: previous[0], agreedValues: nil,
                        previous: previous))
                continue
            }
            var mineValues: PlistDictionary? = nil
            var ready: SyncRound.Prepared? = nil
            do throws(StoreError) {
                if let mine {
                    if let early = prepared[DomainKey.exact(mine.name)] {
                        ready = early
                    } else {
                        ready = try mine.values()
                    }
                    if let ready {
                        switch ready.values {
                        case .success(let values): mineValues = values
                        case .failure(let error): throw error
                        }
                        livePrints[DomainKey.exact(mine.name)] = ready.print
                    }
                }
            } catch {
                notes.append("\(error.message): \(mine!.name) left out of this round")
                unreadable.insert(DomainKey.exact(mine!.name))
                tree += theirs
                continue
            }
            let ours = local.split(mineValues).shared.sorted
            var merged = ours
            var remoteLocal: PlistDictionary = [:]
            var remoteValues: PlistDictionary? = nil
            if !unchangedRemote || !local.isEmpty {
                let parsedTheirs: PlistDictionary?
                switch try remote.values(theirs, blobs) {
                case .success(let values): parsedTheirs = values
                case .failure(let error):
                    notes.append("\(error.message) (from the repository): \(name) is left as it is on both sides")
                    tree += theirs
                    continue
                }
                remoteValues = parsedTheirs
                let split = local.split(parsedTheirs)
                remoteLocal = split.local
                if !unchangedRemote {
                    // A base git cannot read stops the round (read as none, this machine's
                    // removals and edits would lose); one that does not parse is no base.
                    let baseValues: PlistDictionary?
                    switch try base.values(previous, blobs) {
                    case .success(let values): baseValues = values
                    case .failure(let error):
                        notes.append("\(error.message) (this machine's base): \(name) merged as a machine joining does")
                        baseValues = nil
                    }
                    var sharedBase = local.split(baseValues).shared
                    if let rejoined {
                        sharedBase = PlistDictionary(entries: sharedBase.sortedEntries.filter { !rejoined($0.key) })
                    }
                    let merge = ThreeWayMerge(base: sharedBase, ours: ours, theirs: split.shared, keepTheirs: true)
                    merged = merge.merged
                    for conflict in merge.conflicts {
                        conflicts.append(
                            "conflict at \(CanonicalText.escapedLine(conflict.path.pointer)) in \(name).plist:"
                                + " ours \(conflict.ours.map(CanonicalText.json) ?? "(removed)"),"
                                + " theirs \(conflict.theirs.map(CanonicalText.json) ?? "(removed)");"
                                + " kept theirs, already pushed")
                    }
                }
            }
            folded.insert(key)
            localRules[DomainKey.exact(name)] = local
            let pushed = merged.union(remoteLocal)
            if remoteValues == nil, unchangedRemote, theirs.count == 1, ready?.blob == nil, !pushed.isEmpty,
                case .success(let values) = try remote.values(theirs, blobs)
            {
                // A live file rewritten with what the repository holds (one this machine
                // just imported): the repository's blob, with no new one to store.
                remoteValues = values
            }
            let entry: TreeEntry?
            var bytes: [UInt8]? = nil
            if theirs.count == 1, let remoteValues, remoteValues.sorted == pushed, theirs[0].name == name + ".plist" {
                entry = theirs[0]
            } else if unchangedRemote, local.isEmpty, !pushed.isEmpty, let ready, let blob = ready.blob {
                // Nothing to merge: what is pushed is the live file, whose XML was just
                // parsed and stored as it is.
                entry = TreeEntry(mode: "100644", type: "blob", id: blob, name: name + ".plist")
            } else {
                // Its id is filled in once stored, below.
                bytes = Self.encoded(pushed)
                entry = bytes.map { _ in TreeEntry(mode: "100644", type: "blob", id: "", name: name + ".plist") }
            }
            if let bytes {
                unstored.append((bytes, tree.count, domains.count, theirs, exported.count))
                exported.append(name)
            } else if theirs != (entry.map { [$0] } ?? []) {
                exported.append(name)
            }
            if let entry { tree.append(entry) }
            domains.append(
                Domain(
                    name: name, liveBefore: ours, liveAfter: merged, agreed: entry, agreedValues: pushed,
                    previous: previous))
        }
        let ids = try git.store(all: unstored.map(\.bytes))
        var same: Set<Int> = []
        for (blob, id) in zip(unstored, ids) {
            let entry = TreeEntry(mode: "100644", type: "blob", id: id, name: tree[blob.tree].name)
            tree[blob.tree] = entry
            domains[blob.domain].agreed = entry
            if blob.theirs == [entry] { same.insert(blob.exported) }
        }
        if !same.isEmpty { exported = exported.indices.filter { !same.contains($0) }.map { exported[$0] } }
        // A foreign entry under a domain's name (a link committed as `D.plist`) gives way
        // to the domain's file.
        let names = Set(tree.map(\.name))
        entries = (remote.foreign.filter { !names.contains($0.name) } + tree).sorted(by: Tree.order)
    }

    /// Whether the repository's entries of a domain are the base's one file, as it was.
    private static func sameFile(_ theirs: [TreeEntry], _ previous: [TreeEntry]) -> Bool {
        theirs.count == 1 && previous.count == 1 && theirs[0] == previous[0]
    }

    /// The tree entry of a domain's values, stored as a blob: XML (binary when XML cannot
    /// hold them), keys in byte order (so equal values are one blob on every machine); nil
    /// for no values (no file).
    static func entry(_ name: String, _ values: PlistDictionary, _ git: Git) throws(SyncError) -> TreeEntry? {
        guard let bytes = encoded(values) else { return nil }
        return TreeEntry(mode: "100644", type: "blob", id: try git.store(bytes), name: name + ".plist")
    }

    /// The bytes `entry` stores for `values`; nil for none.
    static func encoded(_ values: PlistDictionary) -> [UInt8]? {
        guard !values.isEmpty else { return nil }
        let root = PlistValue.dict(values.sorted)
        // What XML cannot hold (a control character, a fraction of a second) travels in
        // the binary form, which every reader takes: never lost, never blocking the rest.
        let xml =
            PropertyList.unstorable(key: "", value: root, format: .xml) == nil && !PropertyList.hasFractionalDate(root)
        return xml ? XMLWriter.encode(root) : BinaryWriter.encode(root)
    }
}

extension PlistDictionary {
    /// The dictionary with its entries in byte order, one per key.
    var sorted: PlistDictionary { PlistDictionary(entries: sortedEntries) }

    /// The keys of both (none is in both: one holds the keys that travel, the other those
    /// that stay), in byte order.
    func union(_ other: PlistDictionary) -> PlistDictionary {
        if other.isEmpty { return sorted }
        var entries: [Entry] = []
        PlistDictionary.walk([self, other]) { key, values in
            if let value = values[0] ?? values[1] { entries.append(.init(key: key, value: value)) }
        }
        return PlistDictionary(entries: entries)
    }
}

/// Reads the blobs a plan will ask for, in the order it asks, a chunk at a time in one
/// `cat-file` each: few gits for thousands of domains, and no more of big ones held at
/// once than a chunk. One asked for out of order is read on its own.
final class BlobReader {
    private let wanted: [TreeEntry]
    private var place: [String: Int] = [:]
    private var loaded: [String: [UInt8]?] = [:]
    private let git: Git
    private static let chunk = 64

    init(_ wanted: [TreeEntry], _ git: Git) {
        (self.wanted, self.git) = (wanted, git)
        for (i, entry) in wanted.enumerated() where place[entry.id] == nil { place[entry.id] = i }
    }

    func blobs(_ entries: [TreeEntry]) throws(SyncError) -> [String: [UInt8]?] {
        let missing = entries.filter { loaded[$0.id] == nil }
        if let first = missing.first {
            guard let at = place[first.id] else { return try git.blobs(entries) }
            var chunk = Array(wanted[at..<min(at + Self.chunk, wanted.count)])
            let ids = Set(chunk.map(\.id))
            chunk += missing.filter { !ids.contains($0.id) }
            loaded = try git.blobs(chunk)
        }
        var found: [String: [UInt8]?] = [:]
        for entry in entries { found[entry.id] = loaded[entry.id] ?? nil }
        return found
    }
}
