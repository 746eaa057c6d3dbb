/// Changing the value a key path names: set, insert into an array, remove.
///
/// They work below one top-level key (`segments[0]`), on that key's value, so a
/// store's one-key update can carry them: a binary domain is then edited without
/// building the rest of it.
///
///     var value: PlistValue? = nil
///     try PlistKeyPath(["window", "title"]).set(.string("Main"), in: &value)
///     value   //=> .dict(["title": .string("Main")])
extension PlistKeyPath {
    /// Puts `new` where the path points in `root`, the value of the top-level key
    /// `segments[0]` (nil when it has none). Missing dictionaries on the way are
    /// created, and a missing array before `-`; a missing parent of an index is an
    /// error, since an array is never guessed. At an array index the element is
    /// replaced, or with `insert` the new one goes before it; `-` appends.
    public func set(_ new: PlistValue, in root: inout PlistValue?, insert: Bool = false) throws(KeyPathError) {
        try set(new, in: &root, depth: 1, insert: insert)
    }

    private func set(_ new: PlistValue, in node: inout PlistValue?, depth: Int, insert: Bool) throws(KeyPathError) {
        guard depth < segments.count else { node = new; return }
        let segment = segments[depth]
        let last = depth + 1 == segments.count
        switch node {
        case nil:
            // An index under nothing is never guessed into an array; `-` (append) is
            // unambiguous, so it makes one.
            if Self.index(segment) != nil { throw .missingArray(prefix(depth)) }
            var child: PlistValue?
            try set(new, in: &child, depth: depth + 1, insert: insert)
            node =
                segment == "-"
                ? .array([child!]) : .dict(PlistDictionary(entries: [.init(key: segment, value: child!)]))
        case .dict(var dict)?:
            var child = dict[segment]
            node = nil  // let the dictionary be changed in place, not copied
            defer { node = .dict(dict) }  // also on an error: then unchanged
            try set(new, in: &child, depth: depth + 1, insert: insert)
            dict[segment] = child
        case .array(var items)?:
            let i = try index(of: segment, depth: depth, in: items, placing: last)
            node = nil
            defer { node = .array(items) }
            if last && (insert || i == items.count) {
                items.insert(new, at: i)
            } else {
                var child: PlistValue? = items[i]
                try set(new, in: &child, depth: depth + 1, insert: insert)
                items[i] = child!
            }
        case let scalar?:
            throw .notAContainer(prefix(depth), scalar.type)
        }
    }

    /// Removes the value the path points at in `root`; an array closes the gap. False
    /// when there is nothing there.
    public func remove(in root: inout PlistValue?) throws(KeyPathError) -> Bool {
        try remove(in: &root, depth: 1)
    }

    private func remove(in node: inout PlistValue?, depth: Int) throws(KeyPathError) -> Bool {
        guard depth < segments.count else {
            defer { node = nil }
            return node != nil
        }
        let segment = segments[depth]
        switch node {
        case nil: return false
        case .dict(var dict)?:
            var child = dict[segment]
            guard child != nil else { return false }
            node = nil
            defer { node = .dict(dict) }
            let removed = try remove(in: &child, depth: depth + 1)
            dict[segment] = child
            return removed
        case .array(var items)?:
            guard segment != "-" else { throw .notAnIndex(prefix(depth + 1)) }
            let i = try index(of: segment, depth: depth, in: items, placing: false)
            var child: PlistValue? = items[i]
            node = nil
            defer { node = .array(items) }
            let removed = try remove(in: &child, depth: depth + 1)
            if let child { items[i] = child } else { items.remove(at: i) }
            return removed
        case let scalar?:
            throw .notAContainer(prefix(depth), scalar.type)
        }
    }

    /// The index a segment names in `items`: `-` is the end; past the last element only
    /// when `placing` a value (replacing at `count` appends).
    private func index(of segment: String, depth: Int, in items: [PlistValue], placing: Bool) throws(KeyPathError)
        -> Int
    {
        if segment == "-" {
            guard placing else { throw .notAnIndex(prefix(depth + 1)) }
            return items.count
        }
        guard let i = Self.index(segment) else { throw .notAnIndex(prefix(depth + 1)) }
        guard i < items.count || (placing && i == items.count) else {
            throw .outOfRange(prefix(depth + 1), count: items.count)
        }
        return i
    }

    /// The pointer of the first `count` segments.
    private func prefix(_ count: Int) -> String { PlistKeyPath(Array(segments.prefix(count))).pointer }
}
