import PlistModel
import SettingsStore

/// Where a machine's sync keeps its things: `$XDG_DATA_HOME/settings/sync`, a private
/// folder (0700, made so again each round) whatever the mode of the folders above it, so
/// the repository's copies of 0600 domains are read by no one else:
/// - `repo.git`: a bare repository, never a work tree (nothing in it is a path here);
/// - `settings`: the branch and the patterns carried (0600);
/// - `state`: what the last round agreed, so an idle round reads no tree (0600);
/// - `log`: the values that lost a conflict, the newest `SyncSetup.logLimit` bytes (0600);
/// - `last`: how the last round ended (0600);
/// - `pending`: how a round that pushed will end, until its base has moved (0600);
/// - `local`: the local-key rules each domain was last merged under (0600).
/// A folder set up by an earlier version (a clone with a work tree) is used through its
/// `.git`; its work tree is never read again.
package struct SyncFolder: Sendable {
    package let path: String
    /// `$XDG_DATA_HOME`, laid out as its user likes; below it, the sync's own files go
    /// through the door for the tool's files (`StateFile`: no link followed, no FIFO).
    let dataRoot: String

    package init(environment: Environment) {
        let data =
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                data
            } else {
                Path.join(environment.home, ".local/share")
            }
        dataRoot = data
        path = Path.join(data, "settings/sync")
    }

    /// One of the sync's own files (`state`, `settings`, `log`, `last`), through the door.
    func own(_ file: String) -> StateFile {
        StateFile(root: dataRoot, "settings/sync/" + Path.lastComponent(of: file))
    }

    /// The bytes of one of the sync's own files, or nil when there is none; a link, a FIFO
    /// or another user's file there is refused, naming what it is.
    package func contents(ofOwn file: String) throws(SyncError) -> [UInt8]? {
        do throws(StateFileError) { return try own(file).read() } catch { throw SyncError(error) }
    }

    /// The git folder: `repo.git`, or an earlier version's `.git`.
    package var repository: String {
        let old = Path.join(path, ".git")
        return FileSystem.exists(old) ? old : Path.join(path, "repo.git")
    }

    package var log: String { Path.join(path, "log") }
    var settings: String { Path.join(path, "settings") }
    package var state: String { Path.join(path, "state") }
    package var last: String { Path.join(path, "last") }
    /// The local-key rules each domain was last merged under (`LocalRecord`).
    var localRules: String { Path.join(path, "local") }
    /// How a round that pushed will end, until its base has moved (`PendingRound`).
    var pending: String { Path.join(path, "pending") }

    /// Whether this machine syncs (`sync init` made the repository).
    package var isSetUp: Bool { FileSystem.exists(Path.join(repository, "HEAD")) }

    /// The bytes of the regular file at `path`, or nil when there is none; anything else
    /// there (a FIFO would hang a round, a folder) is refused, naming what it is.
    package static func contents(_ path: String) throws(SyncError) -> [UInt8]? {
        do throws(FileError) { return try FileSystem.readFile(path)?.bytes } catch {
            throw .store(StoreError(reading: path, error))
        }
    }

    /// The state of the last round: none when it is missing or cannot be read (the round
    /// is then a full one); a file planted there (a link, a FIFO) stops the round.
    func readState() throws(SyncError) -> SyncState {
        do throws(StateFileError) { return SyncState(try own(state).read() ?? []) } catch {
            if error.isRefusal { throw SyncError(error) }
            return SyncState()
        }
    }

    /// Refuses, before a round pushes or applies anything, a `log` or `last` planted as a
    /// link, a FIFO or another user's file: found only when written, at the round's end,
    /// it would stop a round that had already changed both sides.
    func checkOwnFiles() throws(SyncError) {
        for file in [log, last] {
            do throws(StateFileError) { _ = try own(file).open(.read) } catch { throw SyncError(error) }
        }
    }

    /// Replaces one of the sync's files (atomically, 0600), through the door: never
    /// through a link or into a FIFO planted at its name. Rounds take turns on the
    /// repository's lock, so no two write one at once.
    func write(_ bytes: [UInt8], to file: String) throws(SyncError) {
        do throws(StateFileError) { try own(file).replace(with: bytes, durable: true) } catch {
            throw SyncError(error)
        }
    }

    /// Appends to one of the sync's files (the log), through the door; its size after.
    @discardableResult
    /// The log's newest whole lines within `SyncSetup.logLimit`, read from its end: a log
    /// an earlier version let grow to gigabytes is never read whole.
    package func logTail() throws(SyncError) -> [UInt8] {
        let tail: (bytes: [UInt8], whole: Bool)?
        do throws(StateFileError) { tail = try own(log).readSuffix(count: SyncSetup.logLimit) } catch {
            throw SyncError(error)
        }
        guard let tail else { return [] }
        if tail.whole { return tail.bytes }
        // The first line is cut: it starts before the part read.
        guard let newline = tail.bytes.firstIndex(of: UInt8(ascii: "\n")) else { return tail.bytes }
        return Array(tail.bytes[(newline + 1)...])
    }

    func append(_ bytes: [UInt8], to file: String) throws(SyncError) -> Int {
        do throws(StateFileError) { return try own(file).append(bytes) } catch { throw SyncError(error) }
    }

    /// A file of the repository's git folder (its `config`), through the door: the sync
    /// writes the remote's URL there itself, so that no process's arguments hold it.
    func repositoryFile(_ name: String) -> StateFile {
        StateFile(root: dataRoot, "settings/sync/" + Path.lastComponent(of: repository) + "/" + name)
    }

    /// As root, refuses a folder (or, before it exists, the nearest folder above) that
    /// another user owns: `sudo settings sync` with the user's `HOME` would leave git's
    /// files there owned by root.
    func checkOwner() throws(SyncError) {
        guard FileSystem.isRoot else { return }
        var path = self.path
        while true {
            if let status = (try? FileSystem.status(path)) ?? nil {
                if status.uid != 0 { throw .otherOwner(path: path, uid: status.uid) }
                return
            }
            let above = Path.directory(of: path)
            if above == path { return }
            path = above
        }
    }

    /// What every verb that runs git here checks first (`run`, `init`, `remote`, `carry`,
    /// `status`, `leave`): as root, a folder another user owns is refused (`checkOwner`:
    /// git would run that user's hooks and config as root); for anyone, a repository that
    /// is a link, or no folder, is refused rather than followed (git would write its
    /// objects, refs and config wherever it leads).
    func checkUsable() throws(SyncError) {
        try checkOwner()
        for candidate in [Path.join(path, ".git"), Path.join(path, "repo.git")] {
            guard let status = (try? FileSystem.linkStatus(candidate)) ?? nil else { continue }
            if status.isSymlink { throw SyncError(StateFileError(candidate, .untrusted(.kind(.symbolicLink)))) }
            if !status.isDirectory { throw SyncError(StateFileError(candidate, .untrusted(.notAFolder(status.kind)))) }
        }
    }

    /// Makes the folder (0700) or makes it private again.
    func makePrivate() throws(SyncError) {
        do {
            try FileSystem.makeDirectories(path)
            try FileSystem.changeMode(path, 0o700)
        } catch {
            throw .store(.writeFailed(path: path, error))
        }
    }
}

