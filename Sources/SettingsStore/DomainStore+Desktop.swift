import PlistCodecs
import PlistModel

/// The journal of the desktop's domains (`gsettings:…`, `dconf:…`), whose changes dconf's
/// service makes: kept as a plist domain's is, under a name that stands for a file
/// (`/desktop/NAME`, never one on disk), with the domain's values after the last change
/// journalled as its copy, so a change made outside is found and journalled first.
extension DomainStore {
    private static func desktopJournalPath(_ name: String) -> String { "/desktop/" + name }

    /// Journals one change of a desktop domain, from `before` (its values read before the
    /// change, compared with the copy of the last: a difference is an outside change) to
    /// `after`. Returns a journal file refused as planted, for one warning; any other
    /// failure only loses history.
    package func journalDesktop(_ name: String, before: PlistDictionary, after: PlistDictionary) -> StateFileError? {
        guard let journal = Journal(self) else { return nil }
        let path = Self.desktopJournalPath(name)
        let last = journal.file(for: path, ".last")
        let outside = lastDesktopValues(last).map { before.changes(from: $0) } ?? []
        if let refusal = journal.append(outside, after.changes(from: before), at: journal.file(for: path, ".jsonl")) {
            return refusal
        }
        do throws(StateFileError) { try last.replace(with: BinaryWriter.encode(.dict(after))) } catch {
            return Journal.refusal(error)
        }
        return nil
    }

    /// Runs `body` holding the desktop domain's journal lock (`NAME.lock` beside its
    /// journal, through the state files' door), waited for up to `lockTimeout`: two
    /// changes through the store take turns from the read before to the journal line after.
    /// Without the journal, or a lock that cannot be had, `body` runs all the same: the lock
    /// only keeps the history exact, and is never a reason for a change to fail.
    package func holdingDesktop(_ name: String, _ body: () -> Void) {
        guard let journal = Journal(self) else { return body() }
        var fd: CInt = -1
        do throws(StateFileError) {
            if let opened = try journal.file(for: Self.desktopJournalPath(name), ".lock").open(.readWrite) {
                fd = opened.take()
            }
        } catch {}
        defer { if fd >= 0 { FileSystem.close(fd) } }
        if fd >= 0 { _ = try? FileSystem.lockExclusive(fd, timeoutSeconds: lockTimeout) }
        body()
    }

    /// A desktop domain's journal, oldest first, with a change made outside since the last
    /// one journalled (`current` against its copy) at the end, as `history(of:)` gives a
    /// plist domain's.
    package func desktopHistory(_ name: String, current: PlistDictionary, refused: (String) -> Void) -> [JournalEntry] {
        guard let journal = Journal(self) else { return [] }
        let path = Self.desktopJournalPath(name)
        var entries = journal.entries(at: path) { refused($0.message) }
        if let kept = lastDesktopValues(journal.file(for: path, ".last")) {
            let outside = current.changes(from: kept)
            if !outside.isEmpty { entries.append(.foundOutside(outside)) }
        }
        return entries
    }

    private func lastDesktopValues(_ file: StateFile) -> PlistDictionary? {
        guard let bytes = try? file.read(), case .dict(let values)? = try? PropertyList.read(bytes).0 else {
            return nil
        }
        return values
    }
}
