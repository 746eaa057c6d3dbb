import PlistModel

/// A key's name as a key-path index, compared as bytes.
struct TrackedName: Hashable, Sendable {
    let key: ExactKey
    init(_ name: String) { key = ExactKey(name) }
}
