import PlistCodecs
import PlistModel
import SettingsStore

/// `apply`: a desired state made true through the store, writing only what differs, and
/// remembering what each key it set held before, so a key dropped from a later desired
/// state gets that value back (or goes, when it had none) — unless someone changed it
/// since the apply set it: their value stays.
///
/// The record is `stateDirectory/apply/NAME.json` (mode 0600), never in the config
/// folder: `{"settings-apply": 1, "domains": {DOMAIN: {POINTER: HELD}}}`, where HELD is
/// `{"before": VALUE}`, or `{}` for a place that had no value, with `"made": POINTER`
/// when applying it also made the dictionaries on the way from that one down, and what the
/// apply left there: `"set": VALUE`, or `"removed": true` (a record of an older version has
/// neither, and its places are given back as they are).
///
/// A run holds the record folder's lock from its reading to its last write, so two applies
/// at once take turns, and writes the record with every place it is about to change before
/// it changes any: a run killed between two domains leaves a record from which the next
/// run still knows what each place held before the first.
public struct DesiredState: Sendable {
    /// The store the state is applied to.
    public let store: DomainStore
    /// Which record: independent desired states (a user's and a team's) take two names.
    public let name: String
    /// The host of a domain the file names without one (`-currentHost apply`): `.any`,
    /// the usual files, or a ByHost file's.
    public let host: DomainHost

    /// A desired state applied to `store`, remembered under `name`, its plain domain names
    /// those of `host`.
    public init(store: DomainStore, name: String = "default", host: DomainHost = .any) {
        (self.store, self.name, self.host) = (store, name, host)
    }

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

    /// What applying does to one domain, worked out before anything is written.
    public struct DomainPlan: Sendable {
        /// Its name, as the store spells it.
        public let name: String
        /// The domain.
        public let domain: DomainName
        /// Its host: a ByHost domain's (`ByHost/DOMAIN.HOST`), else `.any`.
        public let host: DomainHost
        /// Its values now; nil: it has no file.
        public let current: PlistDictionary?
        /// The edits, in order: places given back, then the desired state's.
        public let edits: [Edit]
        /// Its values after.
        public let planned: PlistDictionary
        /// Whether the desired state says the domain is absent: its file goes once empty.
        public let absent: Bool
    }

    /// What applying would do, worked out before anything is written.
    public struct Plan: Sendable {
        /// Per domain, in the desired state's order, then the record's.
        public var domains: [DomainPlan]
        /// The record as it will be once every domain is applied.
        public var record: PlistDictionary
        /// The record as the run begins: the last one, with every place the run changes.
        var ahead: PlistDictionary = [:]
        /// The last record, as the plan read it (the lock held, it is still that).
        var last: PlistDictionary = [:]
        /// What a person should know that changes nothing: places left as someone set
        /// them since, places that can no longer be given back.
        public var notes: [String] = []
        /// What would change, as `diff` prints it.
        public var difference: StateDiff { difference(of: domains.map(\.name)) }

        /// What changes in the domains `names` (those a run applied).
        public func difference(of names: [String]) -> StateDiff {
            let wanted = Set(names.map(ExactKey.init))
            return StateDiff(
                domains: domains.compactMap { plan in
                    guard wanted.contains(ExactKey(plan.name)) else { return nil }
                    return StateDiff.domain(
                        plan.name, plan.current, plan.absent && plan.planned.isEmpty ? nil : plan.planned)
                })
        }
    }

    /// The record's file.
    public var recordPath: String { recordFile.path }

    /// The record, through the door for the tool's own files (`StateFile`).
    var recordFile: StateFile { store.stateFile("apply/\(name).json") }

    /// Runs `body` holding the lock of the records' folder: one apply at a time, from
    /// reading the record to writing it. Waits up to `timeout` seconds.
    public func holdingLock<T>(timeout: Double = 30, _ body: () throws -> T) throws -> T {
        try recordFile.holdingFolderLock(timeout: timeout, body)
    }

