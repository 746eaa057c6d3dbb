import PlistCodecs
import PlistModel
import SettingsStore

/// The settings of some domains at one moment: each named domain's values, or nil when it
/// has no file. What `snapshot` saves, `capture` and `diff` compare, and `apply` reads
/// (a state file is also a desired state).
public struct SettingsState: Sendable, Equatable {
    /// Domain names (as `name(of:host:)` spells them) to their values; nil: absent.
    public var domains: [(name: String, values: PlistDictionary?)]

    /// Whether it holds every domain there was (a snapshot of all of them): a domain it
    /// does not name was absent.
    public var complete: Bool

    /// Domains of a complete state that could not be read (a file that does not parse):
    /// nothing is known of them, so they are never compared.
    public var unreadable: [String] = []

    /// A state of `domains`, in the order given.
    public init(_ domains: [(name: String, values: PlistDictionary?)] = [], complete: Bool = false) {
        (self.domains, self.complete) = (domains, complete)
    }

    /// Whether the two name the same domains in the same order with the same values.
    /// Domain names are file names, compared as bytes (`ExactKey`), as keys are.
    public static func == (a: Self, b: Self) -> Bool {
        a.complete == b.complete && a.unreadable.map(ExactKey.init) == b.unreadable.map(ExactKey.init)
            && a.domains.count == b.domains.count
            && zip(a.domains, b.domains).allSatisfy { sameKey($0.name, $1.name) && $0.values == $1.values }
    }

    /// The values of `name`; nil when it is absent or not in the state.
    public subscript(name: String) -> PlistDictionary? {
        domains.first { sameKey($0.name, name) }?.values ?? nil
    }

    /// Whether the state names `name` (absent or not).
    public func names(_ name: String) -> Bool { domains.contains { sameKey($0.name, name) } }

    /// Whether the state says anything of `name`: it names it, or it holds every domain
    /// and could read that one.
    public func covers(_ name: String) -> Bool {
        names(name) || (complete && !unreadable.contains { sameKey($0, name) })
    }

    /// The domains `names` (state names, see `name(of:host:)`) as the store holds them now;
    /// with no names, every domain of the config folder, its ByHost files and the global
    /// domain. Then a domain whose file cannot be read is told to `skipped` and left out
    /// (`unreadable`), so one broken file does not stop a snapshot of all the others; a
    /// domain named is read or the error thrown.
    public static func live(
        _ names: [String], in store: DomainStore, skipped: (StoreError) -> Void = { _ in }
    ) throws(StoreError) -> SettingsState {
        var state = SettingsState(complete: names.isEmpty)
        for name in names.isEmpty ? try allNames(in: store) : names {
            let (domain, host) = try Self.domain(named: name, home: store.environment.home)
            let spelled = Self.name(of: domain, host: host)
            do throws(StoreError) {
                state.domains.append((spelled, try store.load(domain, host: host)?.values))
            } catch {
                guard names.isEmpty else { throw error }
                state.unreadable.append(spelled)
                skipped(error)
            }
        }
        return state
    }

    /// The global domain, every app domain of the config folder and every file of its
    /// ByHost folder (as `ByHost/FILE`), so a capture of everything sees a
    /// `-currentHost` write too.
    public static func allNames(in store: DomainStore) throws(StoreError) -> [String] {
        let folder = Path.join(store.directory, byHostFolder)
        // No ByHost folder is no ByHost domain; one that cannot be listed is said.
        var files: [String] = []
        if (try? FileSystem.linkStatus(folder)) ?? nil != nil {
            do { files = try FileSystem.directoryEntries(folder) } catch {
                throw StoreError.unreadable(path: folder, error)
            }
        }
        let byHost = files.compactMap { file -> String? in
            guard file.hasSuffix(".plist"), file.utf8.count > 6, ConflictCopy.domain(of: file) == nil,
                !DomainName.hasDesktopPrefix(file)
            else { return nil }
            return byHostPrefix + String(file.dropLast(6))
        }.sorted(by: byteOrderPrecedes)
        return [DomainName.global.displayName] + (try store.domainNames()) + byHost
    }

