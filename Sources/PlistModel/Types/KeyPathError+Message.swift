/// What a user reads for each path error: above the value layer, since a type's name
/// ("a string") is the type table's.
extension KeyPathError {
    /// One line for a user, naming the place.
    public var message: String {
        switch self {
        case .noLeadingSlash(let text): "'\(text)' is not a JSON Pointer: it must be empty or start with '/'"
        case .badEscape(let text): "'\(text)' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"
        case .wholeDomain: "the empty pointer names the whole domain; name a key, such as /key"
        case .notAJSONPath(let text):
            "'\(text)' is not a JSON path: give a JSON array of keys and indexes, such as [\"window\",\"frame\",0]"
        case .missingArray(let pointer): "nothing at \(pointer) to hold an element; create \(pointer) with -array first"
        case let .notAContainer(pointer, type):
            "\(pointer) holds \(TypeTable.row(for: type).phrase), not a dictionary or an array"
        case .notAnIndex(let pointer): "\(pointer): an array takes an index (0, 1, ...) or - to append"
        case let .outOfRange(pointer, count):
            "\(pointer) is past the end of an array of \(count) element\(count == 1 ? "" : "s"); use - to append"
        case let .tooDeep(count):
            "a path of \(count) segments is deeper than a property list may nest (\(PlistKeyPath.maximumSegments) levels)"
        }
    }
}
