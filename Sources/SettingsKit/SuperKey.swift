/// The key Foundation stores a `superEncoder()`'s value under.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}
