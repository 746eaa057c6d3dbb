extension TypeTable {
    /// The type flag a word that is not one seems meant to be: the closest flag within
    /// two edits, ignoring case (`-interger` → `-integer`, `-BOOL` → `-bool`), or nil.
    /// In a value position such a word is still a value, as in defaults; this only names
    /// the flag for a warning, so a typo never passes unnoticed.
    public static func flag(resembling word: String) -> String? {
        let bytes = Array(word.lowercased().utf8)
        guard bytes.first == UInt8(ascii: "-"), row(forFlag: word) == nil else { return nil }
        var best: (flag: String, distance: Int)?
        for flag in allFlags {
            let distance = editDistance(bytes, Array(flag.utf8), limit: 2)
            if distance <= 2, distance < best?.distance ?? .max { best = (flag, distance) }
        }
        return best?.flag
    }

    /// Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`.
    private static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), previous[j] + 1, current[j - 1] + 1)
            }
            if current.min()! > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
