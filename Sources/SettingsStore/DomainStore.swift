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
    /// How long, in seconds, a read of a file changed in the last two seconds that does not
    /// parse (or is empty) is tried again before it counts: Foundation rewrites its files in
    /// place, so a reader can catch one half-written. A hostile file costs a reader this
    /// long at most (2 s at most, the age below which a file counts as just changed); 0
    /// turns the retry off.
    public var readRetry: Double

    /// Who writes, for the journal (`history`): the command line sets `settings VERB`;
    /// nil is the program's name.
    package var writer: String?

    /// The variables the store was made from; schemas are looked up in its `XDG_DATA_DIRS`.
    public let environment: Environment

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
        return Path.join(folder, Self.existingName(fileName(of: domain, host: host), in: folder))
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
    private func located(_ domain: DomainName, host: DomainHost) throws(StoreError) -> (folder: String, typed: String) {
        let name = fileName(of: domain, host: host)
        if name.utf8.count > 255 { throw StoreError.invalidDomain(name, "the file name is longer than 255 bytes") }
        let folder = folder(of: domain, host: host)
        return (folder, Path.join(folder, name))
    }

    /// `FolderLock.holding` with this store's time-out and waiting notice.
    private func holdingLock<T>(
        _ folder: String, for path: String, file: String? = nil,
        _ body: (_ folder: CInt, _ file: LockedFile?) throws -> T
    ) throws -> T {
        try FolderLock.holding(folder, for: path, timeout: lockTimeout, waiting: waitingForLock, file: file, body)
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
        let lowered = name.lowercased()
        return entries.filter { $0.lowercased() == lowered }.min(by: byteOrderPrecedes) ?? name
    }

    /// A cheap fingerprint of the file at `path` (one `stat`): it changes whenever the
    /// file is replaced or rewritten. Nil when there is no file.
    package static func stamp(at path: String) -> FileStamp? {
        guard let status = try? FileSystem.status(path) else { return nil }
        return FileStamp(status)
    }

    /// The domain's values, or nil when it has no file.
    ///
    ///     try DomainStore().load(.named("com.example.app"))?.values["volume"]   //=> .int(70)
    ///
    /// - Parameters:
    ///   - domain: the domain; its file is found in any case (see `path(of:host:)`).
    ///   - host: `.current` for the `ByHost` file of `-currentHost`.
    /// - Throws: `StoreError`: a file that does not parse (`.corrupt`, never read as
    ///   empty), is no dictionary, is not a regular file, or cannot be read.
    public func load(_ domain: DomainName, host: DomainHost = .any) throws(StoreError) -> Domain? {
        _ = try located(domain, host: host)
        return try read(path(of: domain, host: host))?.domain
    }

    /// What a domain's whole text is written from (`output`).
    package enum Output {
        /// The domain's values (empty for a domain with no file).
        case values(PlistDictionary)
        /// A binary file, mapped and checked whole, whose XML
        /// `XMLWriter.encode(binary:layout:chunk:to:)` writes straight from its bytes; the
        /// writer gives the pages back as it goes (`MappedFile.dropPages`), so a big domain
        /// is never held whole.
        case binary(MappedFile, BinaryReader.Layout)
        /// The text (or binary plist) itself, written from the XML file as it was read
        /// (`XMLReader.text`, `XMLReader.binary`).
        case text([UInt8])
        /// An XML file, mapped, read and numbered, whose binary plist
        /// `XMLBinaryPlist.write` writes in pieces, giving the mapping's pages back as it
        /// goes (`export D PATH`): a big domain's answer is never held whole either.
        case binaryPlist(XMLBinaryPlist)
    }

    /// The whole-domain texts `output` can write without building values.
    package enum OutputForm {
        /// XML, from a binary file (`export D -`).
        case xml
        /// Compact JSON, from an XML file (`export D --json`).
        case json
        /// What `read D` prints, from an XML file.
        case defaults
        /// A binary property list, from an XML file (`export D PATH`).
        case binary
    }

    /// `load`, for a caller about to write the whole domain as `form`: a file that can be
    /// written so without building its values is handed over as the bytes to write (XML
    /// from a binary file; JSON, `read D`'s text or a binary plist from an XML one), so a
    /// big domain is never built as a tree; any other file is read as `load` reads it, with
    /// its checks and errors.
    package func output(of domain: DomainName, host: DomainHost = .any, as form: OutputForm)
        throws(StoreError) -> Output
    {
        _ = try located(domain, host: host)
        let path = path(of: domain, host: host)
        if form == .xml, let mapped = MappedFile(path), BinaryReader.hasHeader(mapped.bytes),
            let layout = try? BinaryReader.checkedForXML(mapped.bytes, progress: mapped.dropPages)
        {
            mapped.dropPages()
            return .binary(mapped, layout)
        }
        // An XML file to write as a binary one is read where it lies, its pages given back
        // as they are read: a big domain is never held whole. Any other, or one the direct
        // way refuses, is read below, for its error or values.
        if form == .binary, let mapped = MappedFile(path), !BinaryReader.hasHeader(mapped.bytes),
            TextDecoding.isUTF8AsIs(Array(mapped.bytes.prefix(512))),
            let plist = try? XMLReader.binaryPlist(
                mapped: mapped.bytes, owner: mapped, dropPages: { mapped.dropPages() },
                inParallel: { Self.inParallel($0) })
        {
            return .binaryPlist(plist)
        }
        enum Parsed {
            case direct(Output)
            case values((PlistValue, PlistFormat))
        }
        let file = try readFile(path) { bytes, _ throws(PlistError) -> Parsed in
            // A file the direct way refuses is parsed as `load` parses it, for its error.
            let binary = BinaryReader.hasHeader(bytes)
            switch form {
            case .xml:
                // Mapped above when it could be written straight; here for its error or values.
                break
            case .json, .defaults:
                if !binary,
                    let text = try? XMLReader.text(
                        bytes, as: form == .json ? .json : .defaults, inParallel: { Self.inParallel($0) })
                {
                    return .direct(.text(text))
                }
            case .binary:
                if !binary, let encoded = try? XMLReader.binary(bytes, inParallel: { Self.inParallel($0) }) {
                    return .direct(.text(encoded))
                }
            }
            return .values(try Self.parse(bytes, memo: nil))
        }
        guard let file else { return .values(PlistDictionary()) }
        switch file.parsed {
        case .direct(let output)?: return output
        case .values(let parsed)?: return .values(try fileRead(parsed, status: file.status, at: path).domain.values)
        case nil: return .values(try fileRead(nil, status: file.status, at: path).domain.values)
        }
    }

    /// One value of a domain, without building the rest: nil when the domain or the key
    /// does not exist. The whole file is checked, as `load` checks it, or, for a big file,
    /// was checked whole when its key index was made and has not changed since (`KeyIndex`).
    public func value(forKey key: String, in domain: DomainName, host: DomainHost = .any) throws(StoreError)
        -> PlistValue?
    {
        _ = try located(domain, host: host)
        let path = path(of: domain, host: host)
        let index = keyIndexFile(for: path)
        let found = try readFile(
            path,
            shortcut: { fd, status -> PropertyList.Lookup? in
                guard status.size >= KeyIndex.minimumFileSize else { return nil }
                switch KeyIndex.lookup(key, index: index, file: fd, status: status) {
                case .value(let value)?: return .dictionary(value)
                case .absent?: return .dictionary(nil)
                case nil: return nil
                }
            },
            parse: { bytes, status throws(PlistError) in
                guard KeyIndex.worthMaking(for: status) else { return try PropertyList.lookup(bytes, key: key).0 }
                let (found, format, places) = try PropertyList.lookupPlaces(bytes, key: key)
                if let places { saveKeyIndex(places, format: format, of: status, for: path, at: index) }
                return found
            })
        switch found?.parsed {
        case nil, .dictionary(nil)?: return nil
        case .dictionary(let value)?: return value
        case .notADictionary(let type)?: throw StoreError.notADictionary(path: path, type)
        }
    }

    /// The domain's journal, oldest change first: every change made through the store
    /// (any program, the command line, SettingsKit, `apply`, `sync`), with changes made
    /// without it found at the next write as `outside` ones. Empty when there is none or
    /// the journal is off (`SETTINGS_HISTORY_SIZE=0`).
    /// A change made without the store since its last write, not journalled yet, is the
    /// last entry, found now.
    public func history(of domain: DomainName, host: DomainHost = .any) -> [JournalEntry] {
        guard let journal = Journal(self) else { return [] }
        let named = path(of: domain, host: host)
        var entries = journal.entries(at: named)
        let stamp = (try? FileSystem.status(named)).flatMap { $0.map(FileStamp.init) }
        let found = Journal.Write(journal, at: named, before: stamp, creating: false) {
            try? load(domain, host: host)?.values
        }
        if !found.outside.isEmpty || found.outsideUncompared {
            let now = Double(FileSystem.wallClockNanoseconds()) / 1e9
            entries.append(
                JournalEntry(
                    time: now, writer: JournalEntry.outsideWriter, pid: 0, changes: found.outside,
                    valuesKept: !found.outsideUncompared))
        }
        return entries
    }

    /// Reads, changes and writes a domain under its lock. `change` returns whether it
    /// changed anything; when it did not, the file is not touched. A domain left empty
    /// loses its file, as Foundation does. What changed must be storable (`Unstorable`):
    /// else nothing is written. A warning comes back when the change is in place but its
    /// durability is not confirmed.
    ///
    ///     try store.update(.named("com.example.app")) { $0["volume"] = 70; return true }
    ///
    /// - Parameters:
    ///   - domain: the domain; a new file is made in the config folder (mode 0600).
    ///   - host: `.current` for the `ByHost` file of `-currentHost`.
    ///   - change: edits the values; returns whether it changed anything.
    /// - Returns: a warning when the write is in place but not confirmed durable.
    /// - Throws: `StoreError` (a file that does not parse is never overwritten, a
    ///   read-only one is refused, the lock timed out, the disk is full), or what
    ///   `change` threw, with nothing written.
    @discardableResult
    public func update(
        _ domain: DomainName, host: DomainHost = .any,
        _ change: (inout PlistDictionary) throws -> Bool
    ) throws -> StoreWarning? {
        try update(domain, host: host, written: nil, memo: nil, change)
    }

    /// What a change replaced: the stamps of the file read under the lock and of the file
    /// written (nil: none), told while the lock is still held, so a cache of the old
    /// file can become a cache of the new one without reading it.
    package typealias Written = (_ before: FileStamp?, _ after: FileStamp?) -> Void

    /// `update(_:host:_:)`, telling `written` what the change replaced; with a `memo`,
    /// a file this process last read or wrote is not parsed again.
    @discardableResult
    package func update(
        _ domain: DomainName, host: DomainHost = .any, written: Written?, memo: FileMemo? = nil,
        _ change: (inout PlistDictionary) throws -> Bool
    ) throws -> StoreWarning? {
        let managed = managedFile(of: domain, host: host)
        return try withTarget(domain, host: host) { target throws in
            let existing = try read(target.path, memo: memo, opened: target.opened)
            let before = existing?.domain.values ?? PlistDictionary()
            var values = before
            guard try change(&values) else { return nil }
            // Only what changed: a file another writer left such text in stays writable.
            let format = existing?.domain.format ?? .xml
            var binary = false
            let journal = Journal(self)
            var changes: [KeyChange] = [], changeCount = 0
            try values.forEachChange(from: before) { changed throws(StoreError) in
                try checkUnmanaged(changed.key, managed)
                // A journal line keeps a few thousand changes at most: past that, the count.
                if journal != nil {
                    changeCount += 1
                    if changes.count < Journal.keptChanges { changes.append(changed) }
                }
                guard let new = changed.new else { return }
                binary = try needsBinary(changed.key, new, format: format, at: target.path) || binary
            }
            let named = target.named
            let entry = journal.map {
                Journal.Write($0, at: named, before: existing.map { FileStamp($0.status) }, creating: true) { before }
            }
            let warning = try save(
                values, over: existing, to: target, binary: binary, written: written, memo: memo, entry: entry)
            entry?.finish(changes, count: changeCount, written: remains(values, target))
            return warning ?? entry?.warning
        }
    }

    /// Writes the document `encoded` makes as a domain that has no file, under its lock,
    /// as `update` writes the same keys set in an empty domain (managed keys refused, the
    /// history told), but with the bytes as they are: a big import is not its values
    /// encoded again. `encoded` runs only when there is no file, so a domain that has one
    /// costs nothing; not `created`, with nothing done, when it has one or `encoded` gives
    /// nil: the caller then takes `update`. The warning is `update`'s.
    package func create(_ domain: DomainName, host: DomainHost = .any, _ encoded: () -> EncodedDomain?) throws
        -> (created: Bool, warning: StoreWarning?)
    {
        let managed = managedFile(of: domain, host: host)
        var created = false
        let warning = try withTarget(domain, host: host) { target throws -> StoreWarning? in
            var absent = false
            do throws(Errno) { absent = try FileSystem.linkStatus(target.path) == nil } catch {}
            guard target.opened == nil, absent, let document = encoded() else { return nil }
            if managed != nil { for index in 0..<document.count { try checkUnmanaged(document.key(index), managed) } }
            let entry = Journal(self).map {
                Journal.Write($0, at: target.named, before: nil, creating: true) { PlistDictionary() }
            }
            let kept = entry == nil ? 0 : min(document.count, Journal.keptChanges)
            let changes = (0..<kept).map { KeyChange(key: document.key($0), old: nil, new: document.value($0)) }
            let warning = try replace(target, keeping: nil, entry: entry) { write in try write(document.xml[...]) }
                .warning
            created = true
            entry?.finish(changes, count: document.count, written: true)
            return warning ?? entry?.warning
        }
        return (created, warning)
    }

    /// Reads, changes and writes one top-level key under the domain's lock: `change` gets
    /// the key's value (nil when it has none), may set it (nil removes it), and returns
    /// whether it changed anything. Otherwise as `update`.
    ///
    /// A binary domain is edited without building its values (see `BinaryEditor`): the
    /// whole file is checked, only this key's value is built, and every other object is
    /// copied as bytes, so a one-key write of a big binary domain costs little more
    /// memory than the file.
    @discardableResult
    public func update(
        _ domain: DomainName, host: DomainHost = .any, key: String,
        _ change: (inout PlistValue?) throws -> Bool
    ) throws -> StoreWarning? {
        try update(domain, host: host, key: key, written: nil, memo: nil, change)
    }

    /// `update(_:host:key:_:)`, telling `written` what the change replaced; with a
    /// `memo`, an XML file this process last read or wrote is not parsed again.
    @discardableResult
    package func update(
        _ domain: DomainName, host: DomainHost = .any, key: String, written: Written?, memo: FileMemo? = nil,
        _ change: (inout PlistValue?) throws -> Bool
    ) throws -> StoreWarning? {
        let managed = managedFile(of: domain, host: host)
        return try withTarget(domain, host: host) { target throws in
            let file = try readFile(target.path, opened: target.opened) { bytes, _ throws(PlistError) -> OneKey in
                // Smaller than 2 GiB, a file cannot hold more objects than the editor numbers.
                guard PropertyList.sniff(bytes) == .binary, bytes.count < Int(Int32.max) else {
                    if let known = memo?.take(bytes) { return .remembered(known) }
                    return .tree(try Self.parse(bytes, memo: memo))
                }
                let (root, found, layout) = try BinaryReader.lookupWithLayout(bytes, key: key)
                guard case .dict = root else { return .notADictionary(root.type) }
                guard let editor = BinaryEditor(bytes, layout: layout, key: key) else {
                    return .tree(try PropertyList.read(bytes))
                }
                return .binary(editor, found)
            }
            var existing: FileRead?
            // The memo's bytes and values, taken out of it: a change spliced into them
            // copies neither (see `FileMemo.Known.set`).
            var known: FileMemo.Known?
            if let file {
                switch file.parsed {
                case .binary(let editor, let found)?:
                    memo?.forget()
                    return try edit(
                        editor, found, key: key, status: file.status, managed: managed, change, at: target,
                        written: written, journal: Journal(self), named: target.named)
                case .notADictionary(let type)?: throw StoreError.notADictionary(path: target.path, type)
                case .remembered(let taken)?:
                    known = taken
                    existing = FileRead(domain: Domain(values: [:], format: .xml), status: file.status)
                case .tree(let tree)?: existing = try fileRead(tree, status: file.status, at: target.path)
                case nil: existing = try fileRead(nil, status: file.status, at: target.path)
                }
            }
            var values = existing?.domain.values ?? PlistDictionary()
            let old = known.map { $0.value(of: key) } ?? values[key]
            var value = old
            guard try change(&value) else {
                if let known { memo?.remember(known) }
                return nil
            }
            try checkUnmanaged(key, managed)
            var binary = false
            if let value {
                binary = try needsBinary(key, value, format: existing?.domain.format ?? .xml, at: target.path)
            }
            let journal = Journal(self), named = target.named
            let entry = journal.map {
                Journal.Write($0, at: named, before: existing.map { FileStamp($0.status) }, creating: true) {
                    known?.values ?? values
                }
            }
            var spliced: FileMemo.Known?
            if var taken = known.take() {
                if !binary, taken.set(key, to: value) {
                    (spliced, values) = (taken, taken.values)
                } else {
                    values = taken.values
                }
            }
            if spliced == nil { values[key] = value }
            let warning = try save(
                values, over: existing, to: target, binary: binary, written: written, memo: memo, entry: entry,
                spliced: spliced)
            entry?.finish(
                old == value ? [] : [KeyChange(key: key, old: old, new: value)], written: remains(values, target))
            return warning ?? entry?.warning
        }
    }

    /// Whether storing `key` = `value` in a `format` file makes it binary: a date with a
    /// fraction of a second, or (with `binaryForAnyText`) text XML cannot hold; throws when
    /// it cannot be stored at all.
    private func needsBinary(_ key: String, _ value: PlistValue, format: PlistFormat, at path: String)
        throws(StoreError) -> Bool
    {
        if binaryForAnyText, format != .binary,
            case .controlCharacter? = PropertyList.unstorable(
                key: key, value: value, format: format)
        {
            try checkStorable(key, value, format: .binary, at: path)
            return true
        }
        try checkStorable(key, value, format: format, at: path)
        return PropertyList.hasFractionalDate(value)
    }

    /// Throws when `key` = `value` could not be read back from a `format` file.
    private func checkStorable(_ key: String, _ value: PlistValue, format: PlistFormat, at path: String)
        throws(StoreError)
    {
        if let problem = PropertyList.unstorable(key: key, value: value, format: format) {
            throw StoreError.unstorable(path: path, problem)
        }
    }

    /// Throws when `key` is locked by the domain's managed file.
    private func checkUnmanaged(_ key: String, _ managed: AdminFile?) throws(StoreError) {
        if let managed, managed.values[key] != nil { throw StoreError.managed(key: key, path: managed.path) }
    }

    /// The domain's managed file, for a writer. One that cannot be used locks nothing;
    /// saying so is the readers' part (`adminLayers(of:host:)`), so it is said once.
    private func managedFile(of domain: DomainName, host: DomainHost) -> AdminFile? {
        var unused: [LayerWarning] = []
        return adminFile(of: domain, host: host, .managed, &unused)
    }

    /// The binary branch of the one-key update.
    private func edit(
        _ editor: BinaryEditor, _ found: PlistValue?, key: String, status: FileSystem.Status, managed: AdminFile?,
        _ change: (inout PlistValue?) throws -> Bool, at target: Target, written: Written?,
        journal: Journal?, named: String
    ) throws -> StoreWarning? {
        var value = found
        guard try change(&value) else { return nil }
        try checkUnmanaged(key, managed)
        if let value { try checkStorable(key, value, format: .binary, at: target.path) }
        let entry = journal.map {
            Journal.Write($0, at: named, before: FileStamp(status), creating: true) {
                try? read(target.path, opened: target.opened)?.domain.values
            }
        }
        let changes = found == value ? [] : [KeyChange(key: key, old: found, new: value)]
        if value == nil, editor.otherEntryCount == 0 {
            let warning = try save(
                PlistDictionary(), over: FileRead(domain: Domain(values: [:], format: .binary), status: status),
                to: target, written: written)
            entry?.finish(changes, written: target.linked)
            return warning ?? entry?.warning
        }
        try checkWritable(status, at: target.path)
        let (warning, stamp) = try replace(target, keeping: status, entry: entry) { write in
            try editor.write(value, chunk: 1 << 20, to: write)
        }
        written?(FileStamp(status), stamp)
        entry?.finish(changes, written: true)
        return warning ?? entry?.warning
    }

    /// Whether a save of `values` leaves a file: not for an emptied domain, unless it is a link.
    private func remains(_ values: PlistDictionary, _ target: Target) -> Bool {
        !values.isEmpty || target.linked
    }

    /// What `update(_:host:key:_:)` read: a binary dictionary ready to edit with the
    /// key's value, any other document whole, or a root of another type.
    private enum OneKey {
        case binary(BinaryEditor, PlistValue?)
        /// The bytes `memo` remembers, taken out of it.
        case remembered(FileMemo.Known)
        case tree((PlistValue, PlistFormat))
        case notADictionary(ValueType)
    }

    /// A domain file to change: where it is, whether it was named through a link, and
    /// its folder, locked.
    private struct Target {
        let path: String
        /// The domain's file as named (`path(of:host:)`), looked up under the lock.
        let named: String
        let linked: Bool
        let directoryFD: CInt
        /// The file at `path`, open to read, when the lock opened it (see `FolderLock`).
        let opened: LockedFile?
    }

    /// Runs `body` on the domain's file holding its folder's lock. Everything that looks
    /// at the folder happens under the lock, so two first writes of one domain in two
    /// cases cannot both decide to make a file: the name's lookup in any case, the
    /// links' resolution and the read. A link into another folder locks that one too.
    ///
    /// Only the config folder (and its ByHost folder) is ever created; a path domain or
    /// a link's target must be in a folder that exists.
    private func withTarget(
        _ domain: DomainName, host: DomainHost,
        _ body: (Target) throws -> StoreWarning?
    ) throws -> StoreWarning? {
        let (folder, typed) = try located(domain, host: host)
        // An existing file, named without a link, is locked alone (see `FolderLock`). The
        // name as typed is looked at first: the one lookup `path(of:host:)` starts with.
        var existing = typed
        if case .path = domain { existing = path(of: domain, host: host) }
        var status: FileSystem.Status? = try? FileSystem.linkStatus(existing)
        if status == nil, existing == typed {
            existing = path(of: domain, host: host)
            if existing != typed { status = try? FileSystem.linkStatus(existing) }
        }
        // A file found in the folder means the folder is there: no `stat` of it at every write.
        if case .path = domain {
        } else if status == nil {
            do { try FileSystem.makeDirectories(folder) } catch { throw StoreError.writeFailed(path: typed, error) }
        }
        let alone = status?.isRegular == true ? existing : nil
        return try holdingLock(folder, for: typed, file: alone) { folderFD, fileFD throws in
            // The file as typed, locked and found still a regular file at its name: both
            // lookups below would find it again.
            let exact = fileFD != nil && alone == typed
            let named = exact ? typed : path(of: domain, host: host)
            let path = exact ? typed : try writeTarget(named)
            // Emptying a linked domain writes an empty dictionary through the link instead
            // of deleting its target, which would leave the link dangling.
            let linked = path != named
            let targetFolder = Path.directory(of: path)
            if !linked || Self.sameFile(folderFD, targetFolder) {
                let opened = path == alone ? fileFD : nil
                return try body(
                    Target(path: path, named: named, linked: linked, directoryFD: folderFD, opened: opened))
            }
            return try holdingLock(targetFolder, for: path) { targetFD, _ throws in
                try body(Target(path: path, named: named, linked: true, directoryFD: targetFD, opened: nil))
            }
        }
    }

    /// Whether `path` is the folder open as `fd` (a second `flock` of it would wait on ourselves).
    private static func sameFile(_ fd: CInt, _ path: String) -> Bool {
        guard let open = try? FileSystem.status(fd: fd), let other = try? FileSystem.status(path) else { return false }
        return open.device == other.device && open.inode == other.inode
    }

    /// Refuses to replace or remove a file its owner may not write (mode 0444), unless
    /// `overwriteReadOnly`: a read-only file is how a user says "leave this alone".
    private func checkWritable(_ status: FileSystem.Status?, at path: String) throws(StoreError) {
        guard let status, status.isRegular, !status.isOwnerWritable, !overwriteReadOnly else { return }
        throw StoreError.readOnly(path: path)
    }

    /// Writes `values` over what was read, in its format: a domain left empty loses its
    /// file (unless it was named through a link), and an empty new domain makes none.
    /// A change that stores a date with a fraction of a second, or text XML cannot hold
    /// (`binary`, see `needsBinary`), makes the file binary, the one format that keeps it:
    /// `Date()` set is the `Date()` read, here and in Foundation. (An XML file read back
    /// holds neither, so only what changed is looked at.)
    ///
    /// With a `memo`, an XML file's bytes are remembered with its values, sorted as
    /// written, and where each entry lies, so the next update of this file neither parses
    /// nor sorts it, and a one-key one writes `spliced`: those bytes with its entry
    /// spliced in (`values` are its values), not every entry encoded again.
    private func save(
        _ values: PlistDictionary, over existing: FileRead?, to target: Target, binary needsBinary: Bool = false,
        written: Written? = nil, memo: FileMemo? = nil, entry: Journal.Write? = nil,
        spliced: FileMemo.Known? = nil
    ) throws(StoreError) -> StoreWarning? {
        let path = target.path
        if values.isEmpty && existing == nil { return nil }
        try checkWritable(existing?.status, at: path)
        memo?.forget()
        let before = existing.map { FileStamp($0.status) }
        if values.isEmpty, existing != nil, !target.linked {
            do throws(Errno) { _ = try FileSystem.unlink(path) } catch {
                throw StoreError.writeFailed(path: path, error)
            }
            written?(before, nil)
            return nil
        }
        let binary = existing?.domain.format == .binary || needsBinary
        var kept: [UInt8]? = memo != nil && !binary && spliced == nil ? [] : nil
        var bounds: [Int] = []
        let values = kept != nil ? PlistDictionary(entries: values.sortedEntries) : values
        let (warning, stamp) = try replace(target, keeping: existing?.status, entry: entry) { write in
            if let spliced {
                try write(spliced.bytes[...])
            } else if binary {
                try write(BinaryWriter.encode(.dict(values), capacity: (existing?.status.size ?? 0) + 4096)[...])
            } else {
                try XMLWriter.encode(
                    .dict(values), chunk: 1 << 20, entryBounds: kept == nil ? nil : { bounds.append($0) }
                ) { chunk in
                    kept?.append(contentsOf: chunk)
                    try write(chunk)
                }
            }
        }
        if let spliced {
            memo?.remember(spliced)
        } else if let kept {
            memo?.remember(kept, values, bounds: bounds)
        }
        written?(before, stamp)
        return warning
    }

    /// The target's file replaced by what `contents` writes (`AtomicFile`, keeping `old`'s
    /// owner, mode and attributes), the journal's `entry` given its bytes and its place: a
    /// warning when it is in place but not confirmed durable, and the new file's stamp;
    /// nothing replaced, and `writeFailed`, when it failed.
    private func replace(
        _ target: Target, keeping old: FileSystem.Status?, entry: Journal.Write?,
        contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(StoreError) -> (warning: StoreWarning?, stamp: FileStamp?) {
        do throws(Errno) {
            let copy = entry.map { entry in AtomicFile.Copy(limit: Journal.comparedSize) { entry.copy($0) } }
            let replaced = try AtomicFile.replace(
                target.path, directoryFD: target.directoryFD, keeping: old, copy: copy, contents: contents)
            entry?.placed(replaced.status)
            return (StoreWarning(replaced.durability, path: target.path), replaced.status.map(FileStamp.init))
        } catch {
            throw StoreError.writeFailed(path: target.path, error)
        }
    }

    /// Removes a domain's file; false when there was none. The name is looked up under
    /// the folder's lock; a read-only file is refused unless `overwriteReadOnly`.
    public func remove(_ domain: DomainName, host: DomainHost = .any) throws(StoreError) -> Bool {
        try remove(domain, host: host, onlyIfEmpty: false)
    }

    /// `remove`, or with `onlyIfEmpty`, only when the file holds no key under the lock (a
    /// sync removing a domain another machine removed never takes a key written since).
    package func remove(_ domain: DomainName, host: DomainHost = .any, onlyIfEmpty: Bool) throws(StoreError)
        -> Bool
    {
        let (folder, typed) = try located(domain, host: host)
        let managed = managedFile(of: domain, host: host)
        guard (try? FileSystem.status(folder))??.isDirectory == true else { return false }
        do {
            return try holdingLock(folder, for: typed) { _, _ throws in
                let path = path(of: domain, host: host)
                let status: FileSystem.Status?
                do throws(Errno) { status = try FileSystem.linkStatus(path) } catch {
                    throw StoreError.unreadable(path: path, error)
                }
                guard let status else { return false }
                try checkWritable(status, at: path)
                let journal = Journal(self)
                var removed: PlistDictionary?
                // A file that does not parse is never removed where its keys matter; for
                // the journal alone, it is removed with no keys to record.
                let mustRead = onlyIfEmpty || managed != nil
                if mustRead || journal != nil,
                    let values = mustRead ? try read(path)?.domain.values : try? read(path)?.domain.values
                {
                    if onlyIfEmpty, !values.isEmpty { return false }
                    // Removing the file would remove the user's copy of a locked key.
                    if let managed { for entry in values.entries { try checkUnmanaged(entry.key, managed) } }
                    removed = values
                }
                let entry = journal.map {
                    Journal.Write($0, at: path, before: FileStamp(status), creating: true) { removed }
                }
                do throws(Errno) {
                    let gone = try FileSystem.unlink(path)
                    let changes = PlistDictionary().changes(from: removed ?? [:])
                    entry?.finish(changes, written: false)
                    return gone
                } catch {
                    throw StoreError.writeFailed(path: path, error)
                }
            }
        } catch {
            // FolderLock and the body throw only StoreError.
            throw error as? StoreError ?? .writeFailed(path: typed, .ioError)
        }
    }

    /// Where the key index of the domain file at `path` is kept: `$XDG_CACHE_HOME/settings/index`
    /// (an absolute `XDG_CACHE_HOME`, else `~/.cache`), by the file's path.
    func keyIndexFile(for path: String) -> StateFile {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = Path.join(environment.home, ".cache")
        }
        return StateFile(root: base, "settings/index/" + Path.flatName(of: path))
    }

    /// Writes the key index of a file just read whole, if it is still as it was when its
    /// read began. Nothing here fails a read: an index that cannot be made is not made.
    private func saveKeyIndex(
        _ places: [KeyPlace], format: PlistFormat, of status: FileSystem.Status, for path: String, at index: StateFile
    ) {
        guard let now = try? FileSystem.status(path), FileStamp(now) == FileStamp(status),
            let bytes = KeyIndex.encode(places, format: format, of: status)
        else { return }
        try? index.replace(with: bytes)
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
        return names.compactMap { name -> String? in
            guard !name.hasPrefix("."), name.hasSuffix(".plist"), name.utf8.count > 6,
                ConflictCopy.domain(of: name) == nil
            else { return nil }
            return String(name.dropLast(6))
        }.sorted(by: byteOrderPrecedes)
    }

    // MARK: Files

    struct FileRead {
        var domain: Domain
        var status: FileSystem.Status
    }

    /// Reads and parses a domain file (through `memo`, when given).
    func read(_ path: String, memo: FileMemo? = nil, opened: LockedFile? = nil) throws(StoreError) -> FileRead? {
        guard
            let file = try readFile(
                path, opened: opened, parse: { bytes, _ throws(PlistError) in try Self.parse(bytes, memo: memo) })
        else {
            memo?.forget()
            return nil
        }
        return try fileRead(file.parsed, status: file.status, at: path)
    }

    /// Parses a file's bytes, or takes their values from `memo` when it holds these bytes;
    /// an XML dictionary parsed is remembered there.
    private static func parse(_ bytes: [UInt8], memo: FileMemo?) throws(PlistError) -> (PlistValue, PlistFormat) {
        if let values = memo?.values(of: bytes) { return (.dict(values), .xml) }
        let parsed = try PropertyList.read(bytes, inParallel: { Self.inParallel($0) })
        if let memo, parsed.1 == .xml, case .dict(let values) = parsed.0 { memo.remember(bytes, values) }
        return parsed
    }

    /// Another thread for the second half of a big XML file (`XMLReader`).
    static func inParallel(_ work: @escaping () -> Result<XMLReader.SecondHalf, PlistError>)
        -> () -> Result<XMLReader.SecondHalf, PlistError>
    {
        FileSystem.growHeapsInBigSteps()
        let thread = Background(work)
        return { thread.join() }
    }

    /// A parsed file as a domain; an empty file (nothing parsed) is an empty XML domain.
    private func fileRead(_ parsed: (PlistValue, PlistFormat)?, status: FileSystem.Status, at path: String)
        throws(StoreError) -> FileRead
    {
        guard let (value, format) = parsed else {
            return FileRead(domain: Domain(values: PlistDictionary(), format: .xml), status: status)
        }
        guard case .dict(let values) = value else { throw StoreError.notADictionary(path: path, value.type) }
        return FileRead(domain: Domain(values: values, format: format), status: status)
    }

    /// Reads a domain file and parses it with `parse`; `parsed` is nil for an empty file.
    /// Only a regular file is read (a FIFO, a device or a folder is refused at once).
    /// `shortcut`, when given, is first shown the open file and its status: what it returns,
    /// when not nil, is the answer, and the file is not read.
    /// A parse failure of a file changed in the last two seconds is retried for `readRetry`
    /// seconds: Foundation rewrites its files in place, so a reader can catch one
    /// half-written (or just truncated, hence empty).
    private func readFile<T>(
        _ path: String, opened: LockedFile? = nil, shortcut: ((CInt, FileSystem.Status) -> T?)? = nil,
        parse: ([UInt8], FileSystem.Status) throws(PlistError) -> T
    ) throws(StoreError) -> (parsed: T?, status: FileSystem.Status)? {
        let deadline = FileSystem.monotonicSeconds() + min(max(readRetry, 0), 2)
        // The file the lock opened is read first; a retry opens the name again.
        var given = opened
        while true {
            let file: (bytes: [UInt8], status: FileSystem.Status)
            do throws(FileError) {
                let fd: CInt, status: FileSystem.Status, owned: Bool
                if let locked = given {
                    given = nil
                    // Its status is the lock's, looked at a moment ago under the lock.
                    (fd, status, owned) = (locked.fd, locked.status, false)
                    // A second read of the same descriptor (see `edit`) starts again.
                    do throws(Errno) { try FileSystem.rewind(fd) } catch { throw FileError.system(error) }
                } else {
                    guard let (own, ownStatus) = try FileSystem.openToRead(path) else { return nil }
                    (fd, status, owned) = (own, ownStatus, true)
                }
                defer { if owned { FileSystem.close(fd) } }
                if let shortcut, let answer = shortcut(fd, status) { return (answer, status) }
                file = (try FileSystem.readOpened(fd, status), status)
            } catch {
                throw StoreError(reading: path, error)
            }
            let age = FileSystem.wallClockNanoseconds() - file.status.modifiedNanoseconds
            let fresh = age < 2_000_000_000 && FileSystem.monotonicSeconds() < deadline
            if file.bytes.isEmpty {
                if fresh { FileSystem.sleep(seconds: 0.05); continue }
                return (nil, file.status)
            }
            do throws(PlistError) {
                return (try parse(file.bytes, file.status), file.status)
            } catch {
                if fresh {
                    FileSystem.sleep(seconds: 0.05)
                    continue
                }
                throw StoreError.corrupt(path: path, error)
            }
        }
    }

    /// The file a write must replace: the end of a chain of links, so the link stays.
    func writeTarget(_ path: String) throws(StoreError) -> String {
        let status: FileSystem.Status?
        do { status = try FileSystem.linkStatus(path) } catch { throw StoreError.unreadable(path: path, error) }
        guard let status, status.isSymlink else { return path }
        if let resolved = FileSystem.resolvedPath(path) { return resolved }
        // A dangling link: write the file it points at (its folder must exist).
        do {
            let target = try FileSystem.linkTarget(path)
            return target.hasPrefix("/") ? target : Path.join(Path.directory(of: path), target)
        } catch {
            throw StoreError.unreadable(path: path, error)
        }
    }
}

/// What `DomainStore.stamp(at:)` compares: a new inode for an atomic save, new times and
/// size for a rewrite in place.
package struct FileStamp: Sendable, Equatable {
    package let size: Int
    let inode: UInt64, device: UInt64, modified: Int64, changed: Int64
}

extension FileStamp {
    init(_ status: FileSystem.Status) {
        self.init(
            size: status.size, inode: status.inode, device: status.device,
            modified: status.modifiedNanoseconds, changed: status.changedNanoseconds)
    }
}
