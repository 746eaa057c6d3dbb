import PlistCodecs
import PlistModel
import SettingsStore

/// The settings of some domains at one moment: each named domain's values, or nil when it
/// has no file. What `snapshot` saves, `capture` and `diff` compare, and `apply` reads
/// (a state file is also a desired state).
public struct SettingsState: Sendable, Equatable {
    /// Domain names (as `DomainName.displayName` spells them) to their values; nil: absent.
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

    /// The domains `names` as the store holds them now; with no names, every domain of the
    /// config folder and the global domain. Then a domain whose file cannot be read is
    /// told to `skipped` and left out (`unreadable`), so one broken file does not stop a
    /// snapshot of all the others; a domain named is read or the error thrown.
    public static func live(
        _ names: [String], in store: DomainStore, skipped: (StoreError) -> Void = { _ in }
    ) throws(StoreError) -> SettingsState {
        var state = SettingsState(complete: names.isEmpty)
        for name in names.isEmpty ? try allNames(in: store) : names {
            let domain = try DomainName(name, home: store.environment.home)
            do throws(StoreError) {
                state.domains.append((domain.displayName, try store.load(domain)?.values))
            } catch {
                guard names.isEmpty else { throw error }
                state.unreadable.append(domain.displayName)
                skipped(error)
            }
        }
        return state
    }

    /// The global domain and every app domain of the config folder.
    public static func allNames(in store: DomainStore) throws(StoreError) -> [String] {
        [DomainName.global.displayName] + (try store.domainNames())
    }

    /// The key a state file starts with, so `diff` tells it from a domain's file.
    public static let marker = "settings-state"

    /// A state file: `{"settings-state": 1, "domains": {NAME: VALUES…}, "absent": [NAME…],
    /// "complete": BOOL, "unreadable": [NAME…]}`, JSON in the lossless mapping, so every
    /// type comes back as it was.
    public var file: [UInt8] {
        var present = PlistDictionary(), absent: [PlistValue] = []
        for (name, values) in domains {
            if let values { present[name] = .dict(values) } else { absent.append(.string(name)) }
        }
        let root: PlistDictionary = [
            Self.marker: 1, "domains": .dict(present), "absent": .array(absent), "complete": .bool(complete),
            "unreadable": .array(unreadable.map(PlistValue.string)),
        ]
        return JSONWriter.encode(.dict(root), pretty: true) + [UInt8(ascii: "\n")]
    }

    /// What a file holds: a state file (see `file`), a desired state (domain names to
    /// values), or one domain's values; JSON or any property-list format.
    public enum Contents: Sendable, Equatable {
        case state(SettingsState)
        case domain(PlistDictionary)
    }

    /// Reads a file's bytes; `name` is used in errors.
    public static func read(_ bytes: [UInt8], name: String) throws(StoreError) -> Contents {
        let root = try dictionary(bytes, name: name)
        guard root[marker] != nil else { return .domain(root) }
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
        return .state(state)
    }

    /// The `"domains"` dictionary of a file of the tool's own (a state file, `apply`'s
    /// record), or the error that says it has none.
    static func domains(of root: PlistDictionary, name: String) throws(StoreError) -> PlistDictionary {
        switch root["domains"] {
        case .dict(let domains)?: return domains
        case let other?: throw StoreError.notADictionary(path: "\(name): domains", other.type)
        case nil: throw StoreError.notOfForm(path: name, "it has no \"domains\" dictionary")
        }
    }

    /// A dictionary from JSON (tried first, as the state files are) or a property list.
    static func dictionary(_ bytes: [UInt8], name: String) throws(StoreError) -> PlistDictionary {
        let first = bytes.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return try PlistFiles.dictionary(from: bytes, name: name)
        }
        let value: PlistValue
        do throws(JSONError) { value = try JSONReader.read(bytes) } catch {
            // An OpenStep file also starts with a brace; JSON's error only if it is neither.
            if let dict = try? PlistFiles.dictionary(from: bytes, name: name) { return dict }
            throw StoreError.notJSON(path: name, error)
        }
        guard case .dict(let dict) = value else { throw StoreError.notADictionary(path: name, value.type) }
        return dict
    }
}
