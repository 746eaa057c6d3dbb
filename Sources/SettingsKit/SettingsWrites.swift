/// How a `Settings` writes.
public enum SettingsWrites: Sendable, Equatable {
    /// Every `set` is one locked, atomic, durable write when it returns (the default).
    case durable
    /// `set`s within a short window (50 ms) are gathered into one locked write: reads in
    /// this process see them at once, observers hear them at once, `flush()` makes them
    /// durable, and they are flushed at normal exit. `modify`, `batch` and `reset` flush
    /// first and stay one locked read-modify-write across processes. For bursts: a
    /// thousand `set`s cost about one write, as `UserDefaults`' do.
    case coalesced
}
