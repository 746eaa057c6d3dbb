import FoundationEssentials
import PlistModel
import PlistCodecs
import SettingsStore
import Synchronization

/// One domain's settings, typed: reads served from memory and never stale, writes that
/// are durable, atomic and locked when they return, and observation of every writer.
///
///     let settings = Settings(domain: "com.example.player")
///     settings[.volume] += 5                        // one read, one locked write
///     try settings.modify(.count) { $0 += 1 }       // one read-modify-write across processes
///     let token = settings.observe(.music) { print($0.newValue) }
///
/// Reads look where `UserDefaults` looks: the arguments (when opted in), the domain, the
/// global domain, then the key's default, which is never written. A value of another
/// type reads as the default and is reported once to `errorHandler`.
@dynamicMemberLookup
public final class Settings: Sendable {
    /// The domain read and written.
    public let domain: DomainName
    /// The host part: `-currentHost`'s `ByHost` file, or any.
    public let host: DomainHost
    let store: DomainStore
    /// `-key value` pairs from the command line, as Foundation's argument domain.
    let arguments: PlistDictionary
    let state = Mutex(State())
    let observers = Mutex(Observers())
    /// Why the domain name was refused (`../x`, empty): then every read and write fails
    /// with it, and no file is touched.
    let domainError: StoreError?

    /// How `set` writes: `.durable` (each one on disk when it returns) or `.coalesced`.
    public let writes: SettingsWrites
    let pending = Mutex(Pending())
    /// The domain file this instance last read or wrote under the lock, so the next
    /// write of it compares bytes instead of parsing them again (`FileMemo`).
    let memo = FileMemo()

    /// Reports what the non-throwing API cannot throw: a file that cannot be read or
    /// written, a value of the wrong type. Defaults to printing one line on stderr.
    public let errorHandler: @Sendable (SettingsError) -> Void

    /// The settings of `UserDefaults.standard` on Linux: the domain named after the
    /// process, `$XDG_CONFIG_HOME/<process name>.plist`.
    ///
    ///     Settings.standard.domain.displayName   //=> "player" for a program named player
    public static let standard = Settings(domain: ProcessInfo.processInfo.processName)

    /// `Settings(domain: "com.example.player")`; `host: .current` for `-currentHost`
    /// settings; `arguments: CommandLine.arguments` to let `-volume 70` on the command
    /// line override the domain, as Foundation does; `directory` for a folder other
    /// than `$XDG_CONFIG_HOME`; `writes: .coalesced` to gather bursts of `set`s into one
    /// write (see `SettingsWrites`).
    public init(
        domain: String, host: DomainHost = .any, arguments: [String] = [], directory: String? = nil,
        writes: SettingsWrites = .durable,
        errorHandler: @escaping @Sendable (SettingsError) -> Void = Settings.printError
    ) {
        self.writes = writes
        do throws(StoreError) {
            (self.domain, domainError) = (try DomainName(domain), nil)
        } catch {
            (self.domain, domainError) = (.named(""), error)
        }
        (self.host, self.errorHandler) = (host, errorHandler)
        store = Self.store(directory: directory)
        self.arguments = Self.argumentDomain(arguments)
    }

    /// A property-list file anywhere, such as an app's `Info.plist`.
    ///
    ///     Settings(path: "App/Info.plist")[SettingsKey<String>("CFBundleVersion", default: "")]   //=> "42"
    public init(path: String, errorHandler: @escaping @Sendable (SettingsError) -> Void = Settings.printError) {
        (domain, host, self.errorHandler, store, arguments, domainError, writes) = (
            .path(path), .any, errorHandler, Self.store(directory: nil), [:], nil, .durable
        )
    }

    /// The store of a `Settings`: any Swift `String` is stored, in a binary domain when XML
    /// cannot hold it (see `DomainStore.binaryForAnyText`).
    private static func store(directory: String?) -> DomainStore {
        var store = DomainStore(directory: directory)
        store.binaryForAnyText = true
        return store
    }

    /// A coalescing `Settings` writes what it gathered before it goes.
    deinit {
        if writes == .coalesced { try? flush() }
    }

    /// The default error handler: one line on standard error, in the program's own name
    /// (a program named player prints `player: …`), as a command-line tool reports.
    ///
    ///     Settings.printError(.wrongType(key: "volume", found: "a string"))
    ///     //=> player: the value of 'volume' is a string, not the key's type; the default is used
    public static let printError: @Sendable (SettingsError) -> Void = { error in
        try? StandardStreams.write("\(ProcessInfo.processInfo.processName): \(error.message)\n", toError: true)
    }

    // MARK: Reading

