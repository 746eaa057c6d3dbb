import PlistModel
import SettingsStore

/// `undo` and `redo`: the journal's changes of a domain taken back, as a new change
/// (itself journalled, marked with the entries it took back), key by key: only the keys
/// those changes touched are written, and only where they still hold what the last of
/// those changes left. A key changed since by anything else keeps its value and is
/// reported.
///
/// The journal is a history with a pointer, as an editor's: `undo` takes back the newest
/// change still in effect, the next `undo` the one before it; `redo` takes back the newest
/// undo still in effect, until a new change is made (which starts a new history).
public enum Undo {
    /// What to take back: the last `steps` changes in effect, or every change in effect
    /// made after `time` (the newest ones, stopping at the first made before it: a clock
    /// stepped back never reaches changes older than it).
    public enum Extent: Sendable, Equatable {
        case steps(Int)
        case after(Double)
    }

    /// Per entry, whether it is in effect: not taken back by an entry in effect.
    static func inEffect(_ entries: [JournalEntry]) -> [Bool] {
        var takenBack = Set<JournalEntry.ID>(), effect = Array(repeating: true, count: entries.count)
        for i in entries.indices.reversed() {
            if takenBack.contains(entries[i].id) {
                effect[i] = false
            } else if let back = entries[i].takenBack {
                takenBack.formUnion(back.entries)
            }
        }
        return effect
    }

    /// The changes an `undo` of `extent` takes back, oldest first: changes in effect that
    /// are not themselves undos or redos.
    public static func undoTargets(_ entries: [JournalEntry], _ extent: Extent) -> [JournalEntry] {
        let effect = inEffect(entries)
        var targets: [JournalEntry] = []
        for i in entries.indices.reversed() where effect[i] && entries[i].takenBack == nil {
            switch extent {
            case .steps(let n): guard targets.count < n else { return targets.reversed() }
            case .after(let time): guard entries[i].time > time else { return targets.reversed() }
            }
            targets.append(entries[i])
        }
        return targets.reversed()
    }

    /// The undo a `redo` takes back: the newest undo in effect, when no change in effect
    /// came after it (a new change ends what can be redone); nil when there is none.
    public static func redoTarget(_ entries: [JournalEntry]) -> JournalEntry? {
        let effect = inEffect(entries)
        for i in entries.indices.reversed() where effect[i] {
            switch entries[i].takenBack {
            case .undid?: return entries[i]
            case .redid?: continue
            case nil: return nil
            }
        }
        return nil
    }

    /// `plan(of:)` of `undoTargets`.
    public static func plan(_ entries: [JournalEntry], _ extent: Extent) -> [KeyChange]? {
        plan(of: undoTargets(entries, extent))
    }

    /// Per key: the value the changes `undone` left (what it must still hold) and the one
    /// to restore (nil: remove the key). Empty when there is nothing to undo; nil when one
    /// of the changes was too large for the journal to keep its values.
    public static func plan(of undone: [JournalEntry]) -> [KeyChange]? {
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

    /// Whether a key holds what an undo's change expects it to (nil: nothing), as JSON
    /// says a value: otherwise it changed since, and is left as it is.
    package static func holds(_ now: PlistValue?, _ expected: PlistValue?) -> Bool {
        switch (expected, now) {
        case (nil, nil): true
        case (let expected?, let now?): JSONSameness.same(expected, now)
        default: false
        }
    }

    /// Makes `plan` in one locked update of the domain, journalled as taking back
    /// `takesBack`; returns the keys left alone because they changed since. A key holds
    /// what the journal says when it holds it as JSON says it: a 32-bit real written to an
    /// XML domain reads back as 64 bits, and a line of an older version kept a 32-bit real
    /// as 64 bits. What is given back is the journal's value, at the width it kept.
    @discardableResult
    public static func run(
        _ plan: [KeyChange], takingBack takesBack: JournalEntry.TakenBack? = nil, on domain: DomainName,
        host: DomainHost = .any, in store: DomainStore
    ) throws -> [String] {
        var store = store
        store.takesBack = takesBack
        var skipped: [String] = []
        try store.update(domain, host: host) { values in
            skipped = []
            var made: [(key: String, value: PlistValue?)] = []
            for change in plan {
                guard holds(values[change.key], change.old) else {
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
