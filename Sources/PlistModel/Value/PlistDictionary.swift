/// The keys and values of a dictionary, in the order they were read or set.
///
/// Stored as a flat list rather than a hash table: a domain is read, changed in one
/// place and written once, so hashing every key of a big domain would be wasted work.
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
        public static func == (a: Entry, b: Entry) -> Bool {
            a.key.utf8.elementsEqual(b.key.utf8) && a.value == b.value
        }
    }

    /// In insertion order; may hold a key more than once (the last one counts).
    public private(set) var entries: [Entry]

    /// An empty dictionary.
    public init() { entries = [] }
    /// A dictionary of `entries` in this order; a repeated key's last value wins on lookup.
    public init(entries: [Entry]) { self.entries = entries }

    /// Whether there is no entry.
    public var isEmpty: Bool { entries.isEmpty }

    /// The number of distinct keys.
    public var count: Int { sortedEntries.count }

    /// The keys in byte order, each once.
    public var keys: [String] { sortedEntries.map(\.key) }

    package mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

    /// Appends without looking for an earlier entry of the same key (readers use this;
    /// `sortedEntries` resolves duplicates).
    package mutating func append(key: String, value: PlistValue) {
        entries.append(Entry(key: key, value: value))
    }

    /// Where `key` is or would go in these entries, when they are sorted with no key twice
    /// (`isStrictlySorted`): a binary search, not `subscript`'s pass over every entry.
    package func sortedPlace(of key: String) -> (index: Int, found: Bool) {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if byteOrderPrecedes(entries[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        return (low, low < entries.count && sameKey(entries[low].key, key))
    }

    /// Sets, inserts or (nil) removes the entry at `index`, keeping the others in place.
    package mutating func setEntry(at index: Int, found: Bool, key: String, value: PlistValue?) {
        switch (found, value) {
        case (true, let value?): entries[index].value = value
        case (true, nil): entries.remove(at: index)
        case (false, let value?): entries.insert(Entry(key: key, value: value), at: index)
        case (false, nil): break
        }
    }

    /// Appends another dictionary's entries after these, as they are (a reader reading
    /// one file in two halves joins them so).
    package mutating func append(contentsOf other: PlistDictionary) {
        entries.append(contentsOf: other.entries)
    }

    /// The value for `key`; setting nil removes it, setting a new key appends it.
    ///
    ///     var d: PlistDictionary = ["a": 1]; d["b"] = 2; d.keys   //=> ["a", "b"]
    public subscript(key: String) -> PlistValue? {
        get {
            var i = entries.count
            while i > 0 {
                i -= 1
                if sameKey(entries[i].key, key) { return entries[i].value }
            }
            return nil
        }
        set {
            guard let newValue else { removeValue(forKey: key); return }
            var found = false
            var i = entries.count
            while i > 0 {
                i -= 1
                guard sameKey(entries[i].key, key) else { continue }
                if found { entries.remove(at: i) } else { entries[i].value = newValue; found = true }
            }
            if !found { entries.append(Entry(key: key, value: newValue)) }
        }
    }

    /// Removes every entry of `key`; returns the value that counted, if any.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PlistValue? {
        let old = self[key]
        if old != nil { entries.removeAll { sameKey($0.key, key) } }
        return old
    }

    /// One entry per key, the last one read, sorted by the keys' code points: the
    /// order Apple's writers and `defaults read` use.
    public var sortedEntries: [Entry] {
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

    /// One entry per key in the order the keys were read or set, each with the value
    /// that counts: the domain's own order, as JSON output keeps it.
    public var uniqueEntries: [Entry] {
        if sortedEntries.count == entries.count { return entries }
        // Rare (a file with a key twice): keep each key's last entry.
        var seen = Set<[UInt8]>()
        var unique: [Entry] = []
        for entry in entries.reversed() where seen.insert(Array(entry.key.utf8)).inserted { unique.append(entry) }
        return unique.reversed()
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
        let incoming = new.uniqueEntries
        var byKey: [[UInt8]: PlistValue] = [:]
        byKey.reserveCapacity(incoming.count)
        for entry in incoming { byKey[Array(entry.key.utf8)] = entry.value }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + incoming.count)
        var placed = Set<[UInt8]>()
        for entry in uniqueEntries {
            let key = Array(entry.key.utf8)
            guard let value = byKey[key] else {
                merged.append(entry)
                continue
            }
            merged.append(.init(key: entry.key, value: combine(entry.value, value)))
            placed.insert(key)
        }
        for entry in incoming where !placed.contains(Array(entry.key.utf8)) { merged.append(entry) }
        return PlistDictionary(entries: merged)
    }

    /// True when keys are already in order with no duplicates, the common case for a
    /// file written by us or by Apple; then sorting is skipped.
    package var isStrictlySorted: Bool {
        guard entries.count > 1 else { return true }
        for i in 1..<entries.count where !byteOrderPrecedes(entries[i - 1].key, entries[i].key) {
            return false
        }
        return true
    }
}

extension PlistDictionary: Equatable {
    /// The same keys with equal values, in any order.
    public static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        // Only an empty dictionary equals an empty one: no need to sort the other.
        if a.entries.isEmpty || b.entries.isEmpty { return a.entries.isEmpty == b.entries.isEmpty }
        return a.sortedEntries == b.sortedEntries
    }
}

/// Keys are compared as bytes: Swift's `==` treats canonically equivalent strings as
/// equal, but a plist keeps "é" and "e\u{301}" as two keys. (Inlinable, as the next: every
/// layer above compares keys in its loops.)
@inlinable @inline(__always)
package func sameKey(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { pa in b.withUTF8 { pb in bytesEqual(pa, pb) } }
}

/// Code-point order, which for UTF-8 is byte order.
@inlinable @inline(__always)
package func byteOrderPrecedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { pa in b.withUTF8 { pb in bytesPrecede(pa, pb) } }
}

/// Whether `a`'s bytes sort before `b`'s, compared eight at a time: every sort and
/// order check of a big domain's keys runs this, and the generic comparison, byte by
/// byte, cost 2-4% of reading, writing or turning one into text.
@inlinable @inline(__always)
package func bytesPrecede(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = min(a.count, b.count)
    var i = 0
    while i + 8 <= n {
        let x = UnsafeRawPointer(a.baseAddress! + i).loadUnaligned(as: UInt64.self).bigEndian
        let y = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self).bigEndian
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
package func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    var i = 0
    while i + 8 <= a.count {
        let x = UnsafeRawPointer(a.baseAddress! + i).loadUnaligned(as: UInt64.self)
        let y = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
        if x != y { return false }
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
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }
}