/// What the last round agreed with the repository, so the next one can tell it has
/// nothing to do without reading a tree: the remote's commit, the base's, and per carried
/// domain a 64-bit hash of its live file's bytes and of the rules that shape what of it
/// travels, and a print of the patterns and the ignore file. A missing or unreadable state
/// only makes the next round a full one; it is a
/// shortcut, never the truth (which is the base, a ref in the repository).
struct SyncState: Equatable {
    var remote = "", base = "", rules = ""
    var prints: [String: String] = [:]
    /// The domains a schema here refused a value of, each with its schema file's stamp:
    /// while neither side nor the schema changes, the value stays refused and the round idle.
    var refused: [String: String] = [:]

    init() {}

    init(_ bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("remote"?, 2): remote = fields[1]
            case ("base"?, 2): base = fields[1]
            case ("rules"?, 2): rules = fields[1]
            case ("print"?, 3): prints[fields[1]] = fields[2]
            case ("refused"?, 3): refused[fields[1]] = fields[2]
            default: continue
            }
        }
    }

    var bytes: [UInt8] {
        var text = "remote\t\(remote)\nbase\t\(base)\nrules\t\(rules)\n"
        for name in prints.keys.sorted(by: byteOrderPrecedes) { text += "print\t\(name)\t\(prints[name]!)\n" }
        for name in refused.keys.sorted(by: byteOrderPrecedes) { text += "refused\t\(name)\t\(refused[name]!)\n" }
        return Array(text.utf8)
    }

    /// A 64-bit hash of a live file's bytes and its rules (see `Print`).
    static func print(_ bytes: [UInt8], _ rules: [UInt8]) -> String {
        var print = Print()
        bytes.withUnsafeBytes { print.add($0) }
        print.endPart()
        return print.finish(rules)
    }
}

/// A 64-bit hash, 32 bytes at a step in four independent lanes (a 100,000-key domain is
/// 8 MB, which a byte-wise FNV-1a took most of an idle round to read, and one lane waits
/// on each multiply): a multiply-xor-shift per word, the lanes and the length folded at the
/// end of each part. Fed in pieces of any size it gives what it gives fed at once. It tells
/// a change; it guards against no one.
struct Print {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_8422_2325_cbf2, 0x2325_cbf2_9ce4_8422
    )
    private var hash: UInt64 = 0
    private var carry: [UInt8] = []
    private var length = 0
    private static let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15

    @inline(__always) private static func mix(_ lane: inout UInt64, _ word: UInt64) {
        lane = (lane ^ word) &* multiplier
        lane ^= lane >> 32
    }

    private mutating func block(_ raw: UnsafeRawBufferPointer, _ at: Int) {
        Self.mix(&lanes.0, raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        Self.mix(&lanes.1, raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
        Self.mix(&lanes.2, raw.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
        Self.mix(&lanes.3, raw.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))
    }

    mutating func add(_ raw: UnsafeRawBufferPointer) {
        length += raw.count
        var at = 0
        if !carry.isEmpty {
            let taken = min(32 - carry.count, raw.count)
            carry += raw[..<taken]
            at = taken
            guard carry.count == 32 else { return }
            carry.withUnsafeBytes { block($0, 0) }
            carry = []
        }
        while at + 32 <= raw.count {
            block(raw, at)
            at += 32
        }
        carry += raw[at...]
    }

    /// Ends one part (the file), so the next (the rules) cannot be confused with it.
    mutating func endPart() {
        var folded = hash
        for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { Self.mix(&folded, lane) }
        for byte in carry { Self.mix(&folded, UInt64(byte)) }
        Self.mix(&folded, UInt64(length) | 1 << 63)
        self = Print()
        hash = folded
    }

    /// The hash, with `rules` as the last part, in hexadecimal.
    func finish(_ rules: [UInt8]) -> String {
        var print = self
        rules.withUnsafeBytes { print.add($0) }
        print.endPart()
        return String(print.hash, radix: 16)
    }
}
