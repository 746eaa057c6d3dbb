import PlistModel

/// Whether a value read from a JSON desired state or snapshot says what a domain holds.
/// The lossless mapping writes a 32-bit real in its shortest digits, which read back as
/// a 64-bit real: a snapshot of `-float 0.1` holds `0.1`, a different double. Applying it
/// must not rewrite the domain's 32-bit real as 64 bits (a key nobody changed would change).
enum JSONSameness {
    /// Whether `json`, read from JSON, is what the mapping writes for `held`.
    static func same(_ json: PlistValue, _ held: PlistValue) -> Bool {
        if json == held { return true }
        switch (json, held) {
        case (.double(let d), .float(let f)), (.float(let f), .double(let d)):
            return Double("\(f)") == d || Double(f) == d || (d.isNaN && f.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dict(let x), .dict(let y)):
            return x.count == y.count
                && x.uniqueEntries.allSatisfy { entry in y[entry.key].map { same(entry.value, $0) } ?? false }
        default: return false
        }
    }
}
