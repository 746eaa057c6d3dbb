/// A registry entry that does not keep its `Settings` alive.
struct WeakSettings: @unchecked Sendable {
    weak var settings: Settings?
    init(_ settings: Settings) { self.settings = settings }
}
