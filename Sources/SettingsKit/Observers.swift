import PlistModel

struct Observers: ~Copyable {
    var nextID = 0
    var handlers: [Int: Handler] = [:]
    /// Per key, what handlers last heard (`.some(nil)`: removed).
    var lastDelivered: [ExactKey: PlistValue?] = [:]
    var watcher: WatcherThread?
}
