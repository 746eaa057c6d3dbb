/// The keys and values of a dictionary, in the order they were read or set.
///
/// Stored as a flat list in that order, as property lists need it, with a way to find a key
/// that costs no more than the list: while the entries are strictly in byte order (a file
/// written by us or by Apple, read back), a key is found by binary search and nothing is
/// hashed; the first key that comes out of order (or twice) makes a hash table of every key
/// to where its entry lies, once, kept from then on. Either way a lookup, setting a key it
/// holds and `count` cost no pass over the entries, so work done one key at a time over a
/// whole domain is linear (or n log n), not quadratic. Removing a key still moves the entries after it:
/// many at once go through `updating(_:)`, one pass.
/// A key read twice from a file keeps its last value, as Apple's readers do.
///
///     var d = PlistDictionary()
///     d["b"] = .bool(true); d["a"] = .int(1)
///     d.sortedEntries.map(\.key)   //=> ["a", "b"]
public struct PlistDictionary: Sendable {
    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        /// The key, compared as UTF-8 bytes (no Unicode normalization, as Foundation).
        public var key: String
        /// The value.
        public var value: PlistValue
        /// An entry of `key` and `value`.
        public init(key: String, value: PlistValue) { (self.key, self.value) = (key, value) }
        /// Same key bytes and equal values.
        public static func == (a: Entry, b: Entry) -> Bool { sameKey(a.key, b.key) && a.value == b.value }
    }

    /// In insertion order; may hold a key more than once (the last one counts).
    public private(set) var entries: [Entry]

    /// Nil while `entries` are strictly in byte order, no key twice; else each key's place
    /// in `entries`, the last of its entries. One optional table, not a flag beside it: the
    /// dictionary stays two words, the size of a `String`, so a `PlistValue` grows no bigger.
    private var places: [ExactKey: Int]?

    /// An empty dictionary.
    public init() { (entries, places) = ([], nil) }
    /// A dictionary of `entries` in this order; a repeated key's last value wins on lookup.
    public init(entries: [Entry]) {
        self.entries = entries
        places = Self.inOrder(entries[...]) ? nil : Self.places(of: entries)
    }

    /// Whether there is no entry.
    public var isEmpty: Bool { entries.isEmpty }

    /// The number of distinct keys.
    public var count: Int { places?.count ?? entries.count }

    /// The keys in byte order, each once.
    public var keys: [String] { sortedEntries.map(\.key) }

    /// Whether a table of the keys was made (a key came out of order or twice); while not,
    /// lookups are binary searches and nothing was hashed. For the tests.
    package var isHashed: Bool { places != nil }

    package mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

    /// Appends without looking for an earlier entry of the same key (readers use this;
    /// the last entry of a key counts). While the keys come in order this compares one
    /// key with the last and hashes nothing.
    package mutating func append(key: String, value: PlistValue) {
        if places == nil {
            guard let last = entries.last, !byteOrderPrecedes(last.key, key) else {
                entries.append(Entry(key: key, value: value))
                return
            }
            places = Self.places(of: entries)
        }
        places![ExactKey(key)] = entries.count
        entries.append(Entry(key: key, value: value))
    }

    /// Where `key` is or would go in these entries, when they are sorted with no key twice
    /// (`isStrictlySorted`): a binary search.
    package func sortedPlace(of key: String) -> (index: Int, found: Bool) {
        // The wanted key's bytes once, each entry's read where it lies: copying an entry
        // to compare its key copied its value too, and this runs once per key of a bulk edit.
        var key = key
        return key.withUTF8 { wanted in
            let entries = entries.span, wanted = wanted.span
            var low = 0, high = entries.count
            while low < high {
                let middle = (low &+ high) &>> 1
                if Self.compare(entries[middle].key, wanted) < 0 { low = middle &+ 1 } else { high = middle }
            }
            return (low, low < entries.count && Self.compare(entries[low].key, wanted) == 0)
        }
    }

    /// `key` against `wanted`, as bytes: negative before, zero the same, positive after.
    @inline(__always)
    private static func compare(_ key: String, _ wanted: Span<UInt8>) -> Int {
        if let order = key.utf8.withContiguousStorageIfAvailable({ Self.compare($0.span, wanted) }) { return order }
        var key = key
        return key.withUTF8 { Self.compare($0.span, wanted) }
    }

    /// One pass, eight bytes at a time (`bytesPrecede` and `bytesEqual` would be two).
    @inline(__always)
    private static func compare(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Int {
        let n = min(a.count, b.count)
        var i = 0
        while i + 8 <= n {
            let x = a.word(at: i).byteSwapped, y = b.word(at: i).byteSwapped
            if x != y { return x < y ? -1 : 1 }
            i += 8
        }
        while i < n {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i += 1
        }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    /// Where the entry that counts for `key` is in `entries`, if it has one.
    package func place(of key: String) -> Int? {
        if let places { return places[ExactKey(key)] }
        let (index, found) = sortedPlace(of: key)
        return found ? index : nil
    }

    /// Sets, inserts or (nil) removes the entry at `index`, keeping the others in place
    /// (`sortedPlace(of:)` says where, so the entries stay sorted).
    package mutating func setEntry(at index: Int, found: Bool, key: String, value: PlistValue?) {
        switch (found, value) {
        case (true, let value?): entries[index].value = value
        case (true, nil):
            entries.remove(at: index)
            if places != nil { places = Self.places(of: entries) }
        case (false, let value?):
            entries.insert(Entry(key: key, value: value), at: index)
            if places != nil { places = Self.places(of: entries) }
        case (false, nil): break
        }
    }

    /// Appends another dictionary's entries after these, as they are (a reader reading
    /// one file in two halves joins them so).
    package mutating func append(contentsOf other: PlistDictionary) {
        guard let first = other.entries.first else { return }
        if places == nil, other.places == nil, entries.last.map({ byteOrderPrecedes($0.key, first.key) }) ?? true {
            entries.append(contentsOf: other.entries)
            return
        }
        var places = self.places.take() ?? Self.places(of: entries)
        for (offset, entry) in other.entries.enumerated() { places[ExactKey(entry.key)] = entries.count + offset }
        entries.append(contentsOf: other.entries)
        self.places = places
    }

    /// The value for `key`; setting nil removes it, setting a new key appends it.
    ///
    ///     var d: PlistDictionary = ["a": 1]; d["b"] = 2; d.keys   //=> ["a", "b"]
    public subscript(key: String) -> PlistValue? {
        get { place(of: key).map { entries[$0].value } }
        set {
            guard let newValue else { removeValue(forKey: key); return }
            // Rare (a file with a key twice): setting a key leaves it one entry, as Apple's
            // do, so the dictionary is made one entry per key first, once.
            if entries.count != count { self = PlistDictionary(entries: uniqueEntries) }
            if let index = place(of: key) {
                entries[index].value = newValue
            } else {
                append(key: key, value: newValue)
            }
        }
    }

    /// Removes every entry of `key`; returns the value that counted, if any. The entries
    /// after it move: to remove many keys, `updating(_:)` is one pass.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PlistValue? {
        guard let index = place(of: key) else { return nil }
        let old = entries[index].value
        guard var places = self.places.take() else {
            entries.remove(at: index)
            return old
        }
        if entries.count == places.count {
            entries.remove(at: index)
            places[ExactKey(key)] = nil
            // The places after it move down by one: no key hashed again.
            for slot in places.values.indices where places.values[slot] > index { places.values[slot] -= 1 }
            self.places = entries.isEmpty ? nil : places
        } else {
            // Rare (a file with a key twice): every entry of the key goes.
            entries.removeAll { sameKey($0.key, key) }
            self.places = Self.places(of: entries)
        }
        return old
    }

    /// These entries with `changes` made, in one pass: a key set where it is or appended
    /// after the others (in the order the changes name new keys), a nil value removing it;
    /// a key changed twice takes its last. What setting them one by one gives (but for the
    /// place of a key removed and then set again: it stays where it was), in time linear
    /// in the entries and the changes, not their product.
    package func updating(_ changes: some Sequence<(key: String, value: PlistValue?)>) -> PlistDictionary {
        // With a key twice, removing its last entry would bring an older one back.
        let base = entries.count == count ? self : PlistDictionary(entries: uniqueEntries)
        return base.updating(
            placed: changes.map { PlacedChange(key: $0.key, place: base.place(of: $0.key), value: $0.value) })
    }

    /// A change of `key` to `value` (nil: removed) for `updating(placed:)`, with the place of
    /// its key in the dictionary changed (nil: it has none). (A struct, not a tuple: an
    /// array of tuples is destroyed through their generic layout, a tenth of a big apply.)
    package struct PlacedChange {
        /// The key.
        package var key: String
        /// Where it is in the entries changed; nil for a new key.
        package var place: Int?
        /// What it becomes; nil removes it.
        package var value: PlistValue?
        /// A change of `key`, at `place`, to `value`.
        package init(key: String, place: Int?, value: PlistValue?) {
            (self.key, self.place, self.value) = (key, place, value)
        }
    }

    /// `updating(_:)` with each change's place in these entries already found
    /// (`place(of:)`; nil for a key they lack), so no key is looked for twice. These
    /// entries must hold no key twice (`entries.count == count`).
    package func updating(placed changes: [PlacedChange]) -> PlistDictionary {
        precondition(entries.count == count, "updating(placed:) of entries with a key twice")
        var result = self
        // Per place, whether its key goes: made at the first removal only.
        var gone: [Bool] = []
        var added = PlistDictionary()
        for change in changes {
            guard let place = change.place else {
                added[change.key] = change.value
                continue
            }
            if let value = change.value {
                result.entries[place].value = value
                if !gone.isEmpty { gone[place] = false }
            } else {
                if gone.isEmpty { gone = Array(repeating: false, count: entries.count) }
                gone[place] = true
            }
        }
        if gone.contains(true) {
            var kept: [Entry] = []
            kept.reserveCapacity(result.entries.count + added.count)
            for (place, entry) in result.entries.enumerated() where !gone[place] { kept.append(entry) }
            // Removing from keys in order leaves them in order.
            result = result.places == nil ? PlistDictionary(sorted: kept) : PlistDictionary(entries: kept)
        }
        for entry in added.entries { result.append(key: entry.key, value: entry.value) }
        return result
    }

    /// `entries` known to be strictly in byte order.
    private init(sorted entries: [Entry]) { (self.entries, places) = (entries, nil) }

    /// One entry per key, the last one read, sorted by the keys' code points: the
    /// order Apple's writers and `defaults read` use.
    public var sortedEntries: [Entry] {
        if places == nil { return entries }
        // A domain read from a sorted file and then set keys it lacked is a sorted run
        // followed by a few entries: sort only those and merge, so a write after a one-key
        // change costs a pass, not a sort of the whole domain.
        var run = 1
        while run < entries.count, byteOrderPrecedes(entries[run - 1].key, entries[run].key) { run += 1 }
        if run >= entries.count { return entries }
        let tail = Self.sortedUnique(entries[run...])
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count)
        var i = 0, j = 0
        while i < run, j < tail.count {
            if byteOrderPrecedes(entries[i].key, tail[j].key) {
                merged.append(entries[i]); i += 1
            } else if byteOrderPrecedes(tail[j].key, entries[i].key) {
                merged.append(tail[j]); j += 1
            } else {
                // The same key: the later entry, the tail's, counts.
                merged.append(tail[j]); i += 1; j += 1
            }
        }
        merged.append(contentsOf: entries[i..<run])
        merged.append(contentsOf: tail[j...])
        return merged
    }

    /// `entries` in byte order, one per key: the last of the entries of a key.
    private static func sortedUnique(_ entries: ArraySlice<Entry>) -> [Entry] {
        // A stable sort keeps duplicates in file order, so the last of a run wins.
        let sorted = entries.sorted { byteOrderPrecedes($0.key, $1.key) }
        var unique: [Entry] = []
        unique.reserveCapacity(sorted.count)
        for entry in sorted {
            if let last = unique.last, sameKey(last.key, entry.key) {
                unique[unique.count - 1] = entry
            } else {
                unique.append(entry)
            }
        }
        return unique
    }

    /// Whether `entries` are strictly in byte order: no key twice.
    private static func inOrder(_ entries: ArraySlice<Entry>) -> Bool {
        var previous: String? = nil
        for entry in entries {
            if let previous, !byteOrderPrecedes(previous, entry.key) { return false }
            previous = entry.key
        }
        return true
    }

    /// Each key of `entries` to the place of its last entry.
    private static func places(of entries: [Entry]) -> [ExactKey: Int] {
        var places: [ExactKey: Int] = [:]
        places.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() { places[ExactKey(entry.key)] = index }
        return places
    }

    /// One entry per key in the order the keys were read or set, each with the value
    /// that counts: the domain's own order, as JSON output keeps it.
    public var uniqueEntries: [Entry] {
        guard let places, places.count != entries.count else { return entries }
        // Rare (a file with a key twice): keep each key's last entry.
        return entries.indices.compactMap { places[ExactKey(entries[$0].key)] == $0 ? entries[$0] : nil }
    }

    /// These entries in their order, each key `new` also has given `combine(old, new)`,
    /// then `new`'s other keys in theirs; as setting `new`'s keys one by one would, but in
    /// time linear in both (one at a time, each set searches the dictionary: a
    /// 100,000-key import would take minutes). Keys are compared as bytes, as everywhere.
    package func overlaid(by new: PlistDictionary, combine: (PlistValue, PlistValue) -> PlistValue)
        -> PlistDictionary
    {
        // Into nothing, `new` is the result as it is (a repeated key's last entry counts in
        // both): a 100,000-key import into a new domain does not sort it to drop repeats.
        if isEmpty { return new }
        var merged = PlistDictionary()
        merged.reserveCapacity(count + new.count)
        for entry in uniqueEntries {
            merged.append(key: entry.key, value: new[entry.key].map { combine(entry.value, $0) } ?? entry.value)
        }
        for entry in new.uniqueEntries where place(of: entry.key) == nil {
            merged.append(key: entry.key, value: entry.value)
        }
        return merged
    }

    /// True when keys are already in order with no duplicates, the common case for a
    /// file written by us or by Apple; then sorting is skipped.
    package var isStrictlySorted: Bool { places == nil || Self.inOrder(entries[...]) }
}

