import SettingsStore

/// An administrator's layers of one domain, as last read, and when (see `Settings.layers`).
struct LayerCache {
    /// The files looked at (`DomainStore.adminCandidates`), fixed for the store's life.
    let candidates: [String]
    let layers: AdminLayers
    /// When, in the folder watch's history, the files were known to be as read; nil when
    /// one of their folders cannot be watched (then they are read every time).
    let checkedAt: UInt64?
}