    /// The plan for `desired`, a desired-state file's domains and keys.
    public func plan(_ desired: SettingsState) throws -> Plan { try plan(DesiredFile(desired)) }

    /// The plan for `desired`: its keys (in a desired-state file, a key that starts with
    /// `/` is a pointer) set or removed, and the places the last apply under this name set
    /// but `desired` lacks given back what they held. Throws `ApplyError.refused` with
    /// every problem at once (a managed key, a value the schema refuses, a bad pointer, a
    /// domain named twice, a domain the record holds that the file no longer names),
    /// before anything is written.
    public func plan(_ desired: DesiredFile) throws -> Plan {
        var problems: [ApplyError.Problem] = []
        var plan = Plan(domains: [], record: [:])
        // Domain names are file names: told apart by their bytes, as keys are, and each
        // domain once however it is spelled (`-g` and `NSGlobalDomain`; `com.a` and
        // `COM.A`, which the store finds as one file in any case).
        var wanted: [(name: String, domain: DomainName, host: DomainHost, values: PlistDictionary?)] = []
        var seen = Seen()
        let home = store.environment.home
        /// A name the file gives: its domain, host and the name the store spells it by. A
        /// snapshot's names say their hosts; only a desired state's plain names take one.
        func resolved(_ given: String) throws -> (name: String, domain: DomainName, host: DomainHost) {
            var (domain, host) = try SettingsState.domain(named: given, home: home)
            if host == .any, self.host != .any, !desired.isSnapshot, !given.hasPrefix(SettingsState.byHostPrefix) {
                switch domain {
                case .named, .global: host = self.host
                default: break
                }
            }
            return (SettingsState.name(of: domain, host: host), domain, host)
        }
        for (given, values) in desired.state.domains {
            let (canonical, domain, host) = try resolved(given)
            // A desired state from elsewhere must not reach a file outside the config folder.
            if case .path = domain {
                problems.append(.badPath(domain: given, key: "", "a desired state names domains, not files"))
                continue
            }
            if let first = seen.insert(canonical, as: given) {
                problems.append(.twice(domain: canonical, first, given))
                continue
            }
            wanted.append((canonical, domain, host, values))
        }
        let old = try readRecord()
        var ahead = old
        if desired.isSnapshot, desired.state.complete {
            // A snapshot of every domain: one it does not name (there now, or in the
            // record) was absent.
            for given in try SettingsState.allNames(in: store) + old.sortedEntries.map(\.key) {
                guard let (domain, host) = try? SettingsState.domain(named: given, home: home) else { continue }
                let name = SettingsState.name(of: domain, host: host)
                guard seen[name] == nil, !desired.state.unreadable.contains(where: { sameKey($0, name) })
                else { continue }
                _ = seen.insert(name, as: name)
                wanted.append((name, domain, host, nil))
            }
        }
        for entry in old.sortedEntries {
            let named = (try? SettingsState.domain(named: entry.key, home: home)).map(SettingsState.name)
            if seen[named ?? entry.key] == nil {
                problems.append(.unnamed(domain: entry.key, record: name))
            }
        }
        var absentKeys: [ExactKey: [[String]]] = [:]
        for (domain, keys) in desired.absentKeys {
            absentKeys[ExactKey((try? resolved(domain))?.name ?? domain), default: []].append(keys)
        }
        for (name, domain, host, values) in wanted {
            let before: PlistDictionary
            if case .dict(let dict)? = old[name] { before = dict } else { before = [:] }
            let loaded = try store.load(domain, host: host)
            let current = loaded?.values
            var domainPlan = DesiredDomain(name: name, current: current ?? [:], before: before)
            domainPlan.want(values, absent: absentKeys[ExactKey(name)] ?? [], literal: desired.isSnapshot)
            if values == nil || desired.isSnapshot { domainPlan.wantOnly(values ?? [:]) }
            domainPlan.giveBack()
            domainPlan.perform()
            problems += domainPlan.problems
            plan.notes += domainPlan.notes
            guard domainPlan.problems.isEmpty else { continue }
            problems += ApplyError.Problem.refusals(
                of: domain, named: name, in: store, current ?? [:], domainPlan.working, format: loaded?.format ?? .xml)
            if !domainPlan.record.isEmpty { plan.record[name] = .dict(domainPlan.record) }
            if !domainPlan.record.isEmpty || !before.isEmpty {
                ahead[name] = .dict(before.updating(domainPlan.record.entries.map { ($0.key, $0.value) }))
            }
            plan.domains.append(
                DomainPlan(
                    name: name, domain: domain, host: host, current: current, edits: domainPlan.edits,
                    planned: domainPlan.working, absent: values == nil))
        }
        guard problems.isEmpty else { throw ApplyError.refused(problems) }
        (plan.ahead, plan.last) = (ahead, old)
        return plan
    }

