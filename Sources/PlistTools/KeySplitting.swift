import PlistModel

/// What the two tools' key paths share: text split into keys at a separator, with a
/// backslash escape, and the walk down a value by those keys.
enum KeySplitting {
    /// `text` split at `separator`, a backslash keeping the next byte in the key: any byte
    /// (PlistBuddy's `\:`), or only the separator (plutil's `\.`, where `a\b` stays).
    static func split(_ text: ArraySlice<UInt8>, at separator: UInt8, escapingAny: Bool) -> [String] {
        var components: [String] = [], current: [UInt8] = []
        var bytes = text
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "\\"), let next = bytes.first, escapingAny || next == separator {
                current.append(next)
                bytes.removeFirst()
            } else if byte == separator {
                components.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                current.append(byte)
            }
        }
        components.append(String(decoding: current, as: UTF8.self))
        return components
    }

    /// The value `keys` name in `root`: a dictionary's key, an array's index (as Swift's
    /// `Int` reads one); nil for anything missing, an empty key when `emptyNamesNothing`.
    static func value(at keys: [String], in root: PlistValue, emptyNamesNothing: Bool) -> PlistValue? {
        var node = root
        for key in keys {
            if emptyNamesNothing, key.isEmpty { return nil }
            switch node {
            case .dict(let dict):
                guard let next = dict[key] else { return nil }
                node = next
            case .array(let items):
                guard let i = Int(key), items.indices.contains(i) else { return nil }
                node = items[i]
            default: return nil
            }
        }
        return node
    }
}
