/// One key's net change between two readings of a domain; `old` is nil for a new key,
/// `new` nil for a removed one.
public struct KeyChange: Sendable, Equatable {
    /// The top-level key that changed.
    public let key: String
    /// Its value before; nil when it was added.
    public let old: PlistValue?
    /// Its value after; nil when it was removed.
    public let new: PlistValue?
    /// A change of `key` from `old` to `new`.
    public init(key: String, old: PlistValue?, new: PlistValue?) { (self.key, self.old, self.new) = (key, old, new) }
    /// The same key, byte for byte, and equal values.
    public static func == (a: Self, b: Self) -> Bool { sameKey(a.key, b.key) && a.old == b.old && a.new == b.new }
}

extension PlistDictionary {
    /// Per key, what differs from `old` to this dictionary, in key order: what a watcher
    /// reports and what a write tells observers.
    ///
    ///     (["a": .int(2), "c": .int(3)] as PlistDictionary).changes(from: ["a": .int(1), "b": .int(1)]).map(\.key)
    ///     //=> ["a", "b", "c"]
    public func changes(from old: PlistDictionary) -> [KeyChange] {
        var changes: [KeyChange] = []
        forEachChange(from: old) { changes.append($0) }
        return changes
    }

    /// `changes(from:)` one at a time, without the array: a writer checking each changed
    /// key of a 100,000-key import needs no second copy of them.
    package func forEachChange<E: Error>(from old: PlistDictionary, _ body: (KeyChange) throws(E) -> Void) throws(E) {
        let before = old.sortedEntries, after = sortedEntries
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if j == after.count || (i < before.count && byteOrderPrecedes(before[i].key, after[j].key)) {
                try body(KeyChange(key: before[i].key, old: before[i].value, new: nil))
                i += 1
            } else if i == before.count || byteOrderPrecedes(after[j].key, before[i].key) {
                try body(KeyChange(key: after[j].key, old: nil, new: after[j].value))
                j += 1
            } else {
                if before[i].value != after[j].value {
                    try body(KeyChange(key: after[j].key, old: before[i].value, new: after[j].value))
                }
                i += 1
                j += 1
            }
        }
    }
}
