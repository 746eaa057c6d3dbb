import PlistCodecs
import PlistModel

/// What differs between two states, domain by domain: the leaves that changed, and
/// whether the domain appeared or went away. `diff`, `capture` and `apply --dry-run` all
/// print one of these.
public struct StateDiff: Sendable, Equatable {
    /// One domain that differs.
    public struct Domain: Sendable, Equatable {
        /// Its name, as `SettingsState.name(of:host:)` spells it.
        public let name: String
        /// Its values on each side; nil when it has no file there.
        public let old: PlistDictionary?, new: PlistDictionary?
        /// The leaves that changed, in key order.
        public var leaves: [LeafChange]

        /// The same name, byte for byte (a domain's name is a file's), and the same changes.
        public static func == (a: Self, b: Self) -> Bool {
            sameKey(a.name, b.name) && a.old == b.old && a.new == b.new && a.leaves == b.leaves
        }
    }

    /// The domains that differ, in the order the states name them (the first's, then
    /// the second's others).
    public var domains: [Domain]

    /// A difference of these domains.
    public init(domains: [Domain]) { self.domains = domains }

    /// Whether the two states are the same.
    public var isEmpty: Bool { domains.isEmpty }

    /// The differences from `old` to `new`. A domain one state says nothing of (it
    /// neither names it nor holds every domain) is not compared: a snapshot of two
    /// domains says nothing of a third.
    public init(from old: SettingsState, to new: SettingsState) {
        // Domain names are file names: told apart by their bytes.
        var names: [String] = [], seen: Set<ExactKey> = []
        for (name, _) in old.domains + new.domains where seen.insert(ExactKey(name)).inserted { names.append(name) }
        domains = names.compactMap { name in
            guard old.covers(name), new.covers(name) else { return nil }
            return Self.domain(name, old[name], new[name])
        }
    }

    /// The differences of one domain; nil when there are none.
    /// An empty domain is an absent one: the store keeps no file for it.
    public static func domain(_ name: String, _ old: PlistDictionary?, _ new: PlistDictionary?) -> Domain? {
        let old = old?.isEmpty == true ? nil : old, new = new?.isEmpty == true ? nil : new
        let leaves = LeafChange.changes(from: old ?? [:], to: new ?? [:])
        guard !leaves.isEmpty || (old == nil) != (new == nil) else { return nil }
        return Domain(name: name, old: old, new: new, leaves: leaves)
    }

    /// The differences as text: per leaf, `-POINTER = JSON` for its old value and
    /// `+POINTER = JSON` for its new one (`textconv`'s lines), under a `--- NAME` line per
    /// domain when `headings` (several domains), which says `(new)` or `(deleted)` for a
    /// domain that appears or goes away.
    public func text(headings: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for domain in domains {
            if headings {
                let state = domain.old == nil ? " (new)" : domain.new == nil ? " (deleted)" : ""
                out += Array("--- ".utf8) + CanonicalText.escaped(domain.name) + Array("\(state)\n".utf8)
            }
            for leaf in domain.leaves {
                if let old = leaf.old { CanonicalText.appendLine(leaf.path, old, sign: UInt8(ascii: "-"), to: &out) }
                if let new = leaf.new { CanonicalText.appendLine(leaf.path, new, sign: UInt8(ascii: "+"), to: &out) }
            }
        }
        return out
    }

    /// One leaf of one domain: the domain's name and the leaf's place.
    public struct Place: Sendable, Equatable {
        /// The domain's name.
        public let domain: String
        /// The leaf's place in it.
        public let path: PlistKeyPath
    }

    /// The difference as a desired state `apply` takes (`capture --state`): per domain,
    /// the new value of each leaf that was set, JSON in the lossless mapping (a real stays
    /// a real). A top-level key that starts with `/`, which `apply` reads as a pointer,
    /// is written as its own pointer (`/~1usr~1bin`), and so is a leaf below the top. A
    /// leaf removed is `null`, and so is a domain removed.
    public func desiredState() -> [UInt8] {
        let domains = domains.map { domain -> (name: String, keys: [(key: String, value: PlistValue?)]?) in
            guard domain.new != nil else { return (domain.name, nil) }
            // A leaf below the top is named by its pointer: a dictionary written whole
            // would replace the keys beside it that did not change.
            let keys = domain.leaves.map { leaf -> (key: String, value: PlistValue?) in
                let segments = leaf.path.segments
                let key = segments.count == 1 && !segments[0].hasPrefix("/") ? segments[0] : leaf.path.pointer
                return (key, leaf.new)
            }
            return (domain.name, keys)
        }
        return JSONWriter.encodeDesired(domains) + [UInt8(ascii: "\n")]
    }

    /// The replayable commands that turn the old state into the new (`ReplayCommands`).
    public func commands(program: String = "settings") -> [String] {
        domains.flatMap { ReplayCommands.lines($0.name, from: $0.old, to: $0.new, program: program) }
    }

    /// JSON Lines, one object per leaf: `{"domain","path","change","old","new"}`, the
    /// change `set`, `add` or `delete`, a side without a value left out.
    public var json: [UInt8] {
        var out: [UInt8] = []
        for domain in domains {
            for leaf in domain.leaves {
                var record: PlistDictionary = ["domain": .string(domain.name), "path": .string(leaf.path.pointer)]
                record["change"] = .string(leaf.old == nil ? "add" : leaf.new == nil ? "delete" : "set")
                if let old = leaf.old { record["old"] = old }
                if let new = leaf.new { record["new"] = new }
                out += JSONWriter.encode(.dict(record)) + [UInt8(ascii: "\n")]
            }
            if domain.leaves.isEmpty {
                let change = domain.old == nil ? "add" : "delete"
                let record: PlistDictionary = ["domain": .string(domain.name), "path": "", "change": .string(change)]
                out += JSONWriter.encode(.dict(record)) + [UInt8(ascii: "\n")]
            }
        }
        return out
    }
}
