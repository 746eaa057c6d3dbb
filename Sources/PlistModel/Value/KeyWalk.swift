extension PlistDictionary {
    /// Visits every key of the dictionaries once, in byte order, with each one's value
    /// for it (nil where it has none): one pass over their sorted entries, so merging or
    /// comparing two 100,000-key domains costs a sort at most, never a lookup per key.
    ///
    ///     PlistDictionary.walk([["a": 1], ["a": 2, "b": 3]]) { key, values in … }
    ///     // "a", [1, 2]; then "b", [nil, 3]
    package static func walk(
        _ dictionaries: [PlistDictionary], _ body: (String, [PlistValue?]) throws -> Void
    ) rethrows {
        let sorted = dictionaries.map(\.sortedEntries)
        var at = [Int](repeating: 0, count: sorted.count)
        var values = [PlistValue?](repeating: nil, count: sorted.count)
        while true {
            // The least key at the heads.
            var least: String? = nil
            for (i, entries) in sorted.enumerated() where at[i] < entries.count {
                let key = entries[at[i]].key
                if least == nil || byteOrderPrecedes(key, least!) { least = key }
            }
            guard let key = least else { return }
            for (i, entries) in sorted.enumerated() {
                if at[i] < entries.count, sameKey(entries[at[i]].key, key) {
                    values[i] = entries[at[i]].value
                    at[i] += 1
                } else {
                    values[i] = nil
                }
            }
            try body(key, values)
        }
    }
}
