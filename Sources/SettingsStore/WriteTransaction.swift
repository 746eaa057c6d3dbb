import PlistCodecs
import PlistModel

/// One change of a domain's file under its lock, from the file as read to the file in
/// place or gone: the one way a change reaches the disk.
///
/// `update`, `update(key:)`, `create` and `remove` begin one once the change is known
/// and has passed the `WritePolicy`; it journals the change (`Journal.Write`: an outside
/// change found first, the new file's copy before the rename and its stamp after, then
/// the line), replaces or removes the file, and says the write's one warning. A writer
/// added to the store begins one too: none drives the journal's phases by hand.
final class WriteTransaction {
    /// The file replaced (a link's target), and the folder it is in, locked.
    let path: String
    let directoryFD: CInt
    private let entry: Journal.Write?
    /// Told of a journal file refused as planted (`DomainStore.journalRefused`).
    private let journalRefused: (@Sendable (String) -> Void)?

    /// Begun under the lock, before anything is written. `named` is the domain's file as
    /// named, `before` the stamp of the file read (nil: none), and
    /// `values` what it held, which the journal compares with its copy of the last write
    /// (asked only when the journal is on and holds a copy).
    init(
        _ store: DomainStore, path: String, named: String, directoryFD: CInt, before: FileStamp?,
        values: () -> PlistDictionary?
    ) {
        (self.path, self.directoryFD) = (path, directoryFD)
        journalRefused = store.journalRefused
        // Journalled by the file written (a link's target): a domain reached through a
        // link and the one whose file it is keep one journal, so neither's write is the
        // other's outside change.
        entry = Journal(store).map { Journal.Write($0, at: path, before: before, creating: true, values: values) }
    }

    /// Begun on a domain's locked target (`DomainStore.withTarget`).
    convenience init(
        _ store: DomainStore, _ target: DomainStore.Target, before: FileStamp?, values: () -> PlistDictionary?
    ) {
        self.init(
            store, path: target.path, named: target.named, directoryFD: target.directoryFD, before: before,
            values: values)
    }

    /// Whether the change is journalled: a writer collects what changed only then.
    var journals: Bool { entry != nil }

    /// The file replaced by what `contents` writes (`AtomicFile`, keeping `old`'s owner,
    /// mode and attributes), the journal given the new bytes before the rename and the new
    /// file's status after: a warning when it is in place but not confirmed durable, and
    /// the new file's stamp; nothing replaced, and `writeFailed`, when it failed.
    func replace(
        keeping old: FileSystem.Status?, newFileMode: FileSystem.Mode = 0o600,
        contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(StoreError) -> (warning: StoreWarning?, stamp: FileStamp?) {
        do throws(Errno) {
            let copy = entry.map { entry in AtomicFile.Copy(limit: Journal.comparedSize) { entry.copy($0) } }
            let replaced = try AtomicFile.replace(
                path, directoryFD: directoryFD, keeping: old, newFileMode: newFileMode, copy: copy, contents: contents)
            entry?.placed(replaced.status)
            return (StoreWarning(replaced.durability, path: path), replaced.status.map(FileStamp.init))
        } catch {
            throw StoreError.writeFailed(path: path, error)
        }
    }

    /// The file removed (its name: a link itself, never what it names); false when it
    /// was already gone.
    func remove() throws(StoreError) -> Bool {
        do throws(Errno) { return try FileSystem.unlink(path) } catch {
            throw StoreError.writeFailed(path: path, error)
        }
    }

    /// The change done: journalled (`written`: a file remains; false: it was removed;
    /// `count` the number of changes when more than `changes` holds), a journal file
    /// refused as planted told once (`journalRefused`), and the write's warning passed on.
    func finish(_ changes: [KeyChange], count: Int? = nil, written: Bool, warning: StoreWarning? = nil)
        -> StoreWarning?
    {
        entry?.finish(changes, count: count, written: written)
        if let refused = entry?.refused { journalRefused?(refused.message) }
        return warning
    }
}