    /// The value for `key`; errors go to `errorHandler` and read as the default.
    ///
    ///     settings[.volume]         //=> 50 until something is stored
    ///     settings[.volume] = 70
    public subscript<Value>(key: SettingsKey<Value>) -> Value {
        get {
            do { return try get(key) } catch {
                errorHandler(error)
                return key.defaultValue
            }
        }
        set {
            do { try set(newValue, for: key) } catch { errorHandler(error) }
        }
    }

    /// The value for `key`, throwing when the domain's file cannot be read.
    ///
    ///     try settings.get(.volume)   //=> 50
    public func get<Value>(_ key: SettingsKey<Value>) throws(SettingsError) -> Value {
        value(of: key, stored: try storedValue(key.name))
    }

    /// `key`'s value from what is stored for it: its default when nothing is, or what is
    /// stored is not of its type (reported once).
    func value<Value>(of key: SettingsKey<Value>, stored: PlistValue?) -> Value {
        guard let stored else { return key.defaultValue }
        guard let value = key.decoded(stored) ?? argumentText(stored, key) else {
            reportOnce(key.mismatch(stored), stored, key.name)
            return key.defaultValue
        }
        return value
    }

    /// Whether a value is stored for `key` in the arguments, the domain or the global
    /// domain (a default does not count).
    ///
    ///     settings.contains(.name)   //=> false until a name is set
    public func contains<Value>(_ key: SettingsKey<Value>) -> Bool {
        ((try? storedValue(key.name)) ?? nil) != nil
    }

    /// The stored value, in `UserDefaults`' order (arguments, domain, global domain),
    /// each domain read through its administrator's layers: a managed value wins over
    /// everything, even the arguments; a machine-wide default comes after the user's own.
    /// With `user`, that is taken as the user's own value instead of the file's (the value
    /// a change just delivered, `.some(nil)` when it removed the key).
    func storedValue(_ name: String, user given: PlistValue?? = nil) throws(SettingsError) -> PlistValue? {
        if let domainError { throw .store(domainError) }
        // One look at the folder watch for the whole lookup (up to ten files), not one each.
        FolderWatch.drain()
        let own = layers(domain, host, drained: true)
        if let value = own.managed?.values[name] { return value }
        if let value = arguments[name] { return value }
        let user: PlistValue?
        if let given { user = given } else { user = try userValue(name, drained: true) }
        if let (value, _) = own.resolve(name, user: user) { return value }
        guard case .named = domain else { return nil }
        let global = layers(.global, .any, drained: true)
        if let value = global.managed?.values[name] { return value }
        return global.resolve(name, user: try value(name, in: .global, .any, drained: true))?.value
    }

    /// The user's own value of `name` in this domain: a gathered `set` waiting to be
    /// written (see `SettingsWrites.coalesced`), else the file's.
    private func userValue(_ name: String, drained: Bool = false) throws(SettingsError) -> PlistValue? {
        if let gathered = gathered(name) { return gathered }
        return try value(name, in: domain, host, drained: drained)
    }

    /// One key of one domain: from the cache, or for the first read of a big file from
    /// a lookup that builds only that value (the cache is built on the next read).
    private func value(_ name: String, in domain: DomainName, _ host: DomainHost, drained: Bool = false)
        throws(SettingsError) -> PlistValue?
    {
        guard let index = try cached(domain, host, drained: drained) else {
            do { return try store.value(forKey: name, in: domain, host: host) } catch { throw .store(error) }
        }
        return index[ExactKey(name)]
    }

    /// A domain's values from memory. They are read again only when the file changed:
    /// the process-wide folder watch says whether anything happened in its folder (no
    /// system call but an empty `read`), and only then is the file's stamp compared.
    ///
    /// Nil the first time a file over 1 MB is read: a program that reads one setting of a
    /// big domain and exits should not pay for indexing all of it. `drained`: the caller
    /// has just called `FolderWatch.drain()`.
    func cached(_ name: DomainName, _ host: DomainHost, drained: Bool = false) throws(SettingsError)
        -> [ExactKey: PlistValue]?
    {
        let isOwn = name == domain
        let (path, known) = state.withLock { state in
            let cache = isOwn ? state.own : state.global
            // Resolved once: a file created later under another case of the name is not
            // looked for, as Foundation does not look for it either.
            return (cache?.path ?? store.path(of: name, host: host), cache)
        }
        let (unchanged, now) = FolderWatch.check(path, since: known?.checkedAt, drain: !drained)
        if unchanged, let known { return known.values }
        let stamp = DomainStore.stamp(at: path)
        if let known, known.stamp == stamp {
            state.withLock { state in
                let renewed = DomainCache(path: path, stamp: stamp, checkedAt: now, values: known.values)
                if isOwn { state.own = renewed } else { state.global = renewed }
            }
            return known.values
        }
        if known == nil, let size = stamp?.size, size > Self.lookUpFirstAbove.load(ordering: .relaxed) {
            let first = state.withLock { $0.lookedUp.insert(ExactKey(path)).inserted }
            if first { return nil }
        }
        let loaded: PlistDictionary
        do { loaded = try store.load(name, host: host)?.values ?? [:] } catch { throw .store(error) }
        var index: [ExactKey: PlistValue] = [:]
        index.reserveCapacity(loaded.entries.count)
        for entry in loaded.entries { index[ExactKey(entry.key)] = entry.value }
        let cache = DomainCache(path: path, stamp: stamp, checkedAt: now, values: index)
        state.withLock { state in if isOwn { state.own = cache } else { state.global = cache } }
        return index
    }

