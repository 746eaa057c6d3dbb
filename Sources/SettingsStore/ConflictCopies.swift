import PlistCodecs
import PlistModel

/// The copies file-sync engines leave beside a file both sides changed: Syncthing's
/// `NAME.sync-conflict-DATE-TIME-DEVICE.plist`, and Nextcloud's and Dropbox's
/// `NAME (conflicted copy …).plist` / `NAME (Device's conflicted copy …).plist`. They are
/// never domains: `domains`, `read`, `find` and completion leave them out, and
/// `settings conflicts` lists them with the domain each belongs to, or merges them back.
package enum ConflictCopy {
    /// The domain `fileName` (a name in the config folder, with `.plist`) is a conflict
    /// copy of, or nil when it is not one.
    ///
    ///     ConflictCopy.domain(of: "com.a.sync-conflict-20241122-101500-ABCDEF7.plist")   //=> "com.a"
    package static func domain(of fileName: String) -> String? {
        guard fileName.hasSuffix(".plist") else { return nil }
        let stem = fileName.dropLast(6)
        if let range = stem.firstRange(of: ".sync-conflict-"), range.lowerBound != stem.startIndex {
            return String(stem[..<range.lowerBound])
        }
        if stem.hasSuffix(")"), let open = stem.ranges(of: " (").last,
            stem[open.upperBound...].contains("conflicted copy"), open.lowerBound != stem.startIndex
        {
            return String(stem[..<open.lowerBound])
        }
        return nil
    }
}

extension DomainStore {
    /// The conflict copies in the config folder, as (file name, domain), sorted; only
    /// those of `domain` when it is given.
    package func conflictCopies(of domain: String? = nil) throws(StoreError) -> [(file: String, domain: String)] {
        let names: [String]
        do { names = try FileSystem.directoryEntries(directory) } catch {
            throw StoreError.unreadable(path: directory, error)
        }
        return names.compactMap { name in
            guard let base = ConflictCopy.domain(of: name), domain == nil || base == domain else { return nil }
            return (name, base)
        }.sorted { byteOrderPrecedes($0.file, $1.file) }
    }
}
