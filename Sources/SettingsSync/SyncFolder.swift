import PlistModel
import SettingsStore

/// Where a machine's sync keeps its things: `$XDG_DATA_HOME/settings/sync`, a private
/// folder (0700, made so again each round) whatever the mode of the folders above it, so
/// the repository's copies of 0600 domains are read by no one else:
/// - `repo.git`: a bare repository, never a work tree (nothing in it is a path here);
/// - `state`: what the last round agreed, so an idle round reads no tree (0600);
/// - `log`: the values that lost a conflict (0600);
/// - `last`: how the last round ended (0600).
/// A folder set up by an earlier version (a clone with a work tree) is used through its
/// `.git`; its work tree is never read again.
package struct SyncFolder: Sendable {
    package let path: String

    package init(environment: Environment) {
        let data =
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
                data
            } else {
                Path.join(environment.home, ".local/share")
            }
        path = Path.join(data, "settings/sync")
    }

    /// The git folder: `repo.git`, or an earlier version's `.git`.
    package var repository: String {
        let old = Path.join(path, ".git")
        return Self.exists(old) ? old : Path.join(path, "repo.git")
    }

    package var log: String { Path.join(path, "log") }
    package var state: String { Path.join(path, "state") }
    package var last: String { Path.join(path, "last") }

    /// Whether this machine syncs (`sync init` made the repository).
    package var isSetUp: Bool { Self.exists(Path.join(repository, "HEAD")) }

    static func exists(_ path: String) -> Bool { ((try? FileSystem.linkStatus(path)) ?? nil) != nil }

    /// The file's bytes, or nil when there is none.
    static func contents(_ path: String) throws(SyncError) -> [UInt8]? {
        guard exists(path) else { return nil }
        do { return try PlistFiles.read(path) } catch { throw .store(error) }
    }

    /// Replaces one of the sync's files (atomically, 0600 when new).
    func write(_ bytes: [UInt8], to file: String) throws(SyncError) {
        do { try PlistFiles.write(bytes, to: file, lockTimeout: 10, newFileMode: 0o600) } catch { throw .store(error) }
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
/// domain a 64-bit FNV-1a of its live file's bytes and of the rules that shape what of it
/// travels. A missing or unreadable state only makes the next round a full one; it is a
/// shortcut, never the truth (which is the base, a ref in the repository).
struct SyncState: Equatable {
    var remote = "", base = ""
    var prints: [String: String] = [:]

    init() {}

    init(_ bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("remote"?, 2): remote = fields[1]
            case ("base"?, 2): base = fields[1]
            case ("print"?, 3): prints[fields[1]] = fields[2]
            default: continue
            }
        }
    }

    var bytes: [UInt8] {
        var text = "remote\t\(remote)\nbase\t\(base)\n"
        for name in prints.keys.sorted(by: byteOrderPrecedes) { text += "print\t\(name)\t\(prints[name]!)\n" }
        return Array(text.utf8)
    }

    static func print(_ bytes: [UInt8], _ rules: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [bytes, [0xff], rules] {
            for byte in part {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
