import PlistCodecs
import PlistModel

/// One change of a domain, as the journal keeps it: when, who, and each top-level key's
/// old and new value.
public struct JournalEntry: Sendable, Equatable {
    /// Seconds since 1970, UTC.
    public let time: Double
    /// Who changed it: a verb (`settings write`), a program's name, or `outside` for a
    /// change made without the store (Foundation's UserDefaults, an editor), found later.
    public let writer: String
    /// The writer's process id; 0 for an outside change.
    public let pid: Int32
    /// Each key that changed, in key order; empty when the change was too large to keep
    /// (see `valuesKept`).
    public let changes: [KeyChange]
    /// Whether the values were kept: false for a change too large for the journal (its
    /// keys alone, or only their number, `count`), and for an outside change to a file too
    /// large to compare. Such a change cannot be undone.
    public var valuesKept = true
    /// How many keys changed.
    public var count: Int
    /// What the change took back: the entries an `undo` or a `redo` took back.
    public var takenBack: TakenBack?

    /// An entry's identity: its time and its writer's process id (an outside change
    /// found by a write has that write's time, and process id 0).
    public struct ID: Hashable, Sendable {
        /// The entry's time, seconds since 1970.
        public let time: Double
        /// Its writer's process id (0: an outside change).
        public let pid: Int32
        /// The entry at `time` by process `pid`.
        public init(time: Double, pid: Int32) { (self.time, self.pid) = (time, pid) }
    }

    /// The entries a change took back: `undo` takes back changes, `redo` takes back undos.
    public enum TakenBack: Sendable, Equatable {
        /// An undo: the changes it took back.
        case undid([ID])
        /// A redo: the undos it took back.
        case redid([ID])

        /// The entries taken back.
        public var entries: [ID] {
            switch self {
            case .undid(let ids), .redid(let ids): ids
            }
        }

        /// The same, a pending outside change among its entries named as journalled now, at
        /// `time`, in the line just before this change's.
        func naming(pendingAt time: Double) -> Self {
            let named = entries.map { $0.pid == JournalEntry.pendingPID ? ID(time: time, pid: 0) : $0 }
            switch self {
            case .undid: return .undid(named)
            case .redid: return .redid(named)
            }
        }

        /// The journal's key for it.
        var key: String {
            switch self {
            case .undid: "undid"
            case .redid: "redid"
            }
        }
    }

    /// An outside change found now and not journalled yet (`history` shows it last): the
    /// next write journals it, with that write's time, so its identity is not known yet.
    package var pending = false

    /// The process id a pending outside change is named by until it is journalled: the
    /// write that journals it names it by its own time (`Journal.append`).
    static let pendingPID: Int32 = -1

    /// An outside change `history` finds now, shown last and journalled by the next write.
    package static func foundOutside(_ changes: [KeyChange], valuesKept: Bool = true) -> JournalEntry {
        var entry = JournalEntry(
            time: Double(FileSystem.wallClockNanoseconds()) / 1e9, writer: outsideWriter, pid: 0, changes: changes,
            valuesKept: valuesKept)
        entry.pending = true
        return entry
    }

    /// This entry's identity.
    public var id: ID { ID(time: time, pid: pending ? Self.pendingPID : pid) }

    /// An entry; `count` is the number of `changes` unless given.
    package init(
        time: Double, writer: String, pid: Int32, changes: [KeyChange], valuesKept: Bool = true, count: Int? = nil
    ) {
        (self.time, self.writer, self.pid, self.changes) = (time, writer, pid, changes)
        (self.valuesKept, self.count) = (valuesKept, count ?? changes.count)
    }

    /// Whether it was made without the store, and only found later.
    public var isOutside: Bool { writer == JournalEntry.outsideWriter }

    /// The writer an outside change is journalled under.
    public static let outsideWriter = "outside"
}

