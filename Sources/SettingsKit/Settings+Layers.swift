import PlistModel
import PlistCodecs
import SettingsStore

extension Settings {
    /// A domain's machine-wide layers (`AdminLayers`), read again only when one of their
    /// files (or folders) changed, as the domain's own cache is. A file that cannot be used
    /// is reported to `errorHandler` once, as a store error. `drained`: the caller has
    /// just called `FolderWatch.drain()`.
    func layers(_ name: DomainName, _ host: DomainHost, drained: Bool = false) -> AdminLayers {
        let isOwn = name == domain
        let known = state.withLock { isOwn ? $0.ownLayers : $0.globalLayers }
        let candidates = known?.candidates ?? store.adminCandidates(of: name, host: host)
        if candidates.isEmpty { return .none }
        var checkedAt: UInt64? = nil
        var unchanged = true
        for (index, path) in candidates.enumerated() {
            let (same, now) = FolderWatch.check(path, since: known?.checkedAt, drain: !drained && index == 0)
            if index == 0 { checkedAt = now } else if now == nil { checkedAt = nil }
            unchanged = unchanged && same
        }
        if unchanged, let known { return known.layers }
        let layers = store.adminLayers(of: name, host: host)
        for warning in layers.warnings {
            let first = state.withLock { $0.reportedLayers.insert(warning.message).inserted }
            if first, case .unusable(let error) = warning { errorHandler(.store(error)) }
        }
        let cache = LayerCache(candidates: candidates, layers: layers, checkedAt: checkedAt)
        state.withLock { state in if isOwn { state.ownLayers = cache } else { state.globalLayers = cache } }
        return layers
    }
}
