import Synchronization

/// The model for the delivery closure, set once the model exists, without keeping it alive.
final class WeakModel: Sendable {
    private struct Reference { weak var model: SettingsModel? }
    private let reference = Mutex(Reference())
    var model: SettingsModel? {
        get { reference.withLock { $0.model } }
        set { reference.withLock { $0.model = newValue } }
    }
}