    /// Applies `plan` domain by domain, each through one locked update against the file as
    /// it is then (a key another writer changed meanwhile and the plan does not touch is
    /// kept), the record first made to hold every place the run changes, and made what the
    /// plan says once every domain is applied. A domain already right is not written; a
    /// domain the desired state says is absent loses its file once it holds no key. When a
    /// domain fails, the ones before it stay applied and the error says which they were;
    /// the record still knows what every place held. Returns the domains applied and,
    /// of them, those written. Run it holding the lock (`holdingLock`).
    @discardableResult
    public func run(_ plan: Plan) throws -> [String] { try runReporting(plan).written }

    /// `run`, telling the domains done (applied, written or already right) and those written.
    public func runReporting(_ plan: Plan) throws -> (done: [String], written: [String]) {
        var written: [String] = [], done: [String] = []
        // Each written only when it says something new: a first apply, or one that drops
        // nothing, writes the record once, before any domain.
        if plan.ahead != plan.last { try saveRecord(plan.ahead) }
        for domainPlan in plan.domains {
            do {
                var changed = false
                try store.update(domainPlan.domain, host: domainPlan.host) { values in
                    let before = values
                    // The file as the plan read it (the usual case) becomes what the plan
                    // made of it; else the edits are made again on what it holds now.
                    if values == domainPlan.current ?? [:] {
                        values = domainPlan.planned
                    } else {
                        Self.perform(domainPlan.edits, on: &values) { _, _ in }
                    }
                    changed = values != before
                    return changed
                }
                if domainPlan.absent, try store.remove(domainPlan.domain, host: domainPlan.host, onlyIfEmpty: true) {
                    changed = true
                }
                if changed { written.append(domainPlan.name) }
                done.append(domainPlan.name)
            } catch {
                throw ApplyError.partial(applied: done, written: written, failed: domainPlan.name, error)
            }
        }
        if plan.record != plan.ahead { try saveRecord(plan.record) }
        return (done, written)
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
        var failure: KeyPathError?
        perform(edits, on: &values) { _, error in failure = failure ?? error }
        if let failure { throw failure }
    }

    /// `perform`, an edit that cannot be made (its place is under a value that is not a
    /// dictionary, or past an array's end) left out, with its index, and the others made.
    static func perform(
        _ edits: [Edit], on values: inout PlistDictionary, failed: (Int, KeyPathError) -> Void
    ) {
        var tops = TopLevelEdits(values)
        for (index, edit) in edits.enumerated() {
            let key = edit.path.segments[0]
            tops.edit(key) { (top: inout PlistValue?) in
                // On a copy: an edit that fails half made leaves nothing of itself.
                var value = top
                do throws(KeyPathError) {
                    try make(edit, on: &value, key: key)
                    top = value
                } catch {
                    failed(index, error)
                }
            }
        }
        values = tops.result
    }

