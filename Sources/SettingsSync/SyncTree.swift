import PlistCodecs
import PlistModel
import SettingsStore

/// One entry of a tree in the repository, as git's tree object holds it: the name is
/// bytes up to a NUL, never quoted, so no name git would quote is lost or changed.
struct TreeEntry: Equatable {
    let mode: String
    let type: String
    let id: String
    let name: String

    /// A regular file (never a link, a submodule or a folder): only these are domains.
    var isRegularFile: Bool { type == "blob" && (mode == "100644" || mode == "100755") }
}

/// The repository's objects, read and written as data through git's plumbing: what a
/// tree holds is never opened as a path, so a link, a `.gitattributes` or a name of the
/// remote's cannot make a round read or write anything outside its folder.
extension Git {
    /// What a round starts from, in one `git cat-file --batch`: the commits the refs name
    /// and the top-level entries of each one's tree. A ref that does not exist is left out;
    /// one that exists but whose commit or tree git cannot read throws: a branch read as
    /// "no commit" would be a side of the merge with every domain removed. `hints` (a
    /// commit id the state file names) may be missing.
    func snapshot(_ refs: [String], hints: [String] = []) throws(SyncError) -> [String: Snapshot] {
        let all = refs + hints
        let names = all.flatMap { [$0, $0 + "^{tree}"] }
        let objects = try batch(names)
        var found: [String: Snapshot] = [:]
        var unresolved: [String] = []
        for (i, ref) in all.enumerated() {
            guard let commit = objects[2 * i] else {
                if i < refs.count { unresolved.append(ref) }
                continue
            }
            guard case .bytes(let commitID, let commitBytes) = commit else {
                throw .objectTooBig(id: commit.id, what: ref, limit: Self.objectLimit)
            }
            guard let tree = objects[2 * i + 1] else {
                throw .objectMissing(id: Self.treeID(ofCommit: commitBytes) ?? commitID, what: "the tree of \(ref)")
            }
            guard case .bytes(_, let treeBytes) = tree else {
                throw .objectTooBig(id: tree.id, what: "the tree of \(ref)", limit: Self.objectLimit)
            }
            found[ref] = Snapshot(
                commit: commitID, entries: Self.entries(treeBytes, idLength: commitID.utf8.count / 2))
        }
        // cat-file says "missing" alike for a ref that is not there and for one whose commit
        // is lost; for-each-ref, which reads no object, tells them apart.
        if !unresolved.isEmpty {
            let listed = try text(["for-each-ref", "--format=%(objectname) %(refname)"] + unresolved)
            for line in listed.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
                if fields.count == 2, unresolved.contains(fields[1]) {
                    throw .objectMissing(id: fields[0], what: fields[1])
                }
            }
        }
        return found
    }

    /// A commit as a round reads it: its id and its tree's top-level entries.
    struct Snapshot {
        let commit: String
        let entries: [TreeEntry]
    }

    /// The id on a commit's `tree` line.
    private static func treeID(ofCommit bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("tree ".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return nil
        }
        return String(decoding: bytes[5..<end], as: UTF8.self)
    }

    /// The most of one object a round reads from the repository (64 MiB): a domain's file
    /// is kilobytes to a few megabytes, and one of gigabytes (cheap to push: zeros
    /// compress) would cost a round its memory. A bigger one is named and not read.
    static let objectLimit = 64 << 20

    /// One object `cat-file --batch` gave: its bytes, or only its size when over the limit.
    enum Object {
        case bytes(id: String, [UInt8])
        case tooBig(id: String, size: Int)

        var id: String {
            switch self {
            case .bytes(let id, _), .tooBig(let id, _): id
            }
        }
    }

    /// The objects `names` name (ids, or refs with `^{tree}`), in order; nil for a missing
    /// one. The answer is read as git streams it, an object at a time: what is kept is the
    /// objects' bytes, never the whole answer at once. At an object over the limit git is
    /// stopped (its gigabytes never cross the pipe) and asked again for the rest.
    private func batch(_ names: [String]) throws(SyncError) -> [Object?] {
        var objects: [Object?] = []
        var rest = names[...]
        while !rest.isEmpty {
            var reader = BatchReader(limit: Self.objectLimit)
            let outcome = try attempt(["cat-file", "--batch"], input: Array(rest.map { $0 + "\n" }.joined().utf8)) {
                reader.add($0)
            }
            objects += reader.objects
            if reader.declined {
                rest = rest.dropFirst(reader.objects.count)
                continue
            }
            guard outcome.ok else { throw .git(command: "cat-file", reason: outcome.reason) }
            // An answer cut short (git killed mid-way) is no answer: never "missing".
            guard reader.objects.count == rest.count, reader.isBetweenObjects else {
                throw .git(
                    command: "cat-file",
                    reason: "its answer ended after \(objects.count) of \(names.count) objects")
            }
            break
        }
        return objects
    }

    /// `cat-file --batch`'s answer, parsed as it arrives: "ID TYPE SIZE", the bytes and a
    /// newline per object, or "NAME missing".
    private struct BatchReader {
        let limit: Int
        private(set) var objects: [Object?] = []
        private var header: [UInt8] = []
        private var body: [UInt8] = []
        private var id = ""
        /// Bytes of the current object still to come (its newline included); -1 between objects.
        private var remaining = -1

        init(limit: Int) { self.limit = limit }

        var isBetweenObjects: Bool { remaining < 0 && header.isEmpty }

        /// It met an object over the limit, and wants no more of this answer.
        private(set) var declined = false

        /// Takes the next piece of the answer; false once it wants no more.
        mutating func add(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var at = 0
            while at < bytes.count, !declined {
                if remaining < 0 {
                    guard let newline = bytes[at...].firstIndex(of: UInt8(ascii: "\n")) else {
                        header += bytes[at...]
                        return true
                    }
                    header += bytes[at..<newline]
                    at = newline + 1
                    start()
                    continue
                }
                let take = min(remaining, bytes.count - at)
                body += bytes[at..<(at + take)]
                remaining -= take
                at += take
                if remaining == 0 { end() }
            }
            return !declined
        }

        private mutating func start() {
            let fields = header.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            header = []
            guard fields.count == 3, let size = Int(fields[2]), size >= 0 else {
                objects.append(nil)
                return
            }
            id = fields[0]
            guard size <= limit else {
                // Its bytes are never read: git is stopped here.
                objects.append(.tooBig(id: id, size: size))
                declined = true
                return
            }
            body = []
            body.reserveCapacity(size + 1)
            remaining = size + 1
        }

        private mutating func end() {
            body.removeLast()  // the newline after the bytes
            objects.append(.bytes(id: id, body))
            body = []
            remaining = -1
        }
    }

    /// A tree object's entries: "MODE NAME\0" and the id's bytes, each.
    private static func entries(_ bytes: [UInt8], idLength: Int) -> [TreeEntry] {
        var entries: [TreeEntry] = []
        var at = 0
        let hex = Array("0123456789abcdef".utf8)
        while at < bytes.count {
            guard let space = bytes[at...].firstIndex(of: UInt8(ascii: " ")),
                let nul = bytes[space...].firstIndex(of: 0), nul + 1 + idLength <= bytes.count
            else { break }
            let mode = String(decoding: bytes[at..<space], as: UTF8.self)
            var id: [UInt8] = []
            for byte in bytes[(nul + 1)..<(nul + 1 + idLength)] { id += [hex[Int(byte >> 4)], hex[Int(byte & 0xf)]] }
            let type = mode == "40000" ? "tree" : mode == "160000" ? "commit" : "blob"
            entries.append(
                TreeEntry(
                    mode: mode == "40000" ? "040000" : mode, type: type, id: String(decoding: id, as: UTF8.self),
                    name: String(decoding: bytes[(space + 1)..<nul], as: UTF8.self)))
            at = nul + 1 + idLength
        }
        return entries
    }

    /// The blobs of `entries`, by id, in one `git cat-file --batch`: each one's bytes, or
    /// nil when it is over `objectLimit` (the caller names it and leaves its domain). One
    /// git cannot read throws: a domain read as "no file" would be a side of the merge
    /// with it removed.
    func blobs(_ entries: [TreeEntry]) throws(SyncError) -> [String: [UInt8]?] {
        guard !entries.isEmpty else { return [:] }
        var blobs: [String: [UInt8]?] = [:]
        for (entry, object) in zip(entries, try batch(entries.map(\.id))) {
            switch object {
            case nil: throw .objectMissing(id: entry.id, what: CanonicalText.escapedLine(entry.name))
            case .bytes(let id, let bytes)?: blobs[id] = .some(bytes)
            case .tooBig(let id, _)?: blobs[id] = .some(nil)
            }
        }
        return blobs
    }

    /// Stores `bytes` as a blob; its id.
    func store(_ bytes: [UInt8]) throws(SyncError) -> String {
        try text(["hash-object", "-w", "--stdin"], input: bytes)
    }

    /// Stores each of `blobs`; their ids, in order. Many go through `git fast-import`, one
    /// git for up to `batchBytes` of them: a first round exporting a folder of domains ran
    /// a `hash-object` per domain. One alone is `store`'s.
    func store(all blobs: [[UInt8]]) throws(SyncError) -> [String] {
        var ids: [String] = []
        var start = 0
        while start < blobs.count {
            var end = start + 1, size = blobs[start].count
            while end < blobs.count, size + blobs[end].count <= Self.batchBytes {
                size += blobs[end].count
                end += 1
            }
            if end - start == 1 {
                ids.append(try store(blobs[start]))
            } else {
                ids += try imported(blobs[start..<end])
            }
            start = end
        }
        return ids
    }

    /// The most bytes of blobs one `fast-import` is handed (16 MiB): the input is held whole.
    static let batchBytes = 16 << 20

    /// `blobs` stored by one `git fast-import` (a mark each, then each mark's id asked on
    /// its answer stream; `--done`: a stream cut short stores nothing); their ids.
    private func imported(_ blobs: ArraySlice<[UInt8]>) throws(SyncError) -> [String] {
        var input: [UInt8] = []
        for (mark, bytes) in blobs.enumerated() {
            input += Array("blob\nmark :\(mark + 1)\ndata \(bytes.count)\n".utf8)
            input += bytes
            input.append(UInt8(ascii: "\n"))
        }
        for mark in 0..<blobs.count { input += Array("get-mark :\(mark + 1)\n".utf8) }
        input += Array("done\n".utf8)
        let ids = try text(["fast-import", "--quiet", "--done", "--cat-blob-fd=1"], input: input)
            .split(separator: "\n").map(String.init)
        guard ids.count == blobs.count else {
            throw .git(command: "fast-import", reason: "it named \(ids.count) of \(blobs.count) blobs")
        }
        return ids
    }

    /// Makes a tree of `entries` (sorted as git wants); its id.
    func tree(_ entries: [TreeEntry]) throws(SyncError) -> String {
        var input: [UInt8] = []
        for entry in entries.sorted(by: Tree.order) {
            input += Array("\(entry.mode) \(entry.type) \(entry.id)\t".utf8) + Array(entry.name.utf8) + [0]
        }
        return try text(["mktree", "-z", "--missing"], input: input)
    }

    /// A commit of `tree` on `parents`; its id. Without a git identity of the user's, the
    /// commit is signed `settings sync <settings@HOST>`: a sync needs none of its own.
    func commit(_ tree: String, parents: [String], message: String, identity: [String: String?]) throws(SyncError)
        -> String
    {
        var arguments = ["commit-tree", tree, "-m", message]
        for parent in parents { arguments += ["-p", parent] }
        var output = try run(arguments, with: identity)
        if output.last == UInt8(ascii: "\n") { output.removeLast() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Points each ref at its commit (nil: deletes it), all or none (`update-ref --stdin`,
    /// one transaction).
    func update(_ refs: [(ref: String, commit: String?)]) throws(SyncError) {
        guard !refs.isEmpty else { return }
        let lines = refs.map { ref, commit in commit.map { "update \(ref) \($0)\n" } ?? "delete \(ref)\n" }
        try run(["update-ref", "--stdin"], input: Array(lines.joined().utf8))
    }
}
