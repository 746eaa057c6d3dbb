import PlistModel
import PlistCodecs
import SettingsStore

/// The `set`s a coalescing `Settings` has not written yet.
struct Pending {
    /// Per key, the value to store (nil: remove it) and the count when it was set.
    var values: [ExactKey: (name: String, value: PlistValue?, generation: UInt64)] = [:]
    var generation: UInt64 = 0
    /// Whether a flush is due (a thread is waiting out the window).
    var scheduled = false
}
