import PlistCodecs
import PlistModel
import SettingsStore

struct Handler: Sendable {
    /// The key observed, or nil for the whole domain.
    let name: ExactKey?
    /// Called with the names of the keys that changed, and the user's values they were
    /// changed to (nil: removed), by their bytes.
    let call: @Sendable ([String], [ExactKey: PlistValue?]) -> Void
}
