import PlistCodecs
import PlistModel

// Removing a domain's file.
extension DomainStore {
    /// Removes a domain's file; false when there was none. The name is looked up under
    /// the folder's lock; a read-only file is refused unless `overwriteReadOnly`.
    public func remove(_ domain: DomainName, host: DomainHost = .any) throws(StoreError) -> Bool {
        try remove(domain, host: host, onlyIfEmpty: false)
    }

    /// `remove`, or with `onlyIfEmpty`, only when the file holds no key under the lock (a
    /// sync removing a domain another machine removed never takes a key written since).
    package func remove(_ domain: DomainName, host: DomainHost = .any, onlyIfEmpty: Bool) throws(StoreError)
        -> Bool
    {
        let (folder, typed) = try located(domain, host: host)
        let managed = managedFile(of: domain, host: host)
        guard (try? FileSystem.status(folder))??.isDirectory == true else { return false }
        do {
            return try holdingLock(folder, for: typed) { folderFD, _ throws in
                let path = path(of: domain, host: host)
                let status: FileSystem.Status?
                do throws(Errno) { status = try FileSystem.linkStatus(path) } catch {
                    throw StoreError.unreadable(path: path, error)
                }
                guard let status else { return false }
                try checkWritable(status, at: path)
                let journals = Journal(self) != nil
                var removed: PlistDictionary?
                // A file that does not parse is never removed where its keys matter; for
                // the journal alone, it is removed with no keys to record.
                let mustRead = onlyIfEmpty || managed != nil
                if mustRead || journals,
                    let values = mustRead ? try read(path)?.domain.values : try? read(path)?.domain.values
                {
                    if onlyIfEmpty, !values.isEmpty { return false }
                    // Removing the file would remove the user's copy of a locked key.
                    if let managed {
                        let policy = WritePolicy(
                            managed: managed, schema: nil, domain: domain.displayName, path: path, format: .xml,
                            binaryForAnyText: false)
                        for entry in values.entries { try policy.checkNamed(entry.key) }
                    }
                    removed = values
                }
                let transaction = WriteTransaction(
                    self, path: path, named: path, directoryFD: folderFD, before: FileStamp(status)
                ) { removed }
                let gone = try transaction.remove()
                _ = transaction.finish(PlistDictionary().changes(from: removed ?? [:]), written: false)
                return gone
            }
        } catch {
            // FolderLock and the body throw only StoreError.
            throw error as? StoreError ?? .writeFailed(path: typed, .ioError)
        }
    }
}
