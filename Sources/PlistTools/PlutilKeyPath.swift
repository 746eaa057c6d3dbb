import PlistModel

/// A key path as `plutil` takes one: keys joined by `.`, `\.` a dot inside a key, and a
/// number naming an array's element (`CFBundleURLTypes.0.CFBundleURLSchemes`). Unlike
/// a JSON Pointer (`PlistKeyPath`) it cannot name every key: a key ending in `\` or
/// holding `\.` itself has no spelling, as in Apple's plutil.
package struct PlutilKeyPath: Sendable, Equatable {
    /// The path as typed, for messages.
    package let text: String
    package let components: [String]

    package init(_ text: String) {
        self.text = text
        components = KeySplitting.split(Array(text.utf8)[...], at: UInt8(ascii: "."), escapingAny: false)
    }

    /// The value the path names in `root`, or nil: a missing key, an index that is no
    /// number or out of range, or a scalar in the way. An empty key names nothing.
    package func value(in root: PlistValue) -> PlistValue? {
        KeySplitting.value(at: components, in: root, emptyNamesNothing: true)
    }

    /// Whether the path's last key is an index into an array that is there: where
    /// `-replace` inserts rather than replaces.
    package func namesArrayElement(in root: PlistValue) -> Bool {
        guard case .array? = KeySplitting.value(at: Array(components.dropLast()), in: root, emptyNamesNothing: true)
        else {
            return false
        }
        return Int(components.last ?? "") != nil
    }

    /// `root` with `value` put at the path. The last key of a dictionary is set (when
    /// `replacing`, or when it is absent; `appending` adds to the array there instead);
    /// an array's last index inserts before that element, or appends at its count. Every
    /// key before the last must be there. Apple's plutil, even `-replace` on an index.
    package func inserting(_ value: PlistValue, into root: PlistValue, replacing: Bool, appending: Bool)
        throws(PlutilError) -> PlistValue
    {
        try insert(value, into: root, at: components[...], replacing: replacing, appending: appending)
    }

    private func insert(
        _ value: PlistValue, into node: PlistValue, at keys: ArraySlice<String>, replacing: Bool, appending: Bool
    ) throws(PlutilError) -> PlistValue {
        guard let key = keys.first else { throw .keyPathNotFound(text) }
        let last = keys.count == 1
        switch node {
        case .dict(var dict):
            let existing = dict[key]
            if !last {
                guard let existing else { throw .keyPathNotFound(text) }
                dict[key] = try insert(
                    value, into: existing, at: keys.dropFirst(), replacing: replacing, appending: appending)
            } else if replacing || existing == nil {
                dict[key] = value
            } else if appending {
                guard case .array(var items)? = existing else { throw .appendingToNonArray(text) }
                items.append(value)
                dict[key] = .array(items)
            } else {
                throw .valueExists(text)
            }
            return .dict(dict)
        case .array(var items):
            guard let i = Self.index(key) else { throw .notAnIndex(text) }
            if !last {
                guard items.indices.contains(i) else { throw .indexOutOfBounds(i, text) }
                items[i] = try insert(
                    value, into: items[i], at: keys.dropFirst(), replacing: replacing, appending: appending)
            } else if appending {
                // Apple's port reads the element before checking the index; macOS says so.
                guard items.indices.contains(i), case .array(var inner) = items[i] else {
                    throw .appendingToNonArray(text)
                }
                inner.append(value)
                items[i] = .array(inner)
            } else if (0...items.count).contains(i) {
                items.insert(value, at: i)
            } else {
                throw .indexOutOfBounds(i, text)
            }
            return .array(items)
        default:
            throw .cannotInsert(text)
        }
    }

    /// `root` without the value at the path; nil when the path is empty-keyed at the top
    /// (the whole document would go). Throws when there is no value there.
    package func removing(from root: PlistValue) throws(PlutilError) -> PlistValue {
        try remove(from: root, at: components[...])
    }

    private func remove(from node: PlistValue, at keys: ArraySlice<String>) throws(PlutilError) -> PlistValue {
        guard let key = keys.first, !key.isEmpty else { throw .nothingToRemove(text) }
        let last = keys.count == 1
        switch node {
        case .dict(var dict):
            guard let existing = dict[key] else { throw .nothingToRemove(text) }
            dict[key] = last ? nil : try remove(from: existing, at: keys.dropFirst())
            return .dict(dict)
        case .array(var items):
            guard let i = Self.index(key), items.indices.contains(i) else { throw .nothingToRemove(text) }
            if last {
                items.remove(at: i)
            } else {
                items[i] = try remove(from: items[i], at: keys.dropFirst())
            }
            return .array(items)
        default:
            throw .nothingToRemove(text)
        }
    }

    /// An array index as Swift's `Int(String)` reads one (`+1` and `-0` included, as
    /// Apple's plutil takes them); nil for any other text.
    static func index(_ key: String) -> Int? { Int(key) }
}
