import PlistCodecs
import PlistModel
import SettingsStore

/// `apply`: a desired state made true through the store, writing only what differs, and
/// remembering what each key it set held before, so a key dropped from a later desired
/// state gets that value back (or goes, when it had none).
///
/// The record is `stateDirectory/apply/NAME.json` (mode 0600), never in the config
/// folder: `{"settings-apply": 1, "domains": {DOMAIN: {POINTER: HELD}}}`, where HELD is
/// `{"before": VALUE}`, or `{}` for a place that had no value, with `"made": POINTER`
/// when applying it also made the dictionaries on the way from that one down.
public struct DesiredState: Sendable {
    /// The store the state is applied to.
    public let store: DomainStore
    /// Which record: independent desired states (a user's and a team's) take two names.
    public let name: String

    /// A desired state applied to `store`, remembered under `name`.
    public init(store: DomainStore, name: String = "default") { (self.store, self.name) = (store, name) }

    /// One change to make: a place set to a value, or removed (nil).
    public struct Edit: Sendable, Equatable {
        /// Where.
        public let path: PlistKeyPath
        /// What it becomes; nil removes it.
        public let value: PlistValue?
        /// For a removal: the dictionary from which down the dictionaries on the way go
        /// too when nothing else is left in them (they were made to hold it).
        public var made: PlistKeyPath? = nil
    }

    /// What applying would do, worked out before anything is written.
    public struct Plan: Sendable {
        /// Per domain: its name, its values now, the edits, its values after.
        public var domains: [(name: String, current: PlistDictionary?, edits: [Edit], planned: PlistDictionary)]
        /// The record as it will be once every domain is applied.
        public var record: PlistDictionary
        /// What would change, as `diff` prints it.
        public var difference: StateDiff {
            StateDiff(domains: domains.compactMap { StateDiff.domain($0.name, $0.current, $0.planned) })
        }
    }

    /// The record's file.
    public var recordPath: String { recordFile.path }

    /// The record, through the door for the tool's own files (`StateFile`).
    var recordFile: StateFile { store.stateFile("apply/\(name).json") }

    /// The plan for `desired`: its keys (a key that starts with `/` is a pointer) set, and
    /// the keys the last apply under this name set but `desired` lacks given back what
    /// they held. Throws `ApplyError.refused` with every problem at once (a managed key,
    /// a value the schema refuses, a bad pointer), before anything is written.
    public func plan(_ desired: SettingsState) throws -> Plan {
        let old = try readRecord()
        var record = PlistDictionary()
        var problems: [ApplyError.Problem] = []
        // Domain names are file names: told apart by their bytes, as keys are.
        var names = desired.domains.map(\.name)
        var named = Set(names.map(ExactKey.init))
        for entry in old.sortedEntries where named.insert(ExactKey(entry.key)).inserted { names.append(entry.key) }
        var plan = Plan(domains: [], record: [:])
        for name in names {
            let domain = try DomainName(name, home: store.environment.home)
            // A desired state from elsewhere must not reach a file outside the config folder.
            if case .path = domain {
                problems.append(.badPath(domain: name, key: "", "a desired state names domains, not files"))
                continue
            }
            let loaded = try store.load(domain)
            let current = loaded?.values
            var edits: [Edit] = []
            // Each pointer wanted and what it held, gathered as entries and made a dictionary
            // once (a pointer named twice, as "a" and "/a", counts once, as it held one thing).
            var held: [PlistDictionary.Entry] = []
            let before: PlistDictionary
            if case .dict(let dict)? = old[name] { before = dict } else { before = [:] }
            let values = current ?? [:]
            for entry in (desired[name] ?? [:]).uniqueEntries {
                let path: PlistKeyPath
                do throws(KeyPathError) {
                    path = entry.key.hasPrefix("/") ? try PlistKeyPath(pointer: entry.key) : PlistKeyPath([entry.key])
                } catch {
                    problems.append(.badPath(domain: name, key: entry.key, error.message))
                    continue
                }
                guard !path.segments.isEmpty else {
                    problems.append(
                        .badPath(domain: name, key: "", "the empty pointer names the whole domain, not a key"))
                    continue
                }
                let pointer = path.pointer
                edits.append(Edit(path: path, value: entry.value))
                held.append(.init(key: pointer, value: before[pointer] ?? Self.held(path, in: values)))
            }
            // Dropped since the last apply: given back what they held before it.
            let remembered = PlistDictionary(entries: held)
            for entry in before.sortedEntries where remembered.place(of: entry.key) == nil {
                guard let path = try? PlistKeyPath(pointer: entry.key), !path.segments.isEmpty else { continue }
                guard case .dict(let held) = entry.value else { continue }
                let made: PlistKeyPath?
                if case .string(let pointer)? = held["made"] {
                    made = try? PlistKeyPath(pointer: pointer)
                } else {
                    made = nil
                }
                edits.append(Edit(path: path, value: held["before"], made: made))
            }
            var planned = current ?? [:]
            do throws(KeyPathError) { try Self.perform(edits, on: &planned) } catch {
                problems.append(.badPath(domain: name, key: "", error.message))
                continue
            }
            problems += ApplyError.Problem.refusals(
                of: domain, named: name, in: store, current ?? [:], planned, format: loaded?.format ?? .xml)
            if !remembered.isEmpty { record[name] = .dict(remembered) }
            plan.domains.append((name, current, edits, planned))
        }
        guard problems.isEmpty else { throw ApplyError.refused(problems) }
        plan.record = record
        return plan
    }

