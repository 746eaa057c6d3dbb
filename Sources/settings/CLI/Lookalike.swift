import PlistModel
import SettingsStore

/// What a mistyped word was most likely meant to be: a verb (`wirte` → "did you mean
/// write?") or a type flag in a value's place (`-interger` → a warning naming -integer,
/// the word still stored as the value, as defaults stores it).
enum Lookalike {
    /// The candidate closest to `word` within two edits, ignoring case; the first of
    /// equally close ones; nil when none is that close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased().utf8)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(typed, Array(candidate.utf8), limit: 2)
            if d <= 2, d < best?.distance ?? .max { best = (candidate, d) }
        }
        return best?.candidate
    }

    /// Levenshtein distance, with a transposition counted as one edit (`wirte`), or
    /// `limit + 1` as soon as it must exceed `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
            if rows[i].min()! > limit { return limit + 1 }
        }
        return rows[a.count][b.count]
    }
}

extension TypeTable {
    /// The type flag a word that is not one seems meant to be: the closest flag within
    /// two edits, ignoring case (`-interger` → `-integer`, `-BOOL` → `-bool`), or nil.
    /// In a value position such a word is still a value, as in defaults; this only names
    /// the flag for a warning, so a typo never passes unnoticed.
    static func flag(resembling word: String) -> String? {
        guard word.utf8.first == UInt8(ascii: "-"), row(forFlag: word) == nil else { return nil }
        return Lookalike.closest(to: word, among: allFlags)
    }
}