    func reportOnce(_ error: SettingsError, _ value: PlistValue, _ key: String) {
        let first = state.withLock { $0.reported.insert(ReportedValue(key: ExactKey(key), value: value)).inserted }
        if first { errorHandler(error) }
    }

    // MARK: Writing

    /// Stores `value` (after the key's adjustment); durable when it returns. Writing
    /// the value already stored does not touch the file. Nil for an optional key removes it.
    ///
    ///     try settings.set(150, for: .volume); settings[.volume]   //=> 100 (clamped)
    public func set<Value>(_ value: Value, for key: SettingsKey<Value>) throws(SettingsError) {
        let new = try key.encoded(value)
        if writes == .coalesced {
            if let domainError { throw .store(domainError) }
            // Refused now, as the write would be refused later.
            if let managed = layers(domain, host).managed, managed.values[key.name] != nil {
                throw .store(.managed(key: key.name, path: managed.path))
            }
            if try userValue(key.name) != new { gather(key.name, new) }
            return
        }
        do {
            try write(key.name) { current in
                if current == new { return false }
                current = new
                return true
            }
        } catch {
            throw settingsError(error)
        }
    }

    /// One locked read-modify-write of `key` across processes: the value in the file
    /// (or the default) is handed to `body`, and what it leaves is stored.
    ///
    ///     try settings.modify(.launches) { $0 += 1 }
    ///
    /// - Throws: `SettingsError`, as `set` does.
    public func modify<Value>(_ key: SettingsKey<Value>, _ body: (inout Value) -> Void) throws(SettingsError) {
        do { try modifyAny(key, body) } catch { throw settingsError(error) }
    }

    /// `modify` with a body that may throw: its error passes through unchanged, and
    /// nothing is written; the store's errors are `SettingsError`s.
    public func modify<Value>(_ key: SettingsKey<Value>, _ body: (inout Value) throws -> Void) throws {
        try modifyAny(key, body)
    }

    private func modifyAny<Value>(_ key: SettingsKey<Value>, _ body: (inout Value) throws -> Void) throws {
        try write(key.name) { current in
            var value = current.flatMap(key.decoded) ?? key.defaultValue
            try body(&value)
            let new = try key.encoded(value)
            if current == new { return false }
            current = new
            return true
        }
    }

    /// Removes the keys from the domain, so reads give the defaults again.
    ///
    ///     try settings.reset(.volume, .name); settings[.volume]   //=> 50
    ///
    /// - Throws: `SettingsError`, as `set` does.
    public func reset(_ keys: SettingsKeys...) throws(SettingsError) {
        try reset(keys)
    }

    /// Several changes under one lock and one write.
    ///
    ///     try settings.batch { $0[.volume] = 70; $0[.name] = "Ann" }
    ///
    /// - Throws: `SettingsError`, as `set` does.
    public func batch(_ body: (inout Batch) -> Void) throws(SettingsError) {
        do { try batchAny(body) } catch { throw settingsError(error) }
    }

    /// `batch` with a body that may throw: its error passes through unchanged, and
    /// nothing is written; the store's errors are `SettingsError`s.
    public func batch(_ body: (inout Batch) throws -> Void) throws {
        try batchAny(body)
    }

    private func batchAny(_ body: (inout Batch) throws -> Void) throws {
        try batchWrite { values in
            var batch = Batch(values: values)
            try body(&batch)
            if let failure = batch.failure { throw failure }
            guard batch.values != values else { return false }
            values = batch.values
            return true
        }
    }

    /// The `SettingsError` of a write whose change cannot throw: the store's errors are
    /// wrapped and `SettingsError`s pass; anything else (which no path throws) is reported
    /// as an I/O failure of the domain's file rather than ending the program.
    func settingsError(_ error: any Error) -> SettingsError {
        if let error = error as? SettingsError { return error }
        if let error = error as? StoreError { return .store(error) }
        // The domain's schema refuses the value: one that cannot be stored, as an
        // encoding that throws is (`StoreError` keeps its cases, so its switches hold).
        if let refusal = error as? SchemaRefusal { return .unencodable(key: refusal.key, reason: refusal.problem) }
        return .store(.writeFailed(path: store.path(of: domain, host: host), .ioError))
    }

