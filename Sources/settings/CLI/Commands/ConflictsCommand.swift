import PlistCodecs
import PlistModel
import SettingsStore

/// `conflicts [--resolve] [DOMAIN]`: the copies file-sync engines (Syncthing, Nextcloud,
/// Dropbox) leave beside a domain both machines changed (see `ConflictCopy`), listed or
/// merged back.
enum ConflictsCommand {
    /// Lists each copy as `DOMAIN<TAB>FILE`; with `--resolve`, merges each into its
    /// domain through the store (locked, atomic, so watchers and SettingsKit see it):
    /// keys only the copy has are added; a key both have with different values keeps the
    /// domain's, and the copy's value is printed on one line; then the copy is removed.
    static func conflicts(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        let resolve = arguments.first?.text == "--resolve"
        if resolve { arguments.removeFirst() }
        try expectAtMost(1, arguments)
        let domain = try arguments.first.map { token throws in
            guard case .named(let name) = try context.domainName(token) else {
                throw CLIError.usage("conflicts takes a domain name")
            }
            return name
        }
        let copies = try context.store.conflictCopies(of: domain)
        guard resolve else {
            for copy in copies { context.print("\(copy.domain)\t\(copy.file)") }
            return
        }
        for copy in copies {
            let path = Path.join(context.store.directory, copy.file)
            let theirs = try PlistFiles.dictionary(from: PlistFiles.read(path), name: path)
            var kept: [(String, PlistValue, PlistValue)] = []
            try context.update(.named(copy.domain)) { values in
                var changed = false
                for entry in theirs.sortedEntries {
                    if let mine = values[entry.key] {
                        if mine != entry.value { kept.append((entry.key, mine, entry.value)) }
                    } else {
                        values[entry.key] = entry.value
                        changed = true
                    }
                }
                return changed
            }
            for (key, mine, copied) in kept {
                context.print(
                    "\(copy.domain): kept \(key) = \(GitCommand.json(mine)); the copy had \(GitCommand.json(copied))")
            }
            do throws(Errno) { _ = try FileSystem.unlink(path) } catch {
                throw StoreError.writeFailed(path: path, error)
            }
            context.print("\(copy.domain): merged and removed \(copy.file)")
        }
    }
}
