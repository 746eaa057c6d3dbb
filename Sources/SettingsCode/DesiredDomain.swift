import PlistModel

/// One domain's part of `DesiredState.plan`, worked out in four steps, each one pass:
/// the places the desired state wants (`want`, and `wantOnly` for a restore), the places
/// the last apply set that it no longer wants given back (`giveBack`), then what each
/// wanted place holds once those are back (the record's "before") and the wanted places
/// made (`perform`).
struct DesiredDomain {
    /// The domain's name, for messages.
    let name: String
    /// Its values now.
    let current: PlistDictionary
    /// The last record's places in it: pointer to what it held (`DesiredState`'s HELD).
    let before: PlistDictionary
    /// Its values as the steps so far leave them.
    private(set) var working: PlistDictionary
    /// The places wanted, in order, each once: a value, or nil for absent.
    private var wanted: [(path: PlistKeyPath, value: PlistValue?)] = []
    private var wantedPointers: Set<ExactKey> = []
    /// The edits made, in order (given back, then wanted): what a run makes again on a
    /// file another writer changed since the plan read it.
    private(set) var edits: [DesiredState.Edit] = []
    /// The new record's places in it.
    private(set) var record: PlistDictionary = [:]
    /// What refuses the apply.
    private(set) var problems: [ApplyError.Problem] = []
    /// What a person should know, changing nothing.
    private(set) var notes: [String] = []

    init(name: String, current: PlistDictionary, before: PlistDictionary) {
        (self.name, self.current, self.before, working) = (name, current, before, current)
    }

    /// The places `values` sets and `absent` says must go (each the file's keys from the
    /// domain down). `literal`: every key is a key (a state file); else a key that starts
    /// with `/` is a pointer.
    mutating func want(_ values: PlistDictionary?, absent: [[String]], literal: Bool) {
        for entry in (values ?? [:]).uniqueEntries {
            if let path = path(of: entry.key, literal: literal) { add(path, entry.value) }
        }
        for keys in absent {
            guard keys.count == 1 else {
                problems.append(
                    .badPath(
                        domain: name, key: keys[0],
                        "null says a key or a pointer is absent, not a place inside a value "
                            + "(write \"/\(keys.joined(separator: "/"))\": null)"))
                continue
            }
            if let path = path(of: keys[0], literal: literal) { add(path, nil) }
        }
        // A place inside another the file sets ("arr" and "/arr/2"): which wins, and what
        // dropping one gives back, would depend on their order. Refused, as a file that
        // says one thing two ways.
        for (path, _) in wanted where path.segments.count > 1 {
            for depth in 1..<path.segments.count {
                let outer = PlistKeyPath(Array(path.segments.prefix(depth)))
                guard wantedPointers.contains(ExactKey(outer.pointer)) else { continue }
                problems.append(
                    .badPath(
                        domain: name, key: path.pointer, "inside \(outer.pointer), which the file also sets; give one"))
                break
            }
        }
    }

    /// Every top-level key the domain has and `values` lacks, wanted absent: the domain
    /// becomes `values` exactly (a restore, or a domain set to null).
    mutating func wantOnly(_ values: PlistDictionary) {
        for entry in current.uniqueEntries where values.place(of: entry.key) == nil {
            add(PlistKeyPath([entry.key]), nil, fromFile: false)
        }
        // A place the last apply set that is gone already stays wanted absent, not given
        // back: the domain is to hold `values` and nothing else.
        for entry in before.sortedEntries {
            guard let path = try? PlistKeyPath(pointer: entry.key), let top = path.segments.first,
                values.place(of: top) == nil
            else { continue }
            add(path, nil, fromFile: false)
        }
    }

    /// The place a desired state's key names, or nil with the problem noted.
    private mutating func path(of key: String, literal: Bool) -> PlistKeyPath? {
        guard !literal, key.hasPrefix("/") else { return PlistKeyPath([key]) }
        do throws(KeyPathError) {
            let path = try PlistKeyPath(pointer: key)
            guard !path.segments.isEmpty else {
                problems.append(.badPath(domain: name, key: "", "the empty pointer names the whole domain, not a key"))
                return nil
            }
            return path
        } catch {
            problems.append(.badPath(domain: name, key: key, error.message))
            return nil
        }
    }

