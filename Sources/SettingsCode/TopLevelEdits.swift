import PlistModel

/// Changes to a domain's top-level keys made one at a time, read back as they are made, and
/// set in the domain in one pass at the end (`PlistDictionary.updating(placed:)`): a desired
/// state or a filter that removes thousands of keys one by one would move the entries after
/// each removed key, once per key. Each key is looked for in the domain once, and a key the
/// domain has is known by its place there, not hashed.
struct TopLevelEdits {
    /// The domain the edits start from, each key once.
    let base: PlistDictionary
    /// Each key changed, once, in the order first changed: its place in `base` (nil: a new
    /// key) and its value now (nil: removed).
    private var changes: [PlistDictionary.PlacedChange] = []
    /// Per place in `base`, where its key's change is in `changes`, or -1; made at the first
    /// change of a key `base` has.
    private var slotOfPlace: [Int] = []
    /// Where each new key's change is, by its bytes.
    private var newSlots: [ExactKey: Int] = [:]

    /// No edit yet of `base` (a key it holds twice keeps only its last value).
    init(_ base: PlistDictionary) {
        self.base = base.entries.count == base.count ? base : PlistDictionary(entries: base.uniqueEntries)
    }

    /// Changes the value of `key` (nil: it has none, or removes it) as the edits so far left it.
    mutating func edit<E: Error>(_ key: String, _ body: (inout PlistValue?) throws(E) -> Void) throws(E) {
        let slot: Int
        if let place = base.place(of: key) {
            if slotOfPlace.isEmpty { slotOfPlace = Array(repeating: -1, count: base.entries.count) }
            if slotOfPlace[place] < 0 {
                slotOfPlace[place] = changes.count
                changes.append(.init(key: key, place: place, value: base.entries[place].value))
            }
            slot = slotOfPlace[place]
        } else if let known = newSlots[ExactKey(key)] {
            slot = known
        } else {
            slot = changes.count
            newSlots[ExactKey(key)] = slot
            changes.append(.init(key: key, place: nil, value: nil))
        }
        try body(&changes[slot].value)
    }

    /// `base` with every edit made.
    var result: PlistDictionary { changes.isEmpty ? base : base.updating(placed: changes) }
}
