import PlistCodecs
import SettingsStore

struct Handler: Sendable {
    /// The key observed, or nil for the whole domain.
    let name: ExactKey?
    let call: @Sendable ([String]) -> Void
}
