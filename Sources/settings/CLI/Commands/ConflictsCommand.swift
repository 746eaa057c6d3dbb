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
            // A copy is read only as the regular file it is: a link could lead anywhere.
            do throws(StoreError) {
                let status: FileSystem.Status?
                do throws(Errno) { status = try FileSystem.linkStatus(path) } catch {
                    throw StoreError.unreadable(path: path, error)
                }
                guard let status else { continue }
                guard status.isRegular else { throw StoreError.notAFile(path: path, status.kind) }
            } catch {
                context.report(error)
                continue
            }
            let theirs = try PlistFiles.dictionary(from: PlistFiles.read(path), name: path)
            var kept: [(String, PlistValue, PlistValue)] = []
            try context.update(.named(copy.domain)) { values in
                // One pass over both sorted: a 20,000-key copy is not 20,000 lookups.
                kept = []
                var merged: [PlistDictionary.Entry] = []
                var changed = false
                PlistDictionary.walk([values, theirs]) { key, both in
                    guard let mine = both[0] else {
                        merged.append(.init(key: key, value: both[1]!))
                        changed = true
                        return
                    }
                    if let copied = both[1], copied != mine { kept.append((key, mine, copied)) }
                    merged.append(.init(key: key, value: mine))
                }
                if changed { values = PlistDictionary(entries: merged) }
                return changed
            }
            for (key, mine, copied) in kept {
                context.print(
                    "\(copy.domain): kept \(CanonicalText.escapedLine(key)) = "
                        + "\(CanonicalText.json(mine)); the copy had \(CanonicalText.json(copied))")
            }
            do throws(Errno) { _ = try FileSystem.unlink(path) } catch {
                throw StoreError.writeFailed(path: path, error)
            }
            context.print("\(copy.domain): merged and removed \(copy.file)")
        }
    }
}
