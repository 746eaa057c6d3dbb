import PlistModel

/// One leaf that differs between two states of a domain: where it is, and its value on
/// each side (nil: not there). A leaf is a value that is not a non-empty dictionary, as in
/// `textconv`: an array is one value, and a dictionary emptied or filled is a change of
/// its leaves.
public struct LeafChange: Sendable, Equatable {
    /// Where the leaf is, from the domain's top.
    public let path: PlistKeyPath
    /// Its value before; nil when it was added.
    public let old: PlistValue?
    /// Its value after; nil when it was removed.
    public let new: PlistValue?

    /// A change at `path` from `old` to `new`.
    public init(path: PlistKeyPath, old: PlistValue?, new: PlistValue?) {
        (self.path, self.old, self.new) = (path, old, new)
    }

    /// Every leaf that differs from `old` to `new`, keys in byte order at each level: a
    /// key whose value changed type from a dictionary gives its old leaves' removals and
    /// the new value's addition.
    ///
    ///     LeafChange.changes(from: ["a": ["x": 1]], to: ["a": ["x": 2], "b": true]).map(\.path.pointer)
    ///     //=> ["/a/x", "/b"]
    public static func changes(from old: PlistDictionary, to new: PlistDictionary) -> [LeafChange] {
        var out: [LeafChange] = []
        compare(old, new, [], into: &out)
        return out
    }

    private static func compare(
        _ old: PlistDictionary, _ new: PlistDictionary, _ prefix: [String], into out: inout [LeafChange]
    ) {
        new.forEachChange(from: old) { change in
            let path = prefix + [change.key]
            switch (change.old, change.new) {
            case (.dict(let a)?, .dict(let b)?) where isBranch(a) && isBranch(b):
                compare(a, b, path, into: &out)
            case (.dict(let a)?, let b) where isBranch(a):
                leaves(of: a, path, removed: true, into: &out)
                if let b { out.append(LeafChange(path: PlistKeyPath(path), old: nil, new: b)) }
            case (let a, .dict(let b)?) where isBranch(b):
                if let a { out.append(LeafChange(path: PlistKeyPath(path), old: a, new: nil)) }
                leaves(of: b, path, removed: false, into: &out)
            default:
                out.append(LeafChange(path: PlistKeyPath(path), old: change.old, new: change.new))
            }
        }
    }

    /// Whether a dictionary holds leaves: not an empty one, nor a desktop value's
    /// `{"$gvariant": TEXT}`, which is one value (its key is no key of the domain).
    static func isBranch(_ dict: PlistDictionary) -> Bool {
        !dict.isEmpty && !(dict.count == 1 && PlistDictionary.isGVariantTag(dict.entries[0]))
    }

    /// Every leaf of `dict`, as removed or added.
    private static func leaves(
        of dict: PlistDictionary, _ prefix: [String], removed: Bool, into out: inout [LeafChange]
    ) {
        for entry in dict.sortedEntries {
            let path = prefix + [entry.key]
            if case .dict(let inner) = entry.value, isBranch(inner) {
                leaves(of: inner, path, removed: removed, into: &out)
            } else {
                out.append(
                    LeafChange(
                        path: PlistKeyPath(path), old: removed ? entry.value : nil, new: removed ? nil : entry.value))
            }
        }
    }
}