/// The history of every change made through the store: per domain, one JSON line per
/// change in `stateDirectory/history/NAME.jsonl` (private, 0600), bounded in size and age,
/// and never a reason for a write to fail (a journal that cannot be written is skipped).
///
/// Beside it, `NAME.last` holds the file as the store last left it, written from the
/// pieces the file was written from (no second read), behind a header with its stamp: a domain
/// found different at the next write was changed outside the store, and that change is
/// journalled first, as `outside`, key by key (see `Write`).
package struct Journal: Sendable {
    /// The state folder's parent (`DomainStore.stateRoot`); the journal's files are below
    /// it in `settings/history`, reached only through `StateFile`.
    let root: String
    let maximumBytes: Int
    let maximumAge: Double
    let writer: String
    let takesBack: JournalEntry.TakenBack?

    /// The variables that bound or turn off the journal.
    package static let sizeVariable = "SETTINGS_HISTORY_SIZE", daysVariable = "SETTINGS_HISTORY_DAYS"

    /// The store's journal; nil when `SETTINGS_HISTORY_SIZE` is 0 (off).
    package init?(_ store: DomainStore) {
        let environment = store.environment
        // Nonsense is refused by the command line (`limits`); a library keeps the defaults.
        let (size, days) = (try? Self.limits(in: environment)) ?? (1 << 20, 90)
        guard size > 0 else { return nil }
        root = store.stateRoot
        (maximumBytes, maximumAge) = (size, days * 86400)
        // A change a `watch --exec` command makes is marked, so that watch knows its own.
        writer = (store.writer ?? Self.programName) + (environment[Self.execVariable].map { " (\($0))" } ?? "")
        takesBack = store.takesBack
    }

    /// The journal's size in bytes (0: off) and age in days, from the environment: a
    /// whole number of bytes, and days as `Seconds.parse` reads a number (up to 100 years).
    package static func limits(in environment: Environment) throws(StoreError) -> (Int, Double) {
        var size = 1 << 20, days = 90.0
        if let text = environment[sizeVariable] {
            guard let n = Int(text), n >= 0, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw StoreError.badEnvironment(
                    name: sizeVariable, value: text, expected: "a whole number of bytes (0 turns the journal off)")
            }
            size = n
        }
        if let text = environment[daysVariable] {
            guard let n = Seconds.parse(text, from: 0, upTo: 36_500) else {
                throw StoreError.badEnvironment(name: daysVariable, value: text, expected: "a number of days")
            }
            days = n
        }
        return (size, days)
    }

    /// Set by `watch --exec` for its command: the mark its changes carry.
    package static let execVariable = "SETTINGS_WATCH_EXEC"

    /// The running program's name, the writer when none is given.
    static let programName: String = {
        let path = CommandLine.arguments.first ?? "?"
        return path.split(separator: "/").last.map(String.init) ?? path
    }()

    /// Where the domain whose file is `path` (as named) keeps its journal: by that path
    /// (`Path.flatName`), so two config folders never share one.
    func file(for path: String, _ suffix: String) -> StateFile {
        StateFile(root: root, "settings/history/" + Path.flatName(of: path) + suffix)
    }

    /// The most changes one write collects for its line; past them, only their count.
    package static let keptChanges = 4096

    /// The largest file an outside change is itemised for (both sides are parsed).
    static let comparedSize = 1 << 20

    /// The first bytes of `NAME.last`: its stamp line, padded with spaces to a fixed size,
    /// so it is rewritten in place; the file's bytes follow.
    static let headerSize = 128

    /// One write's journalling, under the domain's lock: made before the write, which it
    /// compares with the store's copy of the last one (`outside`); told of the new file
    /// as it is written (`copy`) and put in place (`placed`); finished after (`finish`).
    ///
    /// The copy is `NAME.last`, rewritten in place: its header saying `invalid` and the
    /// bytes go in with one `pwritev(2)`, header first; then the header gets the new
    /// file's stamp. A crash between leaves it invalid, which finds no change rather
    /// than a false one.
    final class Write {
        let journal: Journal
        /// `NAME.last` and `NAME.jsonl`.
        let last: StateFile, log: StateFile
        /// `NAME.last`, open; -1 when it cannot be (then nothing is compared or copied).
        let fd: CInt
        /// What changed without the store since its last write.
        private(set) var outside: [KeyChange] = []
        /// Whether the file changed outside the store but was too big to compare.
        private(set) var outsideUncompared = false
        /// Whether the new file's bytes are in the copy, and its stamp once in place.
        private var copied = false
        private var stamp: FileStamp?
        /// The size of `NAME.last` as opened.
        private var lastSize = 0
        /// The state folder's parent, open once for both files (`StateFile.openRoot`).
        private let root: StateFile.Root?
        /// A journal file refused as planted (a link, a FIFO, another user's): said once,
        /// through the store's `journalRefused`; the write itself goes on.
        private(set) var refused: StateFileError?

        init(_ journal: Journal, at path: String, before: FileStamp?, creating: Bool, values: () -> PlistDictionary?) {
            self.journal = journal
            (last, log) = (journal.file(for: path, ".last"), journal.file(for: path, ".jsonl"))
            root = last.openRoot()
            var status: FileSystem.Status?
            do throws(StateFileError) {
                if let opened = try last.open(creating ? .readWrite : .read, under: root) {
                    status = opened.status
                    fd = opened.take()
                } else {
                    fd = -1
                }
            } catch {
                fd = -1
                refused = Journal.refusal(error)
            }
            guard let status else { return }
            lastSize = status.size
            let size = status.size
            let header = FileSystem.readBytes(fd, count: headerSize, at: 0)
            guard header.count == headerSize, header.starts(with: "settings-last ".utf8),
                header != Journal.header(before), header != Journal.header(.invalid)
            else { return }
            var left = PlistDictionary()
            // A big file is not parsed twice to itemise a change made outside: it is said.
            guard size - headerSize <= Journal.comparedSize, (before?.size ?? 0) <= Journal.comparedSize else {
                outsideUncompared = true
                return
            }
            if header != Journal.header(nil) {
                guard
                    case .dict(let dict)? = try? PropertyList.read(
                        FileSystem.readBytes(fd, count: size - headerSize, at: headerSize)
                    ).0
                else { return }
                left = dict
            }
            outside = (values() ?? [:]).changes(from: left)
        }

        deinit { if fd >= 0 { FileSystem.close(fd) } }

        /// During the write, before the rename: the new file's bytes as written (nil: too
        /// big to compare, so only its stamp is kept), behind a header that says `invalid`
        /// until `placed`, in one write.
        func copy(_ pieces: [ArraySlice<UInt8>]?) {
            guard fd >= 0 else { return }
            do throws(Errno) {
                let invalid = Journal.header(.invalid)
                if let pieces {
                    try FileSystem.writeBytes(invalid, then: pieces, to: fd, at: 0)
                    let size = pieces.reduce(Journal.headerSize) { $0 + $1.count }
                    // Only a shorter copy needs cutting: a longer one has already grown the file.
                    if lastSize > size { try FileSystem.truncate(fd, to: size) }
                } else {
                    try FileSystem.writeBytes(invalid, to: fd, at: 0)
                    try FileSystem.truncate(fd, to: Journal.headerSize)
                }
                copied = true
            } catch {
                copied = false
            }
        }

        /// After the rename: the new file's status, which the header will name.
        func placed(_ status: FileSystem.Status?) {
            stamp = copied ? status.map(FileStamp.init) : nil
        }

        /// After the write: the outside change found before it and this one journalled, and
        /// the copy stamped (`written`: the file is there; false: it was removed).
        func finish(_ changes: [KeyChange], count: Int? = nil, written: Bool) {
            if fd >= 0 {
                let header: Stamp = written ? stamp.map(Stamp.file) ?? .invalid : .absent
                if !written { try? FileSystem.truncate(fd, to: Journal.headerSize) }
                try? FileSystem.writeBytes(Journal.header(header), to: fd, at: 0)
            }
            if let problem = journal.append(
                outside, uncompared: outsideUncompared, changes, count: count, at: log, under: root)
            {
                refused = refused ?? problem
            }
        }
    }

    /// What a `.last` header says.
    enum Stamp {
        case file(FileStamp), absent, invalid
    }

    /// The header for `stamp` (nil: no file): `headerSize` bytes, the last a newline.
    static func header(_ stamp: FileStamp?) -> [UInt8] { header(stamp.map(Stamp.file) ?? .absent) }

    /// Bytes, not a String: a write makes two of these (as text they cost 7% of one); the
    /// invalid one is made once.
    static func header(_ stamp: Stamp) -> [UInt8] {
        switch stamp {
        case .invalid: return invalidHeader
        case .absent: return header(words: "absent".utf8, numbers: [])
        // Not the change time: the rename that puts the file in place moves it.
        case .file(let s):
            return header(
                words: EmptyCollection(),
                numbers: [UInt64(s.device), s.inode, UInt64(s.size), UInt64(bitPattern: s.modified)])
        }
    }

    private static let invalidHeader = header(words: "invalid".utf8, numbers: [])

    /// `settings-last `, then `words` or the numbers in decimal with a space between,
    /// padded with spaces to `headerSize` bytes, the last a newline.
    private static func header(words: some Collection<UInt8>, numbers: [UInt64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize)
        out.append(contentsOf: "settings-last ".utf8)
        out.append(contentsOf: words)
        for (i, n) in numbers.enumerated() {
            if i > 0 { out.append(UInt8(ascii: " ")) }
            DefaultsText.appendPadded(n, width: 1, to: &out)
        }
        // Four 64-bit numbers take at most 97 bytes: the cut is only a bound.
        if out.count > headerSize - 1 { out.removeSubrange((headerSize - 1)...) }
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: headerSize - 1 - out.count))
        out.append(10)
        return out
    }

    /// Appends the outside change and this one to the journal `file`, trimming it when it
    /// passes its size (or, looked at every 16 KiB, its age). A file refused as planted
    /// comes back, for one warning; any other failure only loses history.
    func append(
        _ outside: [KeyChange], uncompared: Bool = false, _ changes: [KeyChange], count: Int? = nil,
        at file: StateFile, under root: StateFile.Root? = nil
    ) -> StateFileError? {
        guard !changes.isEmpty || !outside.isEmpty || uncompared else { return nil }
        let now = Double(FileSystem.wallClockNanoseconds()) / 1e9
        let limit = maximumBytes / 8
        var lines: [UInt8] = []
        if !outside.isEmpty || uncompared {
            lines += Self.line(now, JournalEntry.outsideWriter, 0, outside, limit: uncompared ? -1 : limit)
        }
        if !changes.isEmpty {
            // Changes left uncollected (more than `keptChanges`) leave only their count.
            let whole = (count ?? changes.count) == changes.count
            lines += Self.line(
                now, writer, FileSystem.processID, changes, limit: whole ? limit : -1, count: count ?? changes.count,
                takesBack: takesBack.map { outside.isEmpty && !uncompared ? $0 : $0.naming(pendingAt: now) })
        }
        let size: Int
        do throws(StateFileError) { size = try file.append(lines, under: root) } catch { return Self.refusal(error) }
        let crossed = (size - lines.count) / 16384 != size / 16384
        if size > maximumBytes || (crossed && isTooOld(file, now: now)) { trim(file, now: now) }
        return nil
    }

    /// A journal file's failure worth a warning: one refused as planted. Any other (a full
    /// disk, a folder without permission) only loses history, as it always did.
    static func refusal(_ error: StateFileError) -> StateFileError? {
        error.isRefusal ? error : nil
    }

    /// The domain's entries, oldest first; a line a crash tore is skipped.
    /// A journal file refused as planted (a link, a FIFO, another user's) is told to
    /// `refused`, and read as empty.
    func entries(at path: String, refused: (StateFileError) -> Void = { _ in }) -> [JournalEntry] {
        let bytes: [UInt8]?
        do throws(StateFileError) { bytes = try file(for: path, ".jsonl").read() } catch {
            if let refusal = Self.refusal(error) { refused(refusal) }
            return []
        }
        guard let bytes else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { Self.entry(Array($0)) }
    }

    /// A newline, then `{"time":…,"writer":"…","pid":…,"changes":[{"key":"…","old":…,"new":…}]}`:
    /// a record starts its own line, so one a crash tore never swallows the next. Past
    /// `limit` bytes of changes the values are left out (`"values":false`), and past it
    /// again the keys too, leaving their `"count"`: a 100,000-key import is one short line,
    /// not the domain twice over. A negative limit keeps nothing but the count.
    static func line(
        _ time: Double, _ writer: String, _ pid: Int32, _ changes: [KeyChange], limit: Int, count: Int? = nil,
        takesBack: JournalEntry.TakenBack? = nil
    ) -> [UInt8] {
        // One array, appended to: a line of arrays added together was a tenth of a write's own work.
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(contentsOf: "\n{\"time\":".utf8)
        JSONWriter.append(.double(time), to: &out)
        out.append(contentsOf: ",\"writer\":".utf8)
        JSONWriter.append(.string(writer), to: &out)
        out.append(contentsOf: ",\"pid\":".utf8)
        JSONWriter.append(.int(PlistInteger(Int64(pid))), to: &out)
        if let takesBack {
            // `"undid":[[time,pid],…]`: the entries an undo (or a redo) took back.
            let ids = takesBack.entries.map { PlistValue.array([.double($0.time), .int(PlistInteger(Int64($0.pid)))]) }
            out.append(contentsOf: ",\"\(takesBack.key)\":".utf8)
            JSONWriter.append(.array(ids), to: &out)
        }
        out.append(contentsOf: ",\"changes\":[".utf8)
        let start = out.count
        /// The changes appended, with their values or without; false (and out as it was)
        /// once they pass `limit` bytes.
        func appendChanges(values: Bool) -> Bool {
            for (i, change) in changes.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: "{\"key\":".utf8)
                JSONWriter.append(.string(change.key), to: &out)
                if values, let old = change.old {
                    out.append(contentsOf: ",\"old\":".utf8)
                    JSONWriter.append(old, to: &out, widths: true)
                }
                if values, let new = change.new {
                    out.append(contentsOf: ",\"new\":".utf8)
                    JSONWriter.append(new, to: &out, widths: true)
                }
                out.append(UInt8(ascii: "}"))
                if out.count - start > limit {
                    out.removeSubrange(start...)
                    return false
                }
            }
            return true
        }
        if limit >= 0, appendChanges(values: true) {
            out.append(contentsOf: "]}".utf8)
            return out
        }
        if limit >= 0 { _ = appendChanges(values: false) }
        out.append(contentsOf: "],\"values\":false,\"count\":\(count ?? changes.count)}".utf8)
        return out
    }

    static func entry(_ line: [UInt8]) -> JournalEntry? {
        guard case .dict(let record)? = try? JSONReader.read(line), case .double(let time)? = record["time"],
            case .string(let writer)? = record["writer"], case .int(let pid)? = record["pid"],
            case .array(let items)? = record["changes"]
        else { return nil }
        var changes: [KeyChange] = []
        for case .dict(let item) in items {
            guard case .string(let key)? = item["key"] else { return nil }
            changes.append(KeyChange(key: key, old: item["old"], new: item["new"]))
        }
        var count = changes.count
        if case .int(let n)? = record["count"], let n = n.int64 { count = Int(clamping: n) }
        var entry = JournalEntry(
            time: time, writer: writer, pid: Int32(truncatingIfNeeded: pid.int64 ?? 0), changes: changes,
            valuesKept: record["values"] != .bool(false), count: count)
        for (key, make) in [("undid", JournalEntry.TakenBack.undid), ("redid", JournalEntry.TakenBack.redid)] {
            guard case .array(let items)? = record[key] else { continue }
            entry.takenBack = make(
                items.compactMap { item in
                    guard case .array(let pair) = item, pair.count == 2, case .double(let time) = pair[0],
                        case .int(let pid) = pair[1]
                    else { return nil }
                    return JournalEntry.ID(time: time, pid: Int32(truncatingIfNeeded: pid.int64 ?? 0))
                })
        }
        return entry
    }

    /// Whether the journal's first entry is past the age limit (its first bytes name its time).
    private func isTooOld(_ journal: StateFile, now: Double) -> Bool {
        guard let read = journal.readPrefix(count: 48),
            case let prefix = read.drop(while: { $0 == UInt8(ascii: "\n") }),
            let comma = prefix.firstIndex(of: UInt8(ascii: ",")), prefix.starts(with: Array("{\"time\":".utf8)),
            let time = Double(String(decoding: prefix[(prefix.startIndex + 8)..<comma], as: UTF8.self))
        else { return false }
        return now - time > maximumAge
    }

    /// Keeps the newest entries within half the size limit and the age limit.
    private func trim(_ journal: StateFile, now: Double) {
        guard let bytes = try? journal.read() else { return }
        var kept: [ArraySlice<UInt8>] = []
        var total = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")).reversed() {
            guard let entry = Self.entry(Array(line)), now - entry.time <= maximumAge else { continue }
            if total + line.count + 1 > maximumBytes / 2, !kept.isEmpty { break }
            kept.append(line)
            total += line.count + 1
        }
        var out: [UInt8] = []
        for line in kept.reversed() { out += [UInt8(ascii: "\n")] + line }
        try? journal.replace(with: out)
    }
}
