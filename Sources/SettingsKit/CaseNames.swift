import PlistModel

/// The raw values of an enum's cases, for a message that says which are valid.
enum CaseNames {
    /// Nil unless `type` (or the type an optional wraps) is `CaseIterable` with raw values.
    static func of(_ type: Any.Type) -> [String]? {
        if let optional = type as? any OptionalType.Type { return of(optional.wrappedType) }
        guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        return names(enumeration)
    }

    private static func names<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> [String] {
        T.allCases.map { "\($0.rawValue)" }
    }
}
