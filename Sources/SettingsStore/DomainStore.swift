import PlistCodecs
import PlistModel
/// A domain as read from disk: its values and the format to write it back in.
public struct Domain: Sendable, Equatable {
    /// The domain's keys and values, in the file's order.
    public var values: PlistDictionary
    /// The format of its file, which a write keeps.
    public var format: PlistFormat
}

/// The domains of one config folder: where each file is, and the one way to read,
/// change and remove them.
///
///     let store = DomainStore()
///     try store.update(.named("com.app"), host: .any) { $0["music"] = .bool(true); return true }
///     try store.load(.named("com.app"), host: .any)?.values["music"]   //=> .bool(true)
public struct DomainStore: Sendable {
    /// `$XDG_CONFIG_HOME`, or `~/.config` when it is unset, empty or relative
    /// (Foundation's rule, so both use the same files).
    public let directory: String
    /// How long a writer waits for another writer's lock before giving up.
    public var lockTimeout: Double
    /// Told once, with the file and the time-out, when a change has waited a second for
    /// another writer's lock, so a person at a terminal knows why nothing happens.
    public var waitingForLock: (@Sendable (_ path: String, _ timeout: Double) -> Void)?
    /// Whether a domain file without its owner's write permission (mode 0444) may be
    /// replaced or removed anyway (`--force`); by default that is refused.
    public var overwriteReadOnly = false
    /// Whether text XML cannot hold (a control character) makes the domain binary, as a
    /// date with a fraction of a second does, instead of being refused. SettingsKit sets it:
    /// a Swift `String` is any text, and Foundation on macOS stores it so. The command line
    /// leaves it off and says how to store such bytes (`-data`), as `defaults` writes XML.
    package var binaryForAnyText = false
    /// Whether a change is checked against the domain's schema (`WritePolicy`): on for
    /// every writer; `--force` turns it off, and so must any writer that has to put back
    /// what a schema added since would refuse, explicitly.
    package var checksSchema = true
    /// How long, in seconds, a read of a file changed in the last two seconds that does not
    /// parse (or is empty) is tried again before it counts: Foundation rewrites its files in
    /// place, so a reader can catch one half-written. A hostile file costs a reader this
    /// long at most (2 s at most, the age below which a file counts as just changed); 0
    /// turns the retry off.
    public var readRetry: Double

    /// Told, once per write, when a journal file was refused as planted (a link, a FIFO,
    /// another user's file): the write is in place, its history not kept. The command line
    /// says it as a warning; nil says nothing, as a journal that cannot be written never
    /// did.
    package var journalRefused: (@Sendable (_ message: String) -> Void)?

    /// Who writes, for the journal (`history`): the command line sets `settings VERB`;
    /// nil is the program's name.
    package var writer: String?
    /// What the next changes take back, for the journal: `undo` and `redo` mark their
    /// change with the entries it took back, so the next `undo` walks further back.
    package var takesBack: JournalEntry.TakenBack?
    /// The config folder's file names as a caller listed them once (a sync round applying
    /// thousands of domains): a domain with no file under its exact name is looked for in
    /// this table, in any case, instead of by listing the folder again for each.
    package var folderNames: FolderNames?
    /// The size from which `output` reads an XML file on two threads
    /// (`XMLReader.halvesFrom`): tests set less, to read small files the same way.
    package var halvesFrom = XMLReader.halvesFrom
    /// The size from which a one-key write reads a file mapped (`mappedOneKey`): below it
    /// the mapping's calls cost more than the copy they save (a third of a small write's
    /// instructions). Tests set less, to map small files.
    package var mapOneKeyFrom = 1 << 20

    /// The variables the store was made from; schemas are looked up in its `XDG_DATA_DIRS`.
    public let environment: Environment
    /// Where a domain's schema is looked for (`SchemaFiles.folders`), worked out once.
    let schemaFolders: [String]