    /// A locked one-key update; the store's errors become `SettingsError`s, the
    /// caller's own pass through. Observers hear of the change at once.
    func write(_ name: String, _ change: (inout PlistValue?) throws -> Bool) throws {
        if let domainError { throw SettingsError.store(domainError) }
        try flush()
        var written: PlistValue??
        var stamps: (FileStamp?, FileStamp?)?
        do {
            try store.update(domain, host: host, key: name, written: { stamps = ($0, $1) }, memo: memo) { value in
                guard try change(&value) else { return false }
                written = .some(value)
                return true
            }
        } catch let error as StoreError { throw SettingsError.store(error) }
        guard let written else { return }
        if let stamps { patchCache([ExactKey(name): written], stamps) }
        delivered([ExactKey(name): written])
    }

    /// The domain's values as cached, when the cache is of the file at `stamp`.
    func cachedValues(at stamp: FileStamp) -> PlistDictionary? {
        state.withLock { state -> PlistDictionary? in
            guard let own = state.own, own.stamp == stamp else { return nil }
            var values = PlistDictionary()
            values.reserveCapacity(own.values.count)
            for (key, value) in own.values { values.append(key: key.text, value: value) }
            return values
        }
    }

    /// After this process's own write: the cached values become the file's new ones
    /// without reading it, when the cache held exactly the file the write replaced (its
    /// stamp); otherwise the next read reads the file, as after any other writer.
    func patchCache(_ changes: [ExactKey: PlistValue?], _ stamps: (before: FileStamp?, after: FileStamp?)) {
        state.withLock { state in
            guard let stamp = state.own.map(\.stamp), stamp == stamps.before else { return }
            // In place: a copy of the values changed and stored back copied the whole
            // dictionary at every set.
            for (key, value) in changes { state.own!.values[key] = value }
            state.own!.stamp = stamps.after
            state.own!.checkedAt = nil
        }
    }

    func batchWrite(_ change: (inout PlistDictionary) throws -> Bool) throws {
        if let domainError { throw SettingsError.store(domainError) }
        try flush()
        var before = PlistDictionary(), after = PlistDictionary(), changed = false
        var stamps: (FileStamp?, FileStamp?)?
        do {
            try store.update(domain, host: host, written: { stamps = ($0, $1) }, memo: memo) { values in
                before = values
                guard try change(&values) else { return false }
                (after, changed) = (values, true)
                return true
            }
        } catch let error as StoreError { throw SettingsError.store(error) }
        guard changed else { return }
        var changes: [ExactKey: PlistValue?] = [:]
        for change in after.changes(from: before) { changes[ExactKey(change.key)] = change.new }
        if let stamps { patchCache(changes, stamps) }
        delivered(changes)
    }

    // MARK: Arguments

    /// A command-line word is text; read it as the key's type where it spells one
    /// (`-volume 70` for an integer key), as `UserDefaults.integer(forKey:)` does.
    func argumentText<Value: SettingsValue>(_ stored: PlistValue, _ key: SettingsKey<Value>) -> Value? {
        guard case .string(let text) = stored, arguments[key.name] != nil else { return nil }
        var candidates: [PlistValue] = []
        if let i = Int64(text) { candidates.append(.int(i)) }
        if let d = Double(text) { candidates.append(.double(d)) }
        candidates.append(.bool(Self.foundationBool(text)))
        return candidates.lazy.compactMap(key.decoded).first
    }

    /// A word as Foundation's `bool(forKey:)` reads a string (`NSString.boolValue`): true
    /// when, after leading spaces, a sign and zeros, it starts with Y, T (any case) or a
    /// digit 1 to 9, so `-flag YES`, `-flag t` and `-flag 2` are true; anything else is false.
    /// Past this size (1 MiB) a domain's first read looks the one key up rather than
    /// indexing the whole file (`values`). A test seam, so the path is tried on a small
    /// domain; set before any read, never by the product.
    package static let lookUpFirstAbove = Atomic(1 << 20)

    static func foundationBool(_ text: String) -> Bool {
        var rest = text.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        rest = rest.drop { $0 == UInt8(ascii: "0") }
        guard let first = rest.first else { return false }
        return "YyTt123456789".utf8.contains(first)
    }

    /// `-key value` pairs, each value read as `defaults` reads an untyped word.
    static func argumentDomain(_ arguments: [String]) -> PlistDictionary {
        var dict = PlistDictionary()
        var i = 0
        while i + 1 < arguments.count {
            let word = arguments[i]
            if word.count > 1, word.hasPrefix("-"), !arguments[i + 1].hasPrefix("-") || Double(arguments[i + 1]) != nil
            {
                dict[String(word.dropFirst())] =
                    (try? CommandLineValue.untyped(arguments[i + 1])) ?? .string(arguments[i + 1])
                i += 2
            } else {
                i += 1
            }
        }
        return dict
    }
}