    /// Makes one edit on the value of its top-level key.
    private static func make(_ edit: Edit, on top: inout PlistValue?, key: String) throws(KeyPathError) {
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

    /// The last record under this name: domain names to pointers to what they held. A
    /// record that cannot be read or is not of its form (a link, a FIFO, another version, a
    /// place that is not `{…}`) stops the run, in one line saying how to go on: its places
    /// are what a later run gives back, so none is guessed.
    private func readRecord() throws -> PlistDictionary {
        let advice = "; remove it to start this record afresh, or apply with --as NAME"
        do {
            // Through the state files' door: a link or FIFO planted at the record is refused.
            guard let bytes = try recordFile.read() else { return [:] }
            let root = try SettingsState.dictionary(bytes, name: recordPath)
            guard root["settings-apply"] == .int(1) else {
                throw FormError(path: recordPath, "it is not a record of this version of settings")
            }
            let domains = try SettingsState.domains(of: root, name: recordPath)
            for domain in domains.entries {
                guard case .dict(let places) = domain.value,
                    places.entries.allSatisfy({ if case .dict = $0.value { true } else { false } })
                else {
                    throw FormError(path: recordPath, "\(domain.key) is not a dictionary of places")
                }
            }
            return domains
        } catch let error as FormError {
            throw FormError(message: error.message + advice)
        } catch let error as StoreError {
            throw FormError(message: error.message + advice)
        } catch let error as StateFileError {
            throw FormError(message: StoreError(error).message + advice)
        }
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
        /// Two names the file gives one domain.
        case twice(domain: String, String, String)
        /// A domain the record holds places of and the file no longer names: applying it
        /// would give back every one of them, which a file of another app's settings
        /// applied under the same record would do by mistake.
        case unnamed(domain: String, record: String)

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

        /// A key or pointer as a message names it: its first 200 bytes, and how many more
        /// (a pointer of 100,000 segments is one line, not 200 KB of it).
        static func shortened(_ key: String) -> String {
            guard key.utf8.count > 200 else { return key }
            let head = String(decoding: key.utf8.prefix(200), as: UTF8.self)
            return head + "… (\(key.utf8.count - 200) more bytes)"
        }

        /// One line for a person.
        public var message: String {
            switch self {
            case let .managed(domain, key, path): "\(domain): \(key) is managed by \(path)"
            case let .schema(domain, key, why): "\(domain): \(key): \(why)"
            case let .unstorable(message): message
            case let .badPath(domain, "", why): "\(domain): \(why)"
            case let .badPath(domain, key, why): "\(domain): \(Self.shortened(key)): \(why)"
            case let .twice(domain, first, second): "\(first) and \(second) name one domain, \(domain); give it once"
            case let .unnamed(domain, record):
                "\(domain): the record '\(record)' holds what an apply set there, and this file does not name it; "
                    + "name it as \"\(domain)\": {} to give those keys back, or apply with --as NAME to keep "
                    + "another record"
            }
        }
    }

    /// Nothing was written: every problem found.
    case refused([Problem])
    /// The domains `applied` were applied (`written` of them written), `failed` failed
    /// with the error, the rest untouched.
    case partial(applied: [String], written: [String], failed: String, any Error)
}

/// The domain names a plan has met, each in lower case as the store folds a file's name
/// (`FolderNames`: `lowercased()`, so the Kelvin sign is a `k`): the store finds a domain's
/// file in any case, so two spellings that differ only so are one domain, and a file
/// naming both would write it twice, for ever.
private struct Seen {
    private var names: [ExactKey: String] = [:]

    private static func folded(_ name: String) -> ExactKey { ExactKey(name.lowercased()) }

    /// The name first given for `name`'s domain, if it was met.
    subscript(name: String) -> String? { names[Self.folded(name)] }

    /// Meets `name`, given as `given`; the name first given when it was met already.
    mutating func insert(_ name: String, as given: String) -> String? {
        if let first = names[Self.folded(name)] { return first }
        names[Self.folded(name)] = given
        return nil
    }
}
