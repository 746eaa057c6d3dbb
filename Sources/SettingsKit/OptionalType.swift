/// An optional's wrapped type, found at run time.
protocol OptionalType { static var wrappedType: Any.Type { get } }
extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
