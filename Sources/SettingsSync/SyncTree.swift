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
    /// (missing ones left out) and the top-level entries of each one's tree.
    func snapshot(_ refs: [String]) throws(SyncError) -> [String: (commit: String, entries: [TreeEntry])] {
        let names = refs.flatMap { [$0, $0 + "^{tree}"] }
        let objects = try batch(names)
        var found: [String: (commit: String, entries: [TreeEntry])] = [:]
        for (i, ref) in refs.enumerated() {
            guard let commit = objects[2 * i], let tree = objects[2 * i + 1] else { continue }
            found[ref] = (commit.id, Self.entries(tree.bytes, idLength: commit.id.utf8.count / 2))
        }
        return found
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

    /// The blobs' bytes, by id, in one `git cat-file --batch`.
    func blobs(_ ids: [String]) throws(SyncError) -> [String: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        var blobs: [String: [UInt8]] = [:]
        for object in try batch(ids) { if let object { blobs[object.id] = object.bytes } }
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
