/// What a round did, for the verb to print.
public struct SyncReport: Sendable {
    /// Domains whose content in the repository this round changed (this machine's
    /// changes, carried).
    public internal(set) var exported: [String] = []
    /// Domains whose live file this round changed (other machines' changes).
    public internal(set) var imported: [String] = []
    /// One line per value that lost a conflict (also appended to the log).
    public internal(set) var conflicts: [String] = []
    /// One line per thing left as it was: a key this machine's schema refuses, a file of
    /// the repository that is no domain or does not parse, a live domain that could not
    /// be read or written. The round went on with everything else.
    public internal(set) var notes: [String] = []
    /// Nothing changed on either side since the last round: no tree was read.
    public internal(set) var idle = false
    /// The remote's history no longer holds the commit this machine last agreed with (it
    /// was force-pushed over, or its branch deleted): the round merged with an empty base,
    /// as a machine joining does, so nothing the new history lacks was taken for removed.
    public internal(set) var rewritten = false
    /// Pushes tried (more than one when other machines pushed first).
    public internal(set) var attempts = 0
    /// A domain could not be applied: the next round must look again, whatever changed.
    var unsettled = false
    /// Domains with a value this machine's schema refused (kept as it is here).
    var refused: Set<String> = []
    /// The desktop's domains could not be listed: none is taken for removed here.
    var desktopUnread = false
}
