import PlistModel
import SettingsStore

/// `undo`: the journal's last changes of a domain taken back, as a new change (itself
/// journalled, so undoable), key by key: only the keys those changes touched are written,
/// and only where they still hold what the last of those changes left. A key changed
/// since by anything else keeps its value and is reported.
public enum Undo {
    /// What to take back: the last `steps` entries, or every entry after `time`.
    public enum Extent: Sendable, Equatable {
        case steps(Int)
        case after(Double)
    }

    /// Per key: the value the undone changes left (what it must still hold) and the one to
    /// restore (nil: remove the key). Empty when there is nothing to undo; nil when one of
    /// the changes was too large for the journal to keep its values.
    public static func plan(_ entries: [JournalEntry], _ extent: Extent) -> [KeyChange]? {
        let undone: ArraySlice<JournalEntry>
        switch extent {
        case .steps(let n): undone = entries.suffix(max(0, n))
        case .after(let time): undone = entries.drop { $0.time <= time }
        }
        guard undone.allSatisfy(\.valuesKept) else { return nil }
        // Keys by their bytes: "é" and "e\u{301}" are two keys, each undone on its own.
        var left: [ExactKey: PlistValue?] = [:], restore: [ExactKey: PlistValue?] = [:], order: [String] = []
        for entry in undone {
            for change in entry.changes {
                let key = ExactKey(change.key)
                if restore[key] == nil {
                    restore[key] = .some(change.old)
                    order.append(change.key)
                }
                left[key] = .some(change.new)
            }
        }
        return order.compactMap { key in
            let expected = left[ExactKey(key)]!, value = restore[ExactKey(key)]!
            return expected == value ? nil : KeyChange(key: key, old: expected, new: value)
        }
    }

    /// Makes `plan` in one locked update of the domain; returns the keys left alone
    /// because they changed since.
    @discardableResult
    public static func run(
        _ plan: [KeyChange], on domain: DomainName, host: DomainHost = .any, in store: DomainStore
    ) throws -> [String] {
        var skipped: [String] = []
        try store.update(domain, host: host) { values in
            skipped = []
            var made: [(key: String, value: PlistValue?)] = []
            for change in plan {
                guard values[change.key] == change.old else {
                    skipped.append(change.key)
                    continue
                }
                made.append((change.key, change.new))
            }
            // In one pass: removing keys one at a time moves the entries after each.
            if !made.isEmpty { values = values.updating(made) }
            return !made.isEmpty
        }
        return skipped
    }
}