    /// `directory` defaults to `$XDG_CONFIG_HOME`, or `~/.config`; `lockTimeout` to
    /// `$SETTINGS_LOCK_TIMEOUT` seconds, or 10; `readRetry` to `$SETTINGS_READ_RETRY`, or
    /// 0.5 (see `secondsFromEnvironment(_:in:)`); either default holds when its variable is
    /// unset or not a number of seconds. The variables are `environment`'s.
    public init(
        directory: String? = nil, lockTimeout: Double? = nil, readRetry: Double? = nil,
        environment: Environment = .process
    ) {
        self.environment = environment
        if let directory {
            self.directory = directory
        } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            self.directory = xdg
        } else {
            self.directory = Path.join(environment.home, ".config")
        }
        self.lockTimeout =
            lockTimeout ?? (try? Self.secondsFromEnvironment(Self.lockTimeoutVariable, in: environment)) ?? 10
        self.readRetry = readRetry ?? (try? Self.secondsFromEnvironment(Self.readRetryVariable, in: environment)) ?? 0.5
        schemaFolders = SchemaFiles.folders(configDirectory: self.directory, environment: environment)
    }

    /// The environment variables of `lockTimeout` and `readRetry`.
    package static let lockTimeoutVariable = "SETTINGS_LOCK_TIMEOUT", readRetryVariable = "SETTINGS_READ_RETRY"

    /// A number of seconds from the environment variable `name`: nil when unset; the
    /// seconds when it is a non-negative decimal (`5`, `0.5`); else an error naming the
    /// text, so `-1`, `abc` or `0x10` are never taken for something the user did not mean.
    package static func secondsFromEnvironment(_ name: String, in environment: Environment = .process)
        throws(StoreError)
        -> Double?
    {
        guard let text = environment[name] else { return nil }
        guard let seconds = Seconds.parse(text) else {
            throw StoreError.badEnvironment(
                name: name, value: text, expected: "a number of seconds, 0 or more (such as 10 or 0.5)")
        }
        return seconds
    }

    /// What the tool keeps of its own beside the settings: `$XDG_STATE_HOME/settings`
    /// (an absolute `XDG_STATE_HOME`, else `~/.local/state`), never in the config folder,
    /// so nothing there is taken for a domain or carried by a sync. `apply`'s records
    /// and the journal live here.
    package var stateDirectory: String { Path.join(stateRoot, "settings") }

    /// `$XDG_STATE_HOME` (absolute), else `~/.local/state`: the folder the state folder is
    /// in, laid out as its user likes; below it, the tool's own files go through
    /// `StateFile`, which follows no link.
    package var stateRoot: String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state }
        return Path.join(environment.home, ".local/state")
    }

    /// A file of the tool's own in the state folder (`history/NAME.jsonl`), through the
    /// door for such files (`StateFile`).
    package func stateFile(_ relative: String) -> StateFile {
        StateFile(root: stateRoot, "settings/" + relative)
    }

    /// The file a domain lives in. In the config folder an existing file is found in
    /// any case (see `existingName`); a new one takes the name as typed.
    public func path(of domain: DomainName, host: DomainHost = .any) -> String {
        if case .path(let path) = domain { return path }
        let folder = folder(of: domain, host: host)
        let name = fileName(of: domain, host: host)
        if let folderNames, folder == directory, let known = folderNames.existingName(name, in: folder) {
            return Path.join(folder, known)
        }
        return Path.join(folder, Self.existingName(name, in: folder))
    }

    /// The folder a domain's file is in, known without looking at any file.
    func folder(of domain: DomainName, host: DomainHost) -> String {
        switch domain {
        case .path(let path): Path.directory(of: path)
        case .byHostFile: Path.join(directory, "ByHost")
        case .global, .named: host.identifier == nil ? directory : Path.join(directory, "ByHost")
        }
    }

    /// The domain's folder, and its file as typed (for messages before the lookup in any
    /// case). Refuses a domain and host whose file name, each fitting alone, is too long
    /// together (`DomainName` checks each name; this is the file's).
    func located(_ domain: DomainName, host: DomainHost) throws(StoreError) -> (folder: String, typed: String) {
        let name = fileName(of: domain, host: host)
        if name.utf8.count > 255 { throw StoreError.invalidDomain(name, "the file name is longer than 255 bytes") }
        let folder = folder(of: domain, host: host)
        return (folder, Path.join(folder, name))
    }

    /// The domain's file name as typed (before any lookup in another case).
    private func fileName(of domain: DomainName, host: DomainHost) -> String {
        let stem: String
        switch domain {
        case .path(let path): return Path.lastComponent(of: path)
        case .byHostFile(let name): return name + ".plist"
        case .global: stem = DomainName.globalFileStem
        case .named(let name): stem = name
        }
        guard let id = host.identifier else { return stem + ".plist" }
        return "\(stem).\(id).plist"
    }

    /// macOS keeps preferences on a case-insensitive disk, so scripts say
    /// `com.apple.Dock` and `com.apple.dock` for one domain. The file named exactly
    /// wins; else, among the names that differ only in case, the first in byte order;
    /// else the name as typed.
    static func existingName(_ name: String, in folder: String) -> String {
        if (try? FileSystem.linkStatus(Path.join(folder, name))) ?? nil != nil { return name }
        guard let entries = try? FileSystem.directoryEntries(folder) else { return name }
        return FolderNames(entries).spelling(of: name) ?? name
    }

    /// A cheap fingerprint of the file at `path` (one `stat`): it changes whenever the
    /// file is replaced or rewritten. Nil when there is no file.
    package static func stamp(at path: String) -> FileStamp? {
        guard let status = try? FileSystem.status(path) else { return nil }
        return FileStamp(status)
    }

    /// The app domains in the config folder, sorted; the global domain and ByHost
    /// files are left out, as `defaults domains` does, and so are file-sync engines'
    /// conflict copies (`ConflictCopy`).
    ///
    ///     try DomainStore().domainNames()   //=> ["com.example.app", "org.gnome.x"]
    ///
    /// - Throws: `StoreError.unreadable` when the folder cannot be listed.
    public func domainNames() throws(StoreError) -> [String] {
        let names: [String]
        do { names = try FileSystem.directoryEntries(directory) } catch {
            throw StoreError.unreadable(path: directory, error)
        }
        folderNames?.list(names)
        return Self.domainNames(in: names)
    }

    /// The domains among a listing of the config folder's names, sorted.
    static func domainNames(in names: [String]) -> [String] {
        names.compactMap { name -> String? in
            guard !name.hasPrefix("."), name.hasSuffix(".plist"), name.utf8.count > 6,
                ConflictCopy.domain(of: name) == nil, !DomainName.hasDesktopPrefix(name)
            else { return nil }
            return String(name.dropLast(6))
        }.sorted(by: byteOrderPrecedes)
    }
}