    /// Applies `plan` domain by domain, each through one locked update against the file as
    /// it is then (a key another writer changed meanwhile and the plan does not touch is
    /// kept), then saves the record. A domain already right is not written. When a domain
    /// fails, the ones before it stay applied and the error says which they were.
    /// Returns the names of the domains written.
    @discardableResult
    public func run(_ plan: Plan) throws -> [String] {
        var written: [String] = [], done: [String] = []
        for (name, current, edits, planned) in plan.domains {
            do {
                let domain = try DomainName(name, home: store.environment.home)
                var changed = false
                try store.update(domain) { values in
                    let before = values
                    // The file as the plan read it (the usual case) becomes what the plan
                    // made of it; else the edits are made again on what it holds now.
                    if values == current ?? [:] { values = planned } else { try Self.perform(edits, on: &values) }
                    changed = values != before
                    return changed
                }
                if changed { written.append(name) }
                done.append(name)
            } catch {
                // The record says what the domains applied held, and no more: the last
                // record (read only now, as on success it is replaced whole) with theirs.
                if var record = try? readRecord() {
                    for name in done { record[name] = plan.record[name] }
                    try? saveRecord(record)
                }
                throw ApplyError.partial(applied: written, failed: name, error)
            }
        }
        try saveRecord(plan.record)
        return written
    }

    /// The record's form of what `path` holds in `values` (see the type's comment).
    static func held(_ path: PlistKeyPath, in values: PlistDictionary) -> PlistValue {
        if let value = path.value(in: values) { return .dict(["before": value]) }
        let segments = path.segments
        for depth in 1..<segments.count {
            let ancestor = PlistKeyPath(Array(segments.prefix(depth)))
            if ancestor.value(in: values) == nil { return .dict(["made": .string(ancestor.pointer)]) }
        }
        return .dict([:])
    }

