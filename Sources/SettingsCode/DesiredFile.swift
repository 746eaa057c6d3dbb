import PlistCodecs
import PlistModel
import SettingsStore

/// A desired state as `apply` reads it from a file: either a desired-state file (domain
/// names to the keys they must hold; a key that starts with `/` is a pointer into
/// dictionaries; `null` says a key, or a whole domain, must be absent), or a state file
/// (`snapshot`), which is a restore: each domain it names becomes exactly what it holds,
/// its keys taken as they are (a key `/usr/bin/python3` is one key), and a domain it says
/// is absent (or, for a snapshot of every domain, one it does not name) loses every key.
public struct DesiredFile: Sendable {
    /// The domains and the values the file gives them (nil: the domain must be absent).
    public var state: SettingsState
    /// Whether the file is a state file: a restore, its keys literal.
    public var isSnapshot: Bool
    /// Per domain as the file names it, the keys it sets to `null`, each as the file's
    /// keys from the domain down (one key: a top-level key, or a pointer).
    public var absentKeys: [(domain: String, keys: [String])] = []

    /// A desired state of `state`, with no key set to `null`.
    public init(_ state: SettingsState, isSnapshot: Bool = false) {
        (self.state, self.isSnapshot) = (state, isSnapshot)
    }

    /// Reads a file's bytes (JSON or any property-list format); `name` is used in errors.
    public static func read(_ bytes: [UInt8], name: String) throws -> DesiredFile {
        var nulls: [[String]] = []
        let root = try SettingsState.dictionary(bytes, name: name) { bytes throws(JSONError) in
            try JSONReader.read(bytes, nulls: &nulls)
        }
        if root[SettingsState.marker] != nil {
            guard nulls.isEmpty else {
                throw FormError(path: name, "a state file holds values, never null")
            }
            return DesiredFile(try SettingsState.state(of: root, name: name), isSnapshot: true)
        }
        var file = DesiredFile(SettingsState())
        for entry in root.uniqueEntries {
            guard case .dict(let values) = entry.value else {
                throw StoreError.notADictionary(path: "\(name): \(entry.key)", entry.value.type)
            }
            file.state.domains.append((entry.key, values))
        }
        for path in nulls {
            if path.count == 1 {
                // A domain set to null: every key it has must go.
                if !file.state.names(path[0]) { file.state.domains.append((path[0], nil)) }
            } else {
                file.absentKeys.append((path[0], Array(path.dropFirst())))
            }
        }
        return file
    }
}