/// A folder's file names, listed once by a caller that then looks up many domains in it
/// (`DomainStore.folderNames`): by lowercased name, the first spelling in byte order, as
/// `DomainStore.existingName` picks it. A reference, so a store copied before the listing
/// sees it.
package final class FolderNames: @unchecked Sendable {
    /// Keyed by bytes: "é" and "e\u{301}" name two files, as the file system has them.
    private var spellings: [ExactKey: String]? = nil

    package init() {}

    /// A listing taken at once (`DomainStore.existingName`'s).
    init(_ names: [String]) { list(names) }

    /// Takes the folder's listing.
    package func list(_ names: [String]) {
        var spellings: [ExactKey: String] = [:]
        for name in names {
            let lowered = ExactKey(name.lowercased())
            if let other = spellings[lowered], byteOrderPrecedes(other, name) { continue }
            spellings[lowered] = name
        }
        self.spellings = spellings
    }

    /// The first name in byte order of the listing's that is `name` in another case; nil
    /// when there is none, or no listing yet.
    func spelling(of name: String) -> String? { spellings?[ExactKey(name.lowercased())] }

    /// `DomainStore.existingName` from the listing (a name it holds is looked at again: the
    /// folder may have changed since); nil before one was taken.
    func existingName(_ name: String, in folder: String) -> String? {
        guard spellings != nil else { return nil }
        if (try? FileSystem.linkStatus(Path.join(folder, name))) ?? nil != nil { return name }
        guard let other = spelling(of: name) else { return name }
        return (try? FileSystem.linkStatus(Path.join(folder, other))) ?? nil != nil ? other : name
    }
}