    /// A place wanted. The file's own places are each given once: one given twice (as
    /// "a" and "/a", or a value and `null`) is refused, since one would be dropped without
    /// a word; a place a restore adds (`wantOnly`) is left to what the file said of it.
    private mutating func add(_ path: PlistKeyPath, _ value: PlistValue?, fromFile: Bool = true) {
        if wantedPointers.insert(ExactKey(path.pointer)).inserted {
            wanted.append((path, value))
        } else if fromFile {
            problems.append(.badPath(domain: name, key: path.pointer, "given twice; give it once"))
        }
    }

    /// The places the last record set and the desired state no longer wants, given back
    /// what they held, each only while it still holds what the apply set (a value a
    /// person chose since is theirs) and can still be given back (its dictionaries are
    /// still there): any other is left as it is, noted, and dropped from the record.
    mutating func giveBack() {
        var back: [DesiredState.Edit] = []
        for entry in before.sortedEntries where !wantedPointers.contains(ExactKey(entry.key)) {
            guard let path = try? PlistKeyPath(pointer: entry.key), !path.segments.isEmpty,
                case .dict(let held) = entry.value
            else { continue }
            let now = path.value(in: current)
            let stillAsSet = held["set"].map { $0 == now } ?? (held["removed"] == .bool(true) ? now == nil : true)
            guard stillAsSet else {
                notes.append("\(name): \(path.pointer) changed since apply set it; left as it is")
                continue
            }
            let made: PlistKeyPath?
            if case .string(let pointer)? = held["made"] {
                made = try? PlistKeyPath(pointer: pointer)
            } else {
                made = nil
            }
            back.append(DesiredState.Edit(path: path, value: held["before"], made: made))
        }
        var failed = Set<Int>()
        DesiredState.perform(back, on: &working) { index, error in
            failed.insert(index)
            notes.append(
                "\(name): \(back[index].path.pointer) can no longer be given back what it held "
                    + "(\(error.message)); left as it is")
        }
        edits += back.enumerated().filter { !failed.contains($0.offset) }.map(\.element)
    }

    /// Each wanted place's record (what it held once the places given back are back, and
    /// what the apply leaves there), and the wanted places made.
    mutating func perform() {
        var recorded: [PlistDictionary.Entry] = []
        var made: [DesiredState.Edit] = []
        for (path, wantedValue) in wanted {
            let pointer = path.pointer
            let now = path.value(in: working)
            // What the place held (an earlier apply's record, else the domain now), then
            // what the apply leaves there, in place of what an earlier one left: built as
            // entries in key order, not by `updating`, which costs a table per place.
            var entries: [PlistDictionary.Entry]
            if case .dict(let known)? = before[pointer] {
                entries = known.entries.filter { !sameKey($0.key, "set") && !sameKey($0.key, "removed") }
            } else if let now {
                entries = [.init(key: "before", value: now)]
            } else if case .dict(let found) = DesiredState.held(path, in: working) {
                entries = found.entries
            } else {
                entries = []
            }
            // What the domain holds already, as JSON says it, is left as it is held.
            var value = wantedValue
            if let wanted = value, let now, JSONSameness.same(wanted, now) { value = now }
            entries.append(value.map { .init(key: "set", value: $0) } ?? .init(key: "removed", value: true))
            let held = PlistDictionary(entries: entries)
            recorded.append(.init(key: pointer, value: .dict(held)))
            made.append(DesiredState.Edit(path: path, value: value))
        }
        DesiredState.perform(made, on: &working) { index, error in
            problems.append(.badPath(domain: name, key: made[index].path.pointer, error.message))
        }
        edits += made
        record = PlistDictionary(entries: recorded)
    }
}
