import PlistCodecs
import PlistModel
/// Replaces a file so that any reader, and any crash, sees the old bytes or the new,
/// never a mix.
///
/// Contract: the new bytes go to a temporary file `.settings-tmp.XXXXXX` in the same
/// folder (so the rename cannot cross file systems). It gets the old file's mode, owner
/// (where the kernel allows), `user.*` attributes and access ACL, so a write never
/// widens access; a new file gets `newFileMode` and, made by root, the folder's owner. It
/// is written in full and fsynced, renamed over the old name, and the folder is fsynced
/// so the rename itself is durable. On every error before the rename the temporary file
/// is removed and the old file is untouched. The caller holds the folder's lock
/// (`FolderLock`), which is what makes a leftover temporary file provably abandoned.
///
/// The bytes come from `contents`, which may call its writer more than once: the XML
/// writer streams a big domain in pieces so it never holds the whole text beside the
/// values. A small file, the usual case, is still one `write(2)`.
package enum AtomicFile {
    /// Every temporary file starts so; no other program's file does, and the name fits
    /// beside a domain of the longest name (a prefix made from the domain's name would not).
    package static let temporaryPrefix = ".settings-tmp."

    /// Whether the new file is known to survive a crash: the rename is done either way,
    /// but the folder's fsync can fail after it.
    enum Durability: Equatable {
        case confirmed
        /// The file is in place; the folder's fsync failed with this error.
        case unconfirmed(Errno)
    }

    /// What `replace` did: whether it is durable, and the new file's status once in
    /// place, looked at through the descriptor it was written with (nil if that failed).
    struct Replaced {
        let durability: Durability
        let status: FileSystem.Status?
    }

    /// Who is handed the new file's bytes, fsynced but before the rename (the journal's
    /// copy of it): the pieces as written, with no second read, or nil past `limit` bytes,
    /// so a big file is never held whole for it.
    struct Copy {
        let limit: Int
        let body: ([ArraySlice<UInt8>]?) -> Void
    }

    @discardableResult
    static func replace(
        _ path: String, directoryFD: CInt, with bytes: [UInt8],
        keeping old: FileSystem.Status?, newFileMode: FileSystem.Mode = 0o600
    ) throws(Errno) -> Durability {
        try replace(path, directoryFD: directoryFD, keeping: old, newFileMode: newFileMode) { write in
            try write(bytes[...])
        }.durability
    }

    @discardableResult
    static func replace(
        _ path: String, directoryFD: CInt, keeping old: FileSystem.Status?, newFileMode: FileSystem.Mode = 0o600,
        copy: Copy? = nil, contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(Errno) -> Replaced {
        let (fd, temporary) = try FileSystem.makeTemporaryFile(in: Path.directory(of: path), prefix: temporaryPrefix)
        var renamed = false
        defer {
            FileSystem.close(fd)
            if !renamed { _ = try? FileSystem.unlink(temporary) }
        }
        if let old {
            if !old.isOwnedByThisProcess {
                do throws(Errno) { try FileSystem.fchown(fd, old.uid, old.gid) } catch  where error == .notPermitted {}
            }
            try FileSystem.fchmod(fd, old.permissions)
            // After the mode: setting the ACL sets the group bits to its mask again.
            try FileSystem.copyMetadata(from: path, to: fd)
        } else {
            if FileSystem.isRoot {
                let folder = try FileSystem.status(fd: directoryFD)
                try FileSystem.fchown(fd, folder.uid, folder.gid)
            }
            try FileSystem.fchmod(fd, newFileMode)
        }
        // The pieces are slices of the writer's own arrays: kept, they cost no copy.
        var pieces: [ArraySlice<UInt8>]? = copy == nil ? nil : []
        var size = 0
        // Never a file larger than a reader takes (`maximumReadSize`): it could not be read
        // back, nor changed again, by this tool or the next.
        try FileSystem.writeAll(fd, from: contents, limit: FileSystem.maximumReadSize) { piece in
            size += piece.count
            if let limit = copy?.limit, size > limit { pieces = nil } else { pieces?.append(piece) }
        }
        try FileSystem.fsync(fd)
        copy?.body(pieces)
        try FileSystem.rename(temporary, path)
        renamed = true
        // The file just put in place, as this descriptor sees it: a `stat` of the name
        // would walk the path, and could see another writer's file put there since.
        let status = try? FileSystem.status(fd: fd)
        do throws(Errno) { try FileSystem.fsync(directoryFD) } catch {
            return Replaced(durability: .unconfirmed(error), status: status)
        }
        return Replaced(durability: .confirmed, status: status)
    }

    /// Removes the temporary files a writer killed between creating and renaming one
    /// left in the folder. Only regular files named `temporaryPrefix` and six more
    /// characters go: nothing else can be ours, and under the folder's lock no writer of
    /// ours is mid-write.
    static func removeAbandonedTemporaryFiles(in directory: String) {
        guard let names = try? FileSystem.directoryEntries(directory) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) && name.utf8.count == temporaryPrefix.utf8.count + 6 {
            let path = Path.join(directory, name)
            guard (try? FileSystem.linkStatus(path))??.isRegular == true else { continue }
            _ = try? FileSystem.unlink(path)
        }
    }
}
