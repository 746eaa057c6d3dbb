import PlistModel
import SettingsStore

/// A value being built; a class so that nested containers fill their parent in place.
final class EncodedNode {
    enum Kind { case empty, value(PlistValue), dict([(String, EncodedNode)]), array([EncodedNode]) }
    var kind: Kind
    /// For a dictionary, each key's place in its entries, by the key's bytes.
    var places: [ExactKey: Int] = [:]
    /// A key under which a keyed and an unkeyed container were both asked for, and its
    /// coding path. Foundation traps on it; here the encoding throws, so the write is refused
    /// and what is stored stays.
    var conflict: (key: String, path: [any CodingKey])?

    init(_ kind: Kind = .empty) { self.kind = kind }

    /// The value built, or the conflict found in it.
    func value() throws -> PlistValue {
        if let (key, path) = conflict {
            throw EncodingError.invalidValue(
                key,
                .init(
                    codingPath: path,
                    debugDescription: "a keyed and an unkeyed container were both encoded under '\(key)'"))
        }
        switch kind {
        case .empty: return .dict([:])  // a value that encoded nothing, as Foundation stores it
        case .value(let v): return v
        case .dict(let entries):
            var dict = PlistDictionary()
            dict.reserveCapacity(entries.count)
            for (key, child) in entries { dict.append(key: key, value: try child.value()) }
            return .dict(dict)
        case .array(let items): return .array(try items.map { try $0.value() })
        }
    }
}
