import PlistModel
/// Paths as JSON sees them: `--path-json`'s jq path arrays, and a path taken from the
/// exported JSON, which may step into a value's tag. Here, above the value layer, since
/// both need the JSON codec.
extension PlistKeyPath {
    /// A path as `jq`'s `path(…)` prints it: a JSON array of keys (strings) and indexes
    /// (integers), such as `["window","frame",0]`.
    package init(json text: String) throws(KeyPathError) {
        let value: PlistValue
        do { value = try JSONReader.read(Array(text.utf8)) } catch { throw .notAJSONPath(text) }
        guard case .array(let items) = value else { throw .notAJSONPath(text) }
        var segments: [String] = []
        for item in items {
            switch item {
            case .string(let key): segments.append(key)
            case .int(let i) where !i.isNegative && !i.isUnsigned: segments.append(i.description)
            default: throw .notAJSONPath(text)
            }
        }
        try Self.checkDepth(segments.count)
        self.init(segments)
    }

    /// Like `value(inside:)`, but a segment may also step into a value's JSON tag, as
    /// a path taken from the exported JSON does: `/when/$date` is the date's text.
    package func jsonValue(inside root: PlistValue) -> PlistValue? {
        var value = root
        for segment in segments {
            guard let next = Self.step(value, segment) ?? JSONWriter.tagContents(value, segment) else { return nil }
            value = next
        }
        return value
    }
}
