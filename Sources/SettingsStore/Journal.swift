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
    /// Each key that changed, in key order.
    public let changes: [KeyChange]

    /// Whether it was made without the store, and only found later.
    public var isOutside: Bool { writer == JournalEntry.outsideWriter }

    /// The writer an outside change is journalled under.
    public static let outsideWriter = "outside"
}

/// The history of every change made through the store: per domain, one JSON line per
/// change in `stateDirectory/history/NAME.jsonl` (private, 0600), bounded in size and age,
/// and never a reason for a write to fail (a journal that cannot be written is skipped).
///
/// Beside it, `NAME.last` holds the file as the store last left it, copied by the kernel
/// from the descriptor it was written through, and a last line with its stamp: a domain
/// found different at the next write was changed outside the store, and that change is
/// journalled first, as `outside`, key by key.
package struct Journal: Sendable {
    let directory: String
    let maximumBytes: Int
    let maximumAge: Double
    let writer: String

    /// The variables that bound or turn off the journal.
    package static let sizeVariable = "SETTINGS_HISTORY_SIZE", daysVariable = "SETTINGS_HISTORY_DAYS"

    /// The store's journal; nil when `SETTINGS_HISTORY_SIZE` is 0 (off).
    package init?(_ store: DomainStore) {
        let environment = store.environment
        let size = environment[Self.sizeVariable].flatMap { Int($0) } ?? 1 << 20
        guard size > 0 else { return nil }
        let days = environment[Self.daysVariable].flatMap { Double($0) } ?? 90
        directory = Path.join(store.stateDirectory, "history")
        (maximumBytes, maximumAge) = (size, days * 86400)
        // A change a `watch --exec` command makes is marked, so that watch knows its own.
        writer = (store.writer ?? Self.programName) + (environment[Self.execVariable].map { " (\($0))" } ?? "")
    }

    /// Set by `watch --exec` for its command: the mark its changes carry.
    package static let execVariable = "SETTINGS_WATCH_EXEC"

    /// The running program's name, the writer when none is given.
    static let programName: String = {
        let path = CommandLine.arguments.first ?? "?"
        return path.split(separator: "/").last.map(String.init) ?? path
    }()

    /// Where the domain whose file is `path` (as named) keeps its journal, by that path, so
    /// two config folders never share one: `/` and `%` escaped; a long one shortened with a
    /// hash of the whole.
    func file(for path: String, _ suffix: String) -> String {
        var name = ""
        for c in path.unicodeScalars {
            switch c {
            case "%": name += "%25"
            case "/": name += "%2F"
            default: name.unicodeScalars.append(c)
            }
        }
        if name.utf8.count > 200 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            name = String(hash, radix: 16) + "-" + String(decoding: name.utf8.suffix(150), as: UTF8.self)
        }
        return Path.join(directory, name + suffix)
    }

    /// Before a write under the lock: the change made outside the store since its last
    /// write, if the file is not what the store left (`before` is the file's stamp now, nil
    /// when there is none; `values` reads what it holds).
    func outsideChange(at path: String, before: FileStamp?, values: () -> PlistDictionary?) -> [KeyChange] {
        let last = file(for: path, ".last")
        guard let tail = FileSystem.readSuffix(last, count: 160), let line = Self.lastLine(tail),
            line != Self.stampLine(before)
        else { return [] }
        var left = PlistDictionary()
        if line != Self.stampLine(nil), let (bytes, _) = try? FileSystem.readFile(last),
            let cut = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")),
            case .dict(let dict)? = try? PropertyList.read(Array(bytes[..<cut])).0
        {
            left = dict
        }
        return (values() ?? [:]).changes(from: left)
    }

    /// During a write: a copy of the new file, from the descriptor it is written through,
    /// to become `NAME.last` once it is in place (see `record`).
    func copy(from fd: CInt) -> String? {
        do throws(Errno) {
            try FileSystem.makeDirectories(directory)
            return try FileSystem.copyPrivate(from: fd, into: directory)
        } catch {
            return nil
        }
    }

    /// After a write under the lock: journals the outside change found before it, then this
    /// one, and remembers the file as written (`written`: its path now, nil when removed;
    /// `copy`: what `copy(from:)` made of it).
    func record(at path: String, outside: [KeyChange], _ changes: [KeyChange], written: String?, copy: String?) {
        let last = file(for: path, ".last")
        defer {
            // The file as it now is: the copy with its stamp on a last line; none, or the
            // stamp of no file. Without a copy, none: a wrong one would find false changes.
            if let copy, let written, let stamp = DomainStore.stamp(at: written),
                (try? FileSystem.appendPrivate(Array("\n\(Self.stampLine(stamp))\n".utf8), to: copy)) != nil,
                (try? FileSystem.rename(copy, last)) != nil
            {
            } else if written == nil {
                try? FileSystem.replacePrivate(last, with: Array("\n\(Self.stampLine(nil))\n".utf8))
            } else {
                if let copy { _ = try? FileSystem.unlink(copy) }
                _ = try? FileSystem.unlink(last)
            }
        }
        guard !changes.isEmpty || !outside.isEmpty else { return }
        do throws(Errno) { try FileSystem.makeDirectories(directory) } catch { return }
        let now = Double(FileSystem.wallClockNanoseconds()) / 1e9
        var lines: [UInt8] = []
        if !outside.isEmpty { lines += Self.line(now, JournalEntry.outsideWriter, 0, outside) }
        if !changes.isEmpty { lines += Self.line(now, writer, FileSystem.processID, changes) }
        let journal = file(for: path, ".jsonl")
        guard let size = try? FileSystem.appendPrivate(lines, to: journal) else { return }
        if size > maximumBytes || isTooOld(journal, now: now) { trim(journal, now: now) }
    }

    /// The last whole line of `bytes` (which end with a newline), without it.
    static func lastLine(_ bytes: [UInt8]) -> String? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        let body = bytes.dropLast()
        let start = body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        return String(decoding: body[start...], as: UTF8.self)
    }

    /// The domain's entries, oldest first; a line a crash tore is skipped.
    func entries(at path: String) -> [JournalEntry] {
        guard let (bytes, _) = try? FileSystem.readFile(file(for: path, ".jsonl")) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { Self.entry(Array($0)) }
    }

    /// `{"time":…,"writer":"…","pid":…,"changes":[{"key":"…","old":…,"new":…}]}` and a newline.
    static func line(_ time: Double, _ writer: String, _ pid: Int32, _ changes: [KeyChange]) -> [UInt8] {
        var out = Array("{\"time\":".utf8) + JSONWriter.encode(.double(time))
        out += Array(",\"writer\":".utf8) + JSONWriter.encode(.string(writer))
        out += Array(",\"pid\":\(pid),\"changes\":[".utf8)
        for (i, change) in changes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("{\"key\":".utf8) + JSONWriter.encode(.string(change.key))
            if let old = change.old { out += Array(",\"old\":".utf8) + JSONWriter.encode(old) }
            if let new = change.new { out += Array(",\"new\":".utf8) + JSONWriter.encode(new) }
            out.append(UInt8(ascii: "}"))
        }
        return out + Array("]}\n".utf8)
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
        return JournalEntry(
            time: time, writer: writer, pid: Int32(truncatingIfNeeded: pid.int64 ?? 0), changes: changes)
    }

    /// The stamp line of `.last`: what a file the store left looks like, or `absent`.
    static func stampLine(_ stamp: FileStamp?) -> String {
        guard let stamp else { return "settings-last absent" }
        // Not the change time: the rename that puts the file in place moves it.
        return "settings-last \(stamp.device) \(stamp.inode) \(stamp.size) \(stamp.modified)"
    }

    /// Whether the journal's first entry is past the age limit (its first bytes name its time).
    private func isTooOld(_ journal: String, now: Double) -> Bool {
        guard let prefix = FileSystem.readPrefix(journal, count: 40),
            let comma = prefix.firstIndex(of: UInt8(ascii: ",")), prefix.starts(with: Array("{\"time\":".utf8)),
            let time = Double(String(decoding: prefix[8..<comma], as: UTF8.self))
        else { return false }
        return now - time > maximumAge
    }

    /// Keeps the newest entries within half the size limit and the age limit.
    private func trim(_ journal: String, now: Double) {
        guard let (bytes, _) = try? FileSystem.readFile(journal) else { return }
        var kept: [ArraySlice<UInt8>] = []
        var total = 0
        for line in bytes.split(separator: UInt8(ascii: "\n")).reversed() {
            guard let entry = Self.entry(Array(line)), now - entry.time <= maximumAge else { continue }
            if total + line.count + 1 > maximumBytes / 2, !kept.isEmpty { break }
            kept.append(line)
            total += line.count + 1
        }
        var out: [UInt8] = []
        for line in kept.reversed() { out += line + [UInt8(ascii: "\n")] }
        try? FileSystem.replacePrivate(journal, with: out)
    }
}
