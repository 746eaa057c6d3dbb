/// A three-way merge of two dictionaries that grew from one, key by key, recursing into
/// dictionaries; an array or a scalar is one value. Per key:
/// - the same on both sides, or changed on one side only: that side's value (a removal
///   counts as a change);
/// - removed on one side and changed on the other: the changed value (nothing is lost);
/// - a dictionary on both sides: merged the same way, inside;
/// - changed on both sides differently: a conflict; `ours` is kept, or with
///   `keepTheirs` (a sync, where theirs is what another machine already pushed), `theirs`.
///
/// One pass over the three dictionaries' sorted keys (`PlistDictionary.walk`): two
/// 100,000-key domains merge in well under a second.
///
///     ThreeWayMerge(base: ["a": 1], ours: ["a": 1, "b": 2], theirs: ["a": 3]).merged   //=> ["a": 3, "b": 2]
package struct ThreeWayMerge {
    /// A place both sides changed differently: its key path, and each side's value (nil:
    /// removed, which conflicts only with a dictionary merged inside).
    package struct Conflict: Equatable {
        package let path: PlistKeyPath
        package let ours: PlistValue?
        package let theirs: PlistValue?
    }

    /// The result: `ours` with every change of `theirs` that does not conflict, its keys
    /// in byte order.
    package private(set) var merged: PlistDictionary
    /// The conflicts, in key order; `ours` (or with `keepTheirs`, `theirs`) is what
    /// `merged` holds at each.
    package private(set) var conflicts: [Conflict] = []
    private let keepTheirs: Bool

    package init(base: PlistDictionary, ours: PlistDictionary, theirs: PlistDictionary, keepTheirs: Bool = false) {
        self.keepTheirs = keepTheirs
        merged = PlistDictionary()
        merged = merge(base, ours, theirs, at: [])
    }

    private mutating func merge(
        _ base: PlistDictionary, _ ours: PlistDictionary, _ theirs: PlistDictionary, at path: [String]
    ) -> PlistDictionary {
        var result = PlistDictionary()
        PlistDictionary.walk([base, ours, theirs]) { name, values in
            let (b, o, t) = (values[0], values[1], values[2])
            let value: PlistValue?
            if o == t || t == b {
                value = o
            } else if o == b {
                value = t
            } else if case .dict(let od)? = o, case .dict(let td)? = t {
                var inner = PlistDictionary()
                if case .dict(let bd)? = b { inner = bd }
                value = .dict(merge(inner, od, td, at: path + [name]))
            } else if o == nil || t == nil {
                value = o ?? t
            } else {
                conflicts.append(Conflict(path: PlistKeyPath(path + [name]), ours: o, theirs: t))
                value = keepTheirs ? t : o
            }
            if let value { result.append(key: name, value: value) }
        }
        return result
    }
}
