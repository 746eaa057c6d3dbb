import PlistModel
import SettingsStore

/// One entry of a tree in the repository, as `git ls-tree -z -l` gives it: names come
/// NUL-terminated and unquoted, so no name git would quote is lost or changed.
struct TreeEntry: Equatable {
    let mode: String
    let type: String
    let id: String
    /// The blob's size in bytes; -1 for anything else.
    let size: Int
    let name: String

    /// A regular file (never a link, a submodule or a folder): only these are domains.
    var isRegularFile: Bool { type == "blob" && (mode == "100644" || mode == "100755") }
}

/// The repository's objects, read and written as data through git's plumbing: what a
/// tree holds is never opened as a path, so a link, a `.gitattributes` or a name of the
/// remote's cannot make a round read or write anything outside its folder.
extension Git {
    /// The top-level entries of `commit`'s tree (none for nil: no commit yet).
    func entries(of commit: String?) throws(SyncError) -> [TreeEntry] {
        guard let commit else { return [] }
        let output = try run(["ls-tree", "-z", "-l", commit])
        return output.split(separator: 0).compactMap { record in
            // "MODE TYPE ID SIZE\tNAME"
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
            let fields = record[..<tab].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count == 4 else { return nil }
            let text = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
            return TreeEntry(
                mode: text(fields[0]), type: text(fields[1]), id: text(fields[2]), size: Int(text(fields[3])) ?? -1,
                name: String(decoding: record[(tab + 1)...], as: UTF8.self))
        }
    }

    /// The blobs' bytes, by id, in one `git cat-file --batch`.
    func blobs(_ ids: [String]) throws(SyncError) -> [String: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        let output = try run(["cat-file", "--batch"], input: Array(ids.map { $0 + "\n" }.joined().utf8))
        var blobs: [String: [UInt8]] = [:]
        var at = 0
        while at < output.count {
            guard let newline = output[at...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = output[at..<newline].split(separator: UInt8(ascii: " ")).map {
                String(decoding: $0, as: UTF8.self)
            }
            at = newline + 1
            guard header.count == 3, let size = Int(header[2]), at + size <= output.count else { continue }
            blobs[header[0]] = Array(output[at..<(at + size)])
            at += size + 1
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
        for entry in entries.sorted(by: { Self.treeOrder($0, $1) }) {
            input += Array("\(entry.mode) \(entry.type) \(entry.id)\t".utf8) + Array(entry.name.utf8) + [0]
        }
        return try text(["mktree", "-z", "--missing"], input: input)
    }

    /// git's order of tree entries: by name's bytes, a folder's as if it ended in `/`.
    private static func treeOrder(_ a: TreeEntry, _ b: TreeEntry) -> Bool {
        let x = Array(a.name.utf8) + (a.type == "tree" ? [UInt8(ascii: "/")] : [])
        let y = Array(b.name.utf8) + (b.type == "tree" ? [UInt8(ascii: "/")] : [])
        return x.lexicographicallyPrecedes(y)
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

    /// The commits the refs point at, by ref (missing refs left out), in one process.
    func refs(_ names: [String]) throws(SyncError) -> [String: String] {
        let output = try text(["for-each-ref", "--format=%(objectname) %(refname)"] + names)
        var found: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2 { found[String(fields[1])] = String(fields[0]) }
        }
        return found
    }

    /// Points `ref` at `commit`.
    func update(_ ref: String, to commit: String) throws(SyncError) {
        try run(["update-ref", ref, commit])
    }
}
