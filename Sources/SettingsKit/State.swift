import PlistModel

/// What a `Settings` keeps between reads.
struct State: ~Copyable {
    var own: DomainCache?
    var global: DomainCache?
    /// Wrong-type values already reported, so each is reported once.
    var reported: Set<ReportedValue> = []
    /// Big files whose first read was a one-key lookup, by their paths' bytes.
    var lookedUp: Set<ExactKey> = []
    /// The administrator's layers of the domain and of the global domain.
    var ownLayers: LayerCache?
    var globalLayers: LayerCache?
    /// Administrators' files already reported as unusable, so each is reported once.
    var reportedLayers: Set<String> = []
}
