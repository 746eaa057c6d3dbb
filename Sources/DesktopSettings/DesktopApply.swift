import PlistCodecs
import PlistModel
import SettingsStore

/// `apply` for the desktop's keys: a desired state's `gsettings:` and `dconf:` domains made
/// true through dconf, remembering what each key it set held before, so a key dropped from
/// a later desired state gets that value back, or its schema's default when it had none,
/// unless someone changed it since: their value stays. As `DesiredState` does for plist
/// domains, under the same record name, beside its record:
/// `apply/NAME.desktop.json`, `{"settings-apply-desktop": 1, "domains": {DOMAIN: {KEY:
/// {"set": TEXT, "before": TEXT}}}}`, values as GVariant text (`before` missing: none;
/// `"removed": true` in place of `set`: the apply removed the key).
/// The caller holds the records' folder lock; the record with every place about to
/// change is written before dconf is asked for any change.
package struct DesktopApply {
    package let store: DesktopStore
    let record: StateFile

    package init(store: DesktopStore, stateStore: DomainStore, name: String) {
        self.store = store
        record = stateStore.stateFile("apply/\(name).desktop.json")
    }

    /// One domain's changes, worked out before anything is written.
    package struct DomainPlan {
        package let name: String
        let place: DesktopStore.Place
        /// Keys set (a value) or reset (nil), in order.
        let changes: [(key: String, value: Variant?)]
        /// The user's values before and after, in the value model, for `diff`'s text.
        package let current: PlistDictionary
        package let planned: PlistDictionary
    }

    /// What a key held before the first apply that changed it (nil: nothing), and what
    /// the apply left there (nil: it removed it).
    typealias Held = (set: String?, before: String?)

    package struct Plan {
        package var domains: [DomainPlan] = []
        /// Whether running it changes a desktop key (then dconf must be there first).
        package var writes: Bool { domains.contains { !$0.changes.isEmpty } }
        /// The record once every domain is applied; and as a run begins (with every
        /// place about to change).
        var record: [String: [String: Held]] = [:]
        var ahead: [String: [String: Held]] = [:]
        /// What changes nothing but a person should know (a key left as someone set it).
        package var notes: [String] = []
        /// Whether there was a record: with none and no desktop domain, nothing is written.
        var hadRecord = false
    }

    /// The plan for the desktop domains of a desired state (`null` for a domain: every
    /// key the user set goes), the keys `absent` names removed, and the keys the last
    /// record holds that the state no longer sets given back.
    /// With `exact` (a snapshot restored), each domain named becomes exactly its values:
    /// every other key the user set in it goes back to its default.
    package func plan(
        _ desired: [(name: String, values: PlistDictionary?)], absent: [(domain: String, keys: [String])],
        exact: Bool = false
    ) throws -> Plan {
        let last = try readRecord()
        var plan = Plan()
        plan.hadRecord = !last.isEmpty
        var wanted: [String: [String: Variant?]] = [:], order: [String] = []
        var places: [String: DesktopStore.Place] = [:]
        func place(_ name: String) throws -> DesktopStore.Place {
            if let known = places[name] { return known }
            let found = try store.place(try DesktopDomain(name))
            places[name] = found
            if wanted[name] == nil {
                wanted[name] = [:]
                order.append(name)
            }
            return found
        }
        for (name, values) in desired {
            let where_ = try place(name)
            if values == nil || exact {
                for (key, _) in try store.userValues(where_) { wanted[name]![key] = .some(nil) }
            }
            guard let values else { continue }
            for entry in values.entries {
                let value = try store.variant(where_, entry.key, entry.value)
                try store.check(where_, entry.key, value)
                wanted[name]![entry.key] = .some(value)
            }
        }
        for (name, keys) in absent {
            _ = try place(name)
            for key in keys { wanted[name]![key] = .some(nil) }
        }
        // The last record's keys the state no longer names: given back.
        for (name, keys) in last.sorted(by: { $0.key < $1.key }) {
            let where_ = try place(name)
            for (key, held) in keys.sorted(by: { $0.key < $1.key }) where wanted[name]![key] == nil {
                let now = try store.userValues(where_).first { $0.key == key }?.value
                guard now?.gvariantText == held.set else {
                    plan.notes.append("\(name) \(key) was changed since it was applied: left as it is")
                    continue
                }
                wanted[name]![key] = .some(try held.before.map { text throws in try Self.variant(text, key: key) })
                plan.ahead[name, default: [:]][key] = held
            }
        }
        for name in order {
            let where_ = places[name]!
            let user = try store.userValues(where_)
            var current = PlistDictionary(), planned = PlistDictionary()
            for (key, value) in user {
                current[key] = value.plistValue(typed: where_.schema != nil)
                planned[key] = current[key]
            }
            var changes: [(key: String, value: Variant?)] = []
            for (key, value) in wanted[name]!.sorted(by: { byteOrderPrecedes($0.key, $1.key) }) {
                let now = user.first { $0.key == key }?.value
                let held = last[name]?[key]
                let given = plan.ahead[name]?[key] != nil
                // What the key held before the first apply that set it: the record's (none
                // included), else what it holds now.
                let before = held.map { $0.before } ?? now?.gvariantText
                if let value {
                    if !given { plan.record[name, default: [:]][key] = (value.gvariantText, before) }
                    if now != value {
                        changes.append((key, value))
                        planned[key] = value.plistValue(typed: where_.schema != nil)
                        if !given { plan.ahead[name, default: [:]][key] = (value.gvariantText, before) }
                    }
                } else {
                    // A removal is remembered too, so a later state without it gives it back.
                    if !given, now != nil || held != nil { plan.record[name, default: [:]][key] = (nil, before) }
                    if now != nil {
                        changes.append((key, nil))
                        planned.removeValue(forKey: key)
                        if !given { plan.ahead[name, default: [:]][key] = (nil, before) }
                    }
                }
            }
            plan.domains.append(
                DomainPlan(name: name, place: where_, changes: changes, current: current, planned: planned))
        }
        for (name, keys) in last {
            for (key, held) in keys where plan.record[name]?[key] == nil && wanted[name]?[key] == nil {
                plan.record[name, default: [:]][key] = held  // changed by someone since: still remembered
            }
        }
        // The run's first record: the last one with every place about to change.
        var ahead = last
        for (name, keys) in plan.ahead { for (key, held) in keys { ahead[name, default: [:]][key] = held } }
        plan.ahead = ahead
        return plan
    }

    /// Applies the plan: the record with every place first, then each domain's changes in
    /// one dconf change, then the record as it now is. Returns the domains changed.
    package func run(_ plan: Plan) throws -> [String] {
        guard plan.hadRecord || !plan.domains.isEmpty else { return [] }
        try writeRecord(plan.ahead)
        var done: [String] = []
        for domain in plan.domains where !domain.changes.isEmpty {
            try store.write(domain.place, domain.changes)
            done.append(domain.name)
        }
        try writeRecord(plan.record)
        return done
    }

    static func variant(_ text: String, key: String) throws -> Variant {
        do throws(VariantParser.Failure) { return try VariantParser.parse(text, as: nil) } catch {
            throw DesktopError.corrupt("the apply record's value of \(key) is not GVariant text: \(error.message)")
        }
    }

    private static let marker = "settings-apply-desktop"

    func readRecord() throws -> [String: [String: Held]] {
        guard let bytes = try record.read() else { return [:] }
        guard case .dict(let root) = try JSONReader.read(bytes), root[Self.marker] != nil,
            case .dict(let domains)? = root["domains"]
        else {
            throw DesktopError.corruptFile(path: record.path, reason: "not a desktop apply record")
        }
        var found: [String: [String: Held]] = [:]
        for domain in domains.entries {
            guard case .dict(let keys) = domain.value else { continue }
            for key in keys.entries {
                guard case .dict(let held) = key.value else { continue }
                var set: String?, before: String?
                if case .string(let text)? = held["set"] {
                    set = text
                } else if held["removed"] == .bool(true) {
                    set = nil
                } else {
                    continue
                }
                if case .string(let text)? = held["before"] { before = text }
                found[domain.key, default: [:]][key.key] = (set, before)
            }
        }
        return found
    }

    func writeRecord(_ domains: [String: [String: Held]]) throws {
        var out = PlistDictionary()
        for (name, keys) in domains.sorted(by: { $0.key < $1.key }) where !keys.isEmpty {
            var entries = PlistDictionary()
            for (key, held) in keys.sorted(by: { $0.key < $1.key }) {
                var place: PlistDictionary = held.set.map { ["set": .string($0)] } ?? ["removed": true]
                if let before = held.before { place["before"] = .string(before) }
                entries[key] = .dict(place)
            }
            out[name] = .dict(entries)
        }
        try record.replace(
            with: JSONWriter.encode(.dict([Self.marker: .int(1), "domains": .dict(out)]), pretty: true) + [10],
            durable: true)
    }
}
