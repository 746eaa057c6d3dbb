import PlistModel
import SettingsStore

/// `write --json` and `import --json` without `--exact`: an integer from JSON that lands
/// where a real was stays a real, since `jq` prints `1.0` as `1`. A command-line policy,
/// so it lives with the command line.
enum JSONIntegers {
    /// `new` with each integer that lands where `old` holds a real made a real of the
    /// same width, key by key and index by index: a `jq` that prints `1.0` as `1` does
    /// not turn a real setting into an integer.
    static func keepingReals(_ new: PlistValue, where old: PlistValue?) -> PlistValue {
        switch (new, old) {
        case (.int(let i), .double?): return .double(i.doubleValue)
        case (.int(let i), .float?): return .float(Float(i.doubleValue))
        case (.dict(let dict), .dict(let before)?):
            if before.isEmpty { return new }
            if dict.isStrictlySorted {
                // Both in key order, the usual case: one walk, no hashing.
                let previous = before.sortedEntries
                var j = 0
                return .dict(
                    PlistDictionary(
                        entries: dict.entries.map { entry in
                            while j < previous.count, byteOrderPrecedes(previous[j].key, entry.key) { j += 1 }
                            let old =
                                j < previous.count && sameKey(previous[j].key, entry.key) ? previous[j].value : nil
                            return .init(key: entry.key, value: keepingReals(entry.value, where: old))
                        }))
            }
            // One lookup per key, by its bytes (the dictionary's own, hashed or sorted).
            return .dict(
                PlistDictionary(
                    entries: dict.entries.map { entry in
                        .init(key: entry.key, value: keepingReals(entry.value, where: before[entry.key]))
                    }))
        case (.array(let items), .array(let before)?):
            return .array(items.indices.map { keepingReals(items[$0], where: $0 < before.count ? before[$0] : nil) })
        default: return new
        }
    }
}
