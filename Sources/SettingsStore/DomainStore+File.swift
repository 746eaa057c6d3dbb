import PlistCodecs
import PlistModel

extension DomainStore {
    /// Reads, changes and writes a whole file under the domain's lock, through the same
    /// transaction as `update`: `change` gets the file's bytes (nil: there is none) and
    /// returns the new root with the bytes to write for it (nil: nothing is written),
    /// encoded in the format the caller chose, so a tool may read and write JSON or
    /// convert. The file's mode, owner and attributes are kept; a read-only file is refused;
    /// a new file is `newFileMode` (a domain's 0600; a project's file, 0644).
    ///
    /// A path domain's root may be of any type; a domain proper stays a dictionary. When
    /// both roots are dictionaries, each changed key is held to the `WritePolicy` and
    /// journalled as `update` does; a change of another root is held to nothing more and
    /// journalled by its file's stamp only, since it has no keys.
    @discardableResult
    package func replaceFile(
        _ domain: DomainName, host: DomainHost = .any, newFileMode: FileSystem.Mode = 0o600,
        _ change: ([UInt8]?) throws -> (root: PlistValue, bytes: [UInt8])?
    ) throws -> StoreWarning? {
        let managed = managedFile(of: domain, host: host)
        return try withTarget(domain, host: host) { target throws in
            let file = try readFile(target.path, opened: target.opened) { bytes, _ throws(PlistError) in bytes }
            let bytes = file.map { $0.parsed ?? [] }
            guard let (root, newBytes) = try change(bytes) else { return nil }
            var old: PlistDictionary?
            if let bytes {
                if bytes.isEmpty {
                    old = PlistDictionary()
                } else if case .dict(let values)? = try? PropertyList.read(bytes).0 {
                    old = values
                }
            } else {
                old = PlistDictionary()
            }
            var changes: [KeyChange] = [], count = 0
            if case .dict(let new) = root, let old {
                let policy = policy(
                    domain, host: host, managed: managed, format: PropertyList.sniff(newBytes), at: target.path)
                try new.forEachChange(from: old) { changed throws in
                    _ = try policy.check(changed.key, changed.new)
                    count += 1
                    if changes.count < Journal.keptChanges { changes.append(changed) }
                }
            } else if case .path = domain {
            } else {
                throw StoreError.notADictionary(path: target.path, root.type)
            }
            try checkWritable(file?.status, at: target.path)
            let transaction = WriteTransaction(self, target, before: file.map { FileStamp($0.status) }) { old }
            let (warning, _) = try transaction.replace(keeping: file?.status, newFileMode: newFileMode) { write in
                try write(newBytes[...])
            }
            return transaction.finish(changes, count: max(count, changes.count), written: true, warning: warning)
        }
    }
}