    /// Makes each edit on `values`, in order. Each top-level key is looked up once and the
    /// keys changed are set in one pass at the end (`PlistDictionary.updating`): removing
    /// them one at a time would move the entries after each, once per key.
    static func perform(_ edits: [Edit], on values: inout PlistDictionary) throws(KeyPathError) {
        var tops = TopLevelEdits(values)
        for edit in edits {
            let key = edit.path.segments[0]
            try tops.edit(key) { (top: inout PlistValue?) throws(KeyPathError) in
                if let value = edit.value {
                    try edit.path.set(value, in: &top)
                } else if edit.path.segments.count == 1 {
                    top = nil
                } else {
                    _ = try edit.path.remove(in: &top)
                    // The dictionaries made to hold it, from the deepest up, while empty.
                    if let made = edit.made, made.segments.count < edit.path.segments.count {
                        for depth in stride(from: edit.path.segments.count - 1, through: made.segments.count, by: -1) {
                            let parent = PlistKeyPath(Array(edit.path.segments.prefix(depth)))
                            guard case .dict(let dict)? = parent.value(inside: .dict([key: top ?? .dict([:])])),
                                dict.isEmpty
                            else { break }
                            if depth == 1 { top = nil } else { _ = try parent.remove(in: &top) }
                        }
                    }
                }
            }
        }
        values = tops.result
    }

    /// The last record under this name: domain names to pointers to what they held.
    private func readRecord() throws -> PlistDictionary {
        // Through the state files' door: a link or FIFO planted at the record is refused,
        // in the door's own words.
        guard let bytes = try recordFile.read() else { return [:] }
        let root = try SettingsState.dictionary(bytes, name: recordPath)
        guard case .dict(let domains)? = root["domains"] else {
            throw StoreError.notADictionary(path: "\(recordPath): domains", root["domains"]?.type ?? .dict)
        }
        return domains
    }

    private func saveRecord(_ record: PlistDictionary) throws {
        let root: PlistDictionary = ["settings-apply": 1, "domains": .dict(record)]
        // Through the state files' door: a link or FIFO planted at the record is refused.
        try recordFile.replace(with: JSONWriter.encode(.dict(root), pretty: true) + [UInt8(ascii: "\n")], durable: true)
    }
}

/// Why `apply` did not apply everything.
public enum ApplyError: Error, Sendable {
    /// What stops a desired state from being applied at all.
    public enum Problem: Sendable, Equatable {
        /// The managed file at `by` locks the key.
        case managed(domain: String, key: String, by: String)
        /// The domain's schema refuses the value: why.
        case schema(domain: String, key: String, String)
        /// A key that is not a usable pointer: why.
        case badPath(domain: String, key: String, String)
        /// A value the domain's file could not hold: the store's message.
        case unstorable(String)

        /// Every changed top-level key from `current` to `planned` that the managed file
        /// locks, whose new value the schema refuses, or that a `format` file cannot hold:
        /// what any writer is refused, found before anything is written.
        public static func refusals(
            of domain: DomainName, named name: String, in store: DomainStore, _ current: PlistDictionary,
            _ planned: PlistDictionary, format: PlistFormat
        ) -> [Problem] {
            // The store's own policy, asked before anything is written: what `apply` and
            // `edit` refuse is exactly what the write would refuse.
            store.refusals(
                of: planned.changes(from: current), in: domain, format: format == .binary ? .binary : .xml, named: name
            ).map { error in
                switch error {
                case StoreError.managed(let key, let path): .managed(domain: name, key: key, by: path)
                case let refusal as SchemaRefusal: .schema(domain: name, key: refusal.key, refusal.problem)
                case let error as StoreError: .unstorable(error.message)
                default: .unstorable("\(error)")
                }
            }
        }

        /// One line for a person.
        public var message: String {
            switch self {
            case let .managed(domain, key, path): "\(domain): \(key) is managed by \(path)"
            case let .schema(domain, key, why): "\(domain): \(key): \(why)"
            case let .unstorable(message): message
            case let .badPath(domain, "", why): "\(domain): \(why)"
            case let .badPath(domain, key, why): "\(domain): \(key): \(why)"
            }
        }
    }

    /// Nothing was written: every problem found.
    case refused([Problem])
    /// The domains `applied` were written, `failed` failed with the error, the rest untouched.
    case partial(applied: [String], failed: String, any Error)
}
