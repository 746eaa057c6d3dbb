import PlistModel
import SettingsStore

/// `watch --exec`'s rules: what its command finds in its environment, and which changes
/// the command made itself, so that they do not run it again.
package enum WatchExec {
    /// The most bytes `SETTINGS_CHANGED` holds: 64 KiB, half of what Linux lets one
    /// variable be (MAX_ARG_STRLEN, 128 KiB with its name): past that the command could
    /// not be started at all (E2BIG). Its standard input always has every line.
    package static let changedLimit = 65536

    /// `SETTINGS_CHANGED`, the changed pointers one a line, as many whole ones as fit in
    /// `changedLimit` bytes, and `SETTINGS_CHANGED_CUT`, how many were left out; nil (unset,
    /// though the watch's own environment had it) when none was.
    package static func changedVariables(_ pointers: [String]) -> [String: String?] {
        var value = ""
        var size = 0, kept = 0
        for pointer in pointers {
            let more = pointer.utf8.count + (kept > 0 ? 1 : 0)
            guard size + more <= changedLimit else { break }
            if kept > 0 { value += "\n" }
            value += pointer
            size += more
            kept += 1
        }
        return [
            "SETTINGS_CHANGED": value,
            "SETTINGS_CHANGED_CUT": kept < pointers.count ? String(pointers.count - kept) : nil,
        ]
    }

    /// The changes a run of the command made itself, to be left out of what the watch
    /// sees next.
    ///
    /// Right after the command ends, the domain is read again: a key whose value then
    /// differs from what the watch had before the run changed while it ran, and is the
    /// command's own unless the journal names another writer through the store (one not
    /// marked as the command's) as the last to change it meanwhile. The watch's next
    /// report of such a key is left out when its new value is, byte for byte, the one read
    /// after the run; a key changed again since is reported. No value is read back from
    /// the journal: its JSON gives a 32-bit real back as a 64-bit one, and it keeps no
    /// value too big for it. With the journal off (`SETTINGS_HISTORY_SIZE=0`) every change
    /// made while the command ran is taken for its own, as is one made without the store
    /// (the journal's `outside`): which program made it cannot be told, and a command that
    /// reran for ever on its own writes is the worse mistake.
    package struct OwnChanges {
        /// Per key the command changed, its value right after the run (nil: removed).
        private var left: [ExactKey: PlistValue?] = [:]

        package init() {}

        /// After a run: `before`, the values the watch had when it started the command;
        /// `after`, the values read as it ended; `journal`, the domain's, oldest first (read
        /// only when something changed: most commands change nothing); `mark`, what the
        /// command's changes carry there (`Journal.execVariable`); and `started`, when the
        /// run started (seconds since 1970). Linear in the domain's size and the journal's.
        package mutating func ran(
            before: PlistDictionary, after: PlistDictionary, journal: () -> [JournalEntry], mark: String,
            since started: Double
        ) {
            left = [:]
            let changed = after.changes(from: before)
            guard !changed.isEmpty else { return }
            // A second of slack: another writer's change just before the run may not have
            // been read by the watch yet.
            var others = Set<ExactKey>()
            let own = " (\(mark))"
            for entry in journal() where entry.time >= started - 1 && !entry.isOutside {
                let isOwn = entry.writer.hasSuffix(own)
                for change in entry.changes {
                    if isOwn { others.remove(ExactKey(change.key)) } else { others.insert(ExactKey(change.key)) }
                }
            }
            for change in changed where !others.contains(ExactKey(change.key)) {
                left[ExactKey(change.key)] = .some(change.new)
            }
        }

        /// `changes` without the command's own: a key's first change since the run, when it
        /// leaves the value the run left.
        package mutating func notOwn(_ changes: [KeyChange]) -> [KeyChange] {
            guard !left.isEmpty else { return changes }
            return changes.filter { change in
                left.removeValue(forKey: ExactKey(change.key)).map { $0 != change.new } ?? true
            }
        }
    }
}
