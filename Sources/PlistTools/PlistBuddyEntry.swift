import PlistModel

/// An entry as PlistBuddy names one: keys joined by `:` (the first `:` may be left out),
/// a number naming an array's element, and, for `Add`, a trailing `:` naming the place
/// after an array's last element (`:CFBundleDocumentTypes:`). A backslash keeps the next
/// character in the key (`\:` is a colon in a key).
package struct PlistBuddyEntry: Sendable, Equatable {
    /// The entry as typed, for messages.
    package let text: String
    /// The keys from the root; empty for the root itself.
    package let components: [String]

    package init(_ text: String) {
        self.text = text
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: ":") { bytes.removeFirst() }
        components = bytes.isEmpty ? [] : KeySplitting.split(bytes, at: UInt8(ascii: ":"), escapingAny: true)
    }

    /// The value at the entry in `root`, or nil.
    package func value(in root: PlistValue) -> PlistValue? {
        KeySplitting.value(at: components, in: root, emptyNamesNothing: false)
    }

    /// How `change` treats the entry's last key: set or remove a value there.
    package enum Change {
        /// `Add`: the entry must not be there (missing dictionaries on its way are made); an
        /// array index inserts, an empty last key appends.
        case add(PlistValue)
        /// `Set`, `Import`: the value there is replaced (it must be there unless `creating`).
        case set(PlistValue, creating: Bool)
        case delete
    }

    /// `root` changed at the entry; nil when the entry, or the place before it, is not there
    /// (or, for `add`, when it is).
    package func changing(_ root: PlistValue, _ change: Change) -> PlistValue? {
        guard !components.isEmpty else {
            if case .set(let value, _) = change { return value }
            return nil
        }
        return apply(change, to: root, at: components[...])
    }

    private func apply(_ change: Change, to node: PlistValue, at keys: ArraySlice<String>) -> PlistValue? {
        let key = keys.first!
        let last = keys.count == 1
        switch node {
        case .dict(var dict):
            if !last {
                // `Add` makes the dictionaries on its way, as PlistBuddy does (React Native's
                // `Add NSAppTransportSecurity:NSExceptionDomains:host:… bool true`).
                var inner = dict[key]
                if inner == nil, case .add = change { inner = .dict([:]) }
                guard let inner, let changed = apply(change, to: inner, at: keys.dropFirst()) else { return nil }
                dict[key] = changed
                return .dict(dict)
            }
            switch change {
            case .add(let value):
                guard dict[key] == nil else { return nil }
                dict[key] = value
            case .set(let value, let creating):
                guard dict[key] != nil || creating else { return nil }
                dict[key] = value
            case .delete:
                guard dict.removeValue(forKey: key) != nil else { return nil }
            }
            return .dict(dict)
        case .array(var items):
            if last, key.isEmpty, case .add(let value) = change {
                items.append(value)
                return .array(items)
            }
            guard let i = Int(key) else { return nil }
            if !last {
                guard items.indices.contains(i), let changed = apply(change, to: items[i], at: keys.dropFirst()) else {
                    return nil
                }
                items[i] = changed
                return .array(items)
            }
            switch change {
            case .add(let value):
                guard (0...items.count).contains(i) else { return nil }
                items.insert(value, at: i)
            case .set(let value, _):
                guard items.indices.contains(i) else { return nil }
                items[i] = value
            case .delete:
                guard items.indices.contains(i) else { return nil }
                items.remove(at: i)
            }
            return .array(items)
        default:
            return nil
        }
    }
}