extension PlistDictionary: CustomReflectable {
    /// Its entries alone, as printed: the table of their places is how keys are found, not
    /// what the dictionary holds, and its order changes from one run to the next.
    public var customMirror: Mirror { Mirror(self, children: ["entries": entries], displayStyle: .struct) }
}

extension PlistDictionary: Equatable {
    /// The same keys with equal values, in any order.
    public static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        guard a.count == b.count else { return false }
        if a.places == nil, b.places == nil { return a.entries == b.entries }
        // One lookup per key, no sort.
        return a.uniqueEntries.allSatisfy { entry in b.place(of: entry.key).map { b.entries[$0] == entry } ?? false }
    }
}

/// Keys are compared as bytes: Swift's `==` treats canonically equivalent strings as
/// equal, but a plist keeps "é" and "e\u{301}" as two keys. (Inlinable, as the next: every
/// layer above compares keys in its loops.)
@inlinable @inline(__always)
package func sameKey(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { pa in b.withUTF8 { pb in bytesEqual(pa.span, pb.span) } }
}

/// Code-point order, which for UTF-8 is byte order.
@inlinable @inline(__always)
package func byteOrderPrecedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { pa in b.withUTF8 { pb in bytesPrecede(pa.span, pb.span) } }
}

/// Whether `a`'s bytes sort before `b`'s, compared eight at a time: every sort and
/// order check of a big domain's keys runs this, and the generic comparison, byte by
/// byte, cost 2-4% of reading, writing or turning one into text.
@inlinable @inline(__always)
package func bytesPrecede(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
    let n = min(a.count, b.count)
    var i = 0
    while i + 8 <= n {
        let x = a.word(at: i).byteSwapped, y = b.word(at: i).byteSwapped
        if x != y { return x < y }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return a[i] < b[i] }
        i += 1
    }
    return a.count < b.count
}

/// Whether `a` and `b` hold the same bytes, compared eight at a time (the generic
/// `elementsEqual` goes byte by byte).
@inlinable @inline(__always)
package func bytesEqual(_ a: Span<UInt8>, _ b: Span<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    var i = 0
    while i + 8 <= a.count {
        if a.word(at: i) != b.word(at: i) { return false }
        i += 8
    }
    while i < a.count {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}

extension PlistDictionary: ExpressibleByDictionaryLiteral {
    /// A dictionary literal: `["volume": 50]`.
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self.init(entries: elements.map { Entry(key: $0.0, value: $0.1) })
    }
}

extension PlistDictionary {
    /// The desktop's JSON tag: `{"$gvariant": TEXT}` holds a GVariant value with no
    /// property-list twin (a `nothing`, a `uint32` where no schema says the type) as its
    /// text. In the value model it is this one-key dictionary, which JSON writes and reads
    /// as itself, not inside `$dict`.
    package static let gvariantTag = "$gvariant"

    /// Whether an entry is the desktop's tag: the key `$gvariant` and a string.
    package static func isGVariantTag(_ entry: Entry) -> Bool {
        if case .string = entry.value { return entry.key == gvariantTag }
        return false
    }
}
