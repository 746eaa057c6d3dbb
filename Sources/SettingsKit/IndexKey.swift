/// An array position as a coding key, for coding paths.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { guard let i = Int(stringValue) else { return nil }; intValue = i }
}
