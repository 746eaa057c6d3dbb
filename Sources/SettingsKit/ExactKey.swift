/// A dictionary key compared as bytes, as property lists compare keys: Swift's `String`
/// equality would take "é" and "e\u{301}" for one key.
struct ExactKey: Hashable, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (a: Self, b: Self) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