    /// The folder of the config folder that holds per-host files, as macOS names it.
    static let byHostFolder = "ByHost"

    /// How a state names a ByHost file: `ByHost/` and its file name without `.plist`,
    /// `ByHost/DOMAIN.HOST` (`ByHost/com.apple.screensaver.mac1`, and
    /// `ByHost/com.example.app.` for `-currentHost`, whose host Foundation on Linux names
    /// with an empty word). No domain name holds a `/`, and no path starts without one,
    /// so it is never taken for another domain.
    public static let byHostPrefix = byHostFolder + "/"

    /// The name a state (a snapshot, a diff, capture's output) gives a domain and host:
    /// the domain's `displayName` for the any-host file, `ByHost/DOMAIN.HOST` for a ByHost
    /// one (`byHostPrefix`). `domain(named:home:)` reads it back. A path domain has no
    /// host: it is its file.
    ///
    ///     SettingsState.name(of: .named("com.example.app"), host: .current)   //=> "ByHost/com.example.app."
    public static func name(of domain: DomainName, host: DomainHost) -> String {
        let id: String
        switch host {
        case .any:
            if case .byHostFile(let file) = domain { return byHostPrefix + file } else { return domain.displayName }
        case .current: id = ""
        case .named(let name): id = name
        }
        switch domain {
        case .path(let path): return path
        case .byHostFile(let file): return byHostPrefix + file
        case .global: return byHostPrefix + DomainName.globalFileStem + "." + id
        case .named(let name): return byHostPrefix + name + "." + id
        }
    }

    /// The domain and host a state's name stands for: the one place that reads a name
    /// `name(of:host:)` wrote (and any domain word: `-g`, a name, a path, a
    /// `~/Library/Preferences/ByHost/…` path). A ByHost file is split at its last dot
    /// into the domain and the host (empty: `.current`), which names the same file
    /// whatever dots the host holds; a file that splits into no valid pair stays the
    /// file (`.byHostFile`). `home` is where `~` points (the process's when nil).
    ///
    ///     try SettingsState.domain(named: "ByHost/com.example.app.mac1")   //=> (.named("com.example.app"), .named("mac1"))
    public static func domain(named name: String, home: String? = nil) throws(StoreError) -> (DomainName, DomainHost) {
        guard name.hasPrefix(byHostPrefix) else {
            let domain = try DomainName(name, home: home)
            if case .byHostFile(let file) = domain { return byHostDomain(file) }
            return (domain, .any)
        }
        let file = String(name.dropFirst(byHostPrefix.utf8.count))
        guard !file.isEmpty, !file.utf8.contains(UInt8(ascii: "/")), file != ".", file != ".." else {
            throw StoreError.invalidDomain(name, "a ByHost name is ByHost/DOMAIN.HOST")
        }
        if DomainName.hasDesktopPrefix(file) {
            throw StoreError.invalidDomain(name, DomainName.desktopPrefixRefusal)
        }
        return byHostDomain(file)
    }

    /// A ByHost file's name (without `.plist`) as a domain and host, where it splits into
    /// a valid pair; else the file itself.
    private static func byHostDomain(_ file: String) -> (DomainName, DomainHost) {
        guard let dot = file.lastIndex(of: ".") else { return (.byHostFile(file), .any) }
        let stem = String(file[..<dot]), id = String(file[file.index(after: dot)...])
        guard let host = id.isEmpty ? DomainHost.current : try? DomainHost.named(validating: id) else {
            return (.byHostFile(file), .any)
        }
        if stem == DomainName.globalFileStem { return (.global, host) }
        // A global spelling here names a file of its own (`NSGlobalDomain.mac1`), not the
        // global domain's.
        guard !stem.isEmpty, case .named(let domain)? = try? DomainName(stem), domain == stem else {
            return (.byHostFile(file), .any)
        }
        return (.named(domain), host)
    }

    /// The key a state file starts with, so `diff` tells it from a domain's file.
    public static let marker = "settings-state"

