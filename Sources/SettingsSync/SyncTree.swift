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
            guard let tree = objects[2 * i + 1] else {
                throw .objectMissing(id: Self.treeID(ofCommit: commit.bytes) ?? commit.id, what: "the tree of \(ref)")
            }
            found[ref] = Snapshot(
                commit: commit.id, entries: Self.entries(tree.bytes, idLength: commit.id.utf8.count / 2))
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

    /// The objects `names` name (ids, or refs with `^{tree}`), in order; nil for a missing one.
    private func batch(_ names: [String]) throws(SyncError) -> [(id: String, bytes: [UInt8])?] {
        let output = try run(["cat-file", "--batch"], input: Array(names.map { $0 + "\n" }.joined().utf8))
        var objects: [(id: String, bytes: [UInt8])?] = []
        var at = 0
        while at < output.count, objects.count < names.count {
            guard let newline = output[at...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = output[at..<newline].split(separator: UInt8(ascii: " ")).map {
                String(decoding: $0, as: UTF8.self)
            }
            at = newline + 1
            // "ID TYPE SIZE", then the bytes and a newline; or "NAME missing".
            guard header.count == 3, let size = Int(header[2]), at + size <= output.count else {
                objects.append(nil)
                continue
            }
            objects.append((header[0], Array(output[at..<(at + size)])))
            at += size + 1
        }
        // An answer cut short (git killed mid-way) is no answer: never "missing".
        guard objects.count == names.count else {
            throw .git(command: "cat-file", reason: "its answer ended after \(objects.count) of \(names.count) objects")
        }
        return objects
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

    /// The blobs of `entries`, by id, in one `git cat-file --batch`. One git cannot read
    /// throws: a domain read as "no file" would be a side of the merge with it removed.
    func blobs(_ entries: [TreeEntry]) throws(SyncError) -> [String: [UInt8]] {
        guard !entries.isEmpty else { return [:] }
        var blobs: [String: [UInt8]] = [:]
        for (entry, object) in zip(entries, try batch(entries.map(\.id))) {
            guard let object else { throw .objectMissing(id: entry.id, what: entry.name) }
            blobs[object.id] = object.bytes
        }
        return blobs
    }

    /// Stores `bytes` as a blob; its id.
    func store(_ bytes: [UInt8]) throws(SyncError) -> String {
        try text(["hash-object", "-w", "--stdin"], input: bytes)
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
