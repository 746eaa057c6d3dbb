import PlistModel

/// Changes to a domain's top-level keys made one at a time, read back as they are made, and
/// set in the domain in one pass at the end (`PlistDictionary.updating`): a desired state or
/// a filter that removes thousands of keys one by one would move the entries after each
/// removed key, once per key.
struct TopLevelEdits {
    /// The domain the edits start from.
    let base: PlistDictionary
    /// Each key changed, once, in the order first changed, with its value now (nil: removed).
    private(set) var changes: [(key: String, value: PlistValue?)] = []
    /// Where each changed key is in `changes`, by its bytes.
    private var slots: [ExactKey: Int] = [:]

    /// No edit yet of `base`.
    init(_ base: PlistDictionary) { self.base = base }

    /// The value of `key` with the edits so far; setting it records an edit.
    subscript(key: String) -> PlistValue? {
        get {
            guard let slot = slots[ExactKey(key)] else { return base[key] }
            return changes[slot].value
        }
        set {
            if let slot = slots[ExactKey(key)] {
                changes[slot].value = newValue
            } else {
                slots[ExactKey(key)] = changes.count
                changes.append((key, newValue))
            }
        }
    }

    /// `base` with every edit made.
    var result: PlistDictionary { changes.isEmpty ? base : base.updating(changes) }
}