    /// A state file: `{"settings-state": 1, "domains": {NAME: VALUES…}, "absent": [NAME…],
    /// "complete": BOOL}`, and `"unreadable": [NAME…]` when a domain of a complete state
    /// could not be read; JSON in the lossless mapping, so every type comes back as it was.
    public var file: [UInt8] {
        var present = PlistDictionary(), absent: [PlistValue] = []
        for (name, values) in domains {
            if let values { present[name] = .dict(values) } else { absent.append(.string(name)) }
        }
        var root: PlistDictionary = [
            Self.marker: 1, "domains": .dict(present), "absent": .array(absent), "complete": .bool(complete),
        ]
        if !unreadable.isEmpty { root["unreadable"] = .array(unreadable.map(PlistValue.string)) }
        return JSONWriter.encode(.dict(root), pretty: true) + [UInt8(ascii: "\n")]
    }

    /// What a file holds: a state file (see `file`), a desired state (domain names to
    /// values), or one domain's values; JSON or any property-list format.
    public enum Contents: Sendable, Equatable {
        case state(SettingsState)
        case domain(PlistDictionary)
    }

    /// Reads a file's bytes; `name` is used in errors.
    public static func read(_ bytes: [UInt8], name: String) throws -> Contents {
        let root = try dictionary(bytes, name: name)
        guard root[marker] != nil else { return .domain(root) }
        return .state(try state(of: root, name: name))
    }

    /// The state a state file's root (one that has `marker`) holds.
    static func state(of root: PlistDictionary, name: String) throws -> SettingsState {
        let present = try domains(of: root, name: name)
        var state = SettingsState(complete: root["complete"] == .bool(true))
        for entry in present.uniqueEntries {
            guard case .dict(let values) = entry.value else {
                throw StoreError.notADictionary(path: "\(name): \(entry.key)", entry.value.type)
            }
            state.domains.append((entry.key, values))
        }
        if case .array(let names)? = root["absent"] {
            for case .string(let absent) in names where !state.names(absent) { state.domains.append((absent, nil)) }
        }
        if case .array(let names)? = root["unreadable"] {
            for case .string(let name) in names where !state.names(name) { state.unreadable.append(name) }
        }
        return state
    }

    /// The `"domains"` dictionary of a file of the tool's own (a state file, `apply`'s
    /// record), or the error that says it has none.
    static func domains(of root: PlistDictionary, name: String) throws -> PlistDictionary {
        switch root["domains"] {
        case .dict(let domains)?: return domains
        case let other?: throw StoreError.notADictionary(path: "\(name): domains", other.type)
        case nil: throw FormError(path: name, "it has no \"domains\" dictionary")
        }
    }

    /// A dictionary from JSON (tried first, as the state files are) or a property list;
    /// the JSON read by `json` (a desired state's reader also tells its nulls).
    static func dictionary(
        _ bytes: [UInt8], name: String,
        json: ([UInt8]) throws(JSONError) -> PlistValue = { bytes throws(JSONError) in try JSONReader.read(bytes) }
    ) throws(StoreError) -> PlistDictionary {
        let first = bytes.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return try PlistFiles.dictionary(from: bytes, name: name)
        }
        let value: PlistValue
        do throws(JSONError) { value = try json(bytes) } catch {
            // An OpenStep file also starts with a brace; JSON's error only if it is neither.
            if let dict = try? PlistFiles.dictionary(from: bytes, name: name) { return dict }
            throw StoreError.notJSON(path: name, error)
        }
        guard case .dict(let dict) = value else { throw StoreError.notADictionary(path: name, value.type) }
        return dict
    }
}

/// A file of the tool's own form (a state file, `apply`'s record) that parses, but not as
/// that form: one line saying what is wrong with it.
public struct FormError: Error, Sendable, Equatable {
    /// One line for a person.
    public let message: String
    /// `path` is not of its form: `problem`.
    public init(path: String, _ problem: String) { message = "cannot use \(path): \(problem)" }
    /// The line `message`, whole.
    public init(message: String) { self.message = message }
}
