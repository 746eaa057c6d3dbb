import PlistCodecs
import PlistModel
import SettingsStore

/// `edit`: a domain as typed text for a person's editor, the text read back and checked,
/// and the edit merged leaf by leaf into the domain as it is when it is saved.
///
/// What the person changed is what changed in the text: the saved text is compared with
/// the text written out, leaf by leaf, never with the domain's values. Text cannot say all
/// a value is (a 32-bit real, a date's fraction of a second in XML, a real that an editor
/// such as jq 1.6 prints as `1`), so a leaf whose text reads the same is no change, and the
/// domain keeps its own value there. A reopened text is the person's own, compared with
/// the same first text: a key someone else changed meanwhile stays theirs.
public struct EditSession {
    /// The text a domain is edited as.
    public enum Format: String, Sendable, CaseIterable {
        /// The lossless JSON mapping (the default).
        case json
        /// An XML property list, as Foundation writes it.
        case xml
    }

    /// A leaf both the person and someone else changed, differently: nothing was written.
    public struct Conflict: Sendable, Equatable {
        /// The leaf the person changed.
        public let path: PlistKeyPath
        /// Where it was changed meanwhile: the leaf, or a value above it that is no longer
        /// a dictionary.
        public let place: PlistKeyPath
        /// What is there now (nil: nothing).
        public let now: PlistValue?
    }

    /// What is edited: a plist domain, or another kind of domain (the desktop's).
    public let target: Target
    /// The text's format.
    public let format: Format
    /// The domain's values when the text was made.
    public let base: PlistDictionary
    /// The text written out for the first opening.
    public let written: [UInt8]
    /// That text read back: what each leaf's text says.
    let shown: PlistDictionary
    /// Per leaf reported changed meanwhile (by pointer), what it held then: saving again
    /// puts the person's value over that one, and over no other.
    private var seen: [ExactKey: PlistValue?] = [:]

    /// The domain a session edits: its name, its values now, what refuses an edit of them,
    /// and the one way it is changed. A plist domain's is `domain(_:host:in:)`; another kind
    /// of domain (a desktop one, written through dconf) gives its own.
    public struct Target {
        /// The domain's name, as messages say it.
        public let name: String
        /// Its values now.
        let values: PlistDictionary
        /// Why the values `base` may not become `result`, one line each (none: they may).
        let refusals: (_ base: PlistDictionary, _ result: PlistDictionary) -> [String]
        /// Runs the change on the values as they are then; written when it returns true.
        let update: (_ change: (inout PlistDictionary) throws -> Bool) throws -> Void

        /// A target of `values` now, refused by `refusals`, changed through `update`.
        public init(
            name: String, values: PlistDictionary,
            refusals: @escaping (PlistDictionary, PlistDictionary) -> [String],
            update: @escaping ((inout PlistDictionary) throws -> Bool) throws -> Void
        ) {
            (self.name, self.values, self.refusals, self.update) = (name, values, refusals, update)
        }

        /// A plist domain of `store` as it is now (empty when it does not exist), changed in
        /// the store's one locked update and refused by its managed keys, its schema and what
        /// its file's format can hold.
        public static func domain(_ domain: DomainName, host: DomainHost = .any, in store: DomainStore) throws -> Self {
            let loaded = try store.load(domain, host: host)
            let format = loaded?.format ?? .xml
            return Self(
                name: domain.displayName, values: loaded?.values ?? [:],
                refusals: { base, result in
                    ApplyError.Problem.refusals(
                        of: domain, named: domain.displayName, in: store, base, result, format: format
                    ).map(\.message)
                },
                update: { change in _ = try store.update(domain, host: host, change) })
        }
    }

    /// A session on `domain` of `store` as it is now (empty when it does not exist).
    public init(store: DomainStore, domain: DomainName, host: DomainHost = .any, format: Format) throws {
        self.init(target: try .domain(domain, host: host, in: store), format: format)
    }

    /// A session on `target` as it is now.
    public init(target: Target, format: Format) {
        (self.target, self.format) = (target, format)
        base = target.values
        written = Self.text(base, format)
        // The writers' own text reads back; were it ever not to, the values stand in for
        // what the text says, and a leaf is a change when its value differs.
        shown = (try? Self.read(written[...], format)) ?? base
    }

    /// The text of `values`, keys in order.
    static func text(_ values: PlistDictionary, _ format: Format) -> [UInt8] {
        let sorted = PlistValue.dict(PlistDictionary(entries: values.sortedEntries))
        switch format {
        case .json: return JSONWriter.encode(sorted, pretty: true) + [10]
        case .xml: return XMLWriter.encode(sorted)
        }
    }

    /// `text` under `notes`, one `#` line each: what was wrong with it last time.
    public static func noted(_ text: some Collection<UInt8>, _ notes: [String]) -> [UInt8] {
        notes.flatMap { Array("# \(CanonicalText.escapedLine($0))\n".utf8) } + body(of: text)
    }

    /// `text` without its leading `#` lines.
    public static func body<Text: Collection<UInt8>>(of text: Text) -> Text.SubSequence {
        var body = text[...]
        while body.first == UInt8(ascii: "#") {
            guard let newline = body.firstIndex(of: 10) else { return body[body.endIndex...] }
            body = body[body.index(after: newline)...]
        }
        return body
    }

    /// What the edited text says, its leading `#` lines left out; throws a message, whose
    /// line counts those `#` lines, as the person's editor does.
    public func parse(_ bytes: [UInt8]) throws(EditError) -> PlistDictionary {
        let body = Self.body(of: bytes)
        let notes = bytes[..<body.startIndex].count(where: { $0 == 10 })
        return try Self.read(body, format, linesAbove: notes)
    }

    /// The dictionary `text` says in `format`; an error's line is `linesAbove` further down.
    private static func read(_ text: ArraySlice<UInt8>, _ format: Format, linesAbove: Int = 0) throws(EditError)
        -> PlistDictionary
    {
        let value: PlistValue
        switch format {
        case .json:
            do throws(JSONError) { value = try JSONReader.read(Array(text)) } catch {
                throw EditError(error.movedDown(linesAbove).message)
            }
        case .xml:
            do throws(PlistError) { value = try PropertyList.read(Array(text)).0 } catch {
                throw EditError(error.movedDown(linesAbove).message)
            }
        }
        guard case .dict(let values) = value else {
            throw EditError("the text must be one dictionary (\(value.type)), not another value")
        }
        return values
    }

    /// The leaves the person changed: each whose text in `edited` reads otherwise than in
    /// the text written out, from its value in `base` to its new value, which keeps the
    /// domain's own where the text did not change (an array's untouched element) and stays
    /// a real where an integer is typed in place of one (as `write --json` does).
    func changes(_ edited: PlistDictionary) -> [LeafChange] {
        var out: [LeafChange] = []
        for change in LeafChange.changes(from: shown, to: edited) {
            if let old = change.old, let new = change.new, Self.sameText(old, new) { continue }
            // An empty dictionary filled: its new leaves go into it as it then is.
            if case .dict(let was)? = change.old, was.isEmpty, change.new == nil,
                case .dict? = Self.value(at: change.path, in: edited)
            {
                continue
            }
            let then = Self.value(at: change.path, in: base)
            let new = change.new.map { Self.keeping($0, shown: change.old, base: then) }
            out.append(LeafChange(path: change.path, old: then, new: new))
        }
        return out
    }

    /// Whether two values read from text say the same: numbers by their value (an editor
    /// may print `1.0` as `1`), the rest exactly.
    static func sameText(_ a: PlistValue, _ b: PlistValue) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.int(let i), .double(let d)), (.double(let d), .int(let i)):
            return i.isUnsigned ? UInt64(exactly: d) == i.bitPattern : Int64(exactly: d) == i.int64
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameText($0, $1) }
        case (.dict(let x), .dict(let y)):
            return x.count == y.count
                && x.uniqueEntries.allSatisfy { entry in y[entry.key].map { sameText(entry.value, $0) } ?? false }
        default:
            return false
        }
    }

    /// `new`, typed in place of the text that said `shown` for the domain's `base`: where
    /// the text is the same, `base`; an integer where a real was, a real of its width.
    static func keeping(_ new: PlistValue, shown: PlistValue?, base: PlistValue?) -> PlistValue {
        guard let shown, let base else { return new }
        if sameText(new, shown) { return base }
        switch (new, shown, base) {
        case (.int(let i), _, .double): return .double(i.doubleValue)
        case (.int(let i), _, .float): return .float(Float(i.doubleValue))
        case (.array(let items), .array(let was), .array(let had)) where was.count == had.count:
            return .array(
                items.indices.map { $0 < was.count ? keeping(items[$0], shown: was[$0], base: had[$0]) : items[$0] })
        case (.dict(let dict), .dict(let was), .dict(let had)):
            return .dict(
                PlistDictionary(
                    entries: dict.uniqueEntries.map {
                        .init(key: $0.key, value: keeping($0.value, shown: was[$0.key], base: had[$0.key]))
                    }))
        default: return new
        }
    }

    /// The problems that refuse `edited` before anything is written: a managed key, a
    /// value the schema refuses, a value a property list cannot hold.
    public func problems(_ edited: PlistDictionary) -> [String] {
        var tops = TopLevelEdits(base)
        for change in changes(edited) {
            do throws(KeyPathError) { try Self.make(change, in: &tops, replacing: false) } catch {
                return ["\(target.name): \(error.message)"]
            }
        }
        return target.refusals(base, tops.result)
    }

    /// Merges the leaves `edited` changes into the domain as it is now, in one locked
    /// update: a leaf changed meanwhile by someone else and not by the person is kept. When
    /// the person and someone else both changed a leaf differently, nothing is written: the
    /// leaves come back, and saving again puts the person's values over those. Returns
    /// them (empty: merged, or nothing to do).
    public mutating func merge(_ edited: PlistDictionary) throws -> [Conflict] {
        let changes = changes(edited)
        guard !changes.isEmpty else { return [] }
        var conflicts: [Conflict] = []
        var held: [(path: PlistKeyPath, value: PlistValue?)] = []
        let seen = seen
        try target.update { values in
            (conflicts, held) = ([], [])
            var tops = TopLevelEdits(values)
            var changed = false
            for change in changes {
                let now = Self.value(at: change.path, in: values)
                if now == change.new { continue }
                // A dictionary emptied in the text stays one: the removals of its leaves
                // are the change, and a leaf added meanwhile is someone else's.
                if case .dict? = now, case .dict(let was)? = change.old, !was.isEmpty, change.new == .dict([:]) {
                    continue
                }
                // Reported before and saved again (`.some`, even of nil): over what it held then.
                let acknowledged = seen[ExactKey(change.path.pointer)]
                if now == acknowledged ?? change.old {
                    do throws(KeyPathError) {
                        try Self.make(change, in: &tops, replacing: acknowledged != nil)
                        changed = true
                        continue
                    } catch {}  // a value on the way is no longer a dictionary: a conflict
                }
                conflicts.append(Self.conflict(change.path, in: values))
                held.append((change.path, now))
            }
            guard conflicts.isEmpty, changed else { return false }
            values = tops.result
            return true
        }
        for (path, value) in held { self.seen[ExactKey(path.pointer)] = .some(value) }
        return conflicts
    }

    /// Makes `change` in `tops`, and the dictionaries on the way to it. A value on the way
    /// that is not a dictionary is an error, or with `replacing` (the person was told it
    /// changed, and saved again) is replaced by one.
    static func make(_ change: LeafChange, in tops: inout TopLevelEdits, replacing: Bool) throws(KeyPathError) {
        let segments = change.path.segments
        try tops.edit(segments[0]) { (top: inout PlistValue?) throws(KeyPathError) in
            guard let new = change.new else {
                if segments.count == 1 { top = nil } else { _ = try change.path.remove(in: &top) }
                return
            }
            // One level at a time: `set` would take a missing key that reads as a number
            // for an array's index, and a leaf's path names dictionaries' keys only.
            for depth in 1..<segments.count {
                let place = PlistKeyPath(Array(segments[..<depth]))
                switch top.flatMap({ Self.value(at: PlistKeyPath(Array(segments[1..<depth])), in: $0) }) {
                case .dict?: continue
                case nil: break
                case let other?: guard replacing else { throw .notAContainer(place.pointer, other.type) }
                }
                if depth == 1 { top = .dict([:]) } else { try place.set(.dict([:]), in: &top) }
            }
            try change.path.set(new, in: &top)
        }
    }

    /// The value at `path` below `root`, through dictionaries only: a leaf's path names
    /// keys, never an array's element.
    static func value(at path: PlistKeyPath, in root: PlistValue) -> PlistValue? {
        var node = root
        for segment in path.segments {
            guard case .dict(let dict) = node, let next = dict[segment] else { return nil }
            node = next
        }
        return node
    }

    /// `value(at:in:)` from a domain's top.
    static func value(at path: PlistKeyPath, in values: PlistDictionary) -> PlistValue? {
        value(at: path, in: .dict(values))
    }

    /// The conflict at `path` in `values`: where it was changed, the first value on the way
    /// that is not a dictionary, or the leaf itself.
    static func conflict(_ path: PlistKeyPath, in values: PlistDictionary) -> Conflict {
        var node = PlistValue.dict(values)
        for (depth, segment) in path.segments.enumerated() {
            guard case .dict(let dict) = node else {
                return Conflict(path: path, place: PlistKeyPath(Array(path.segments[..<depth])), now: node)
            }
            guard let next = dict[segment] else { return Conflict(path: path, place: path, now: nil) }
            node = next
        }
        return Conflict(path: path, place: path, now: node)
    }
}

extension JSONError {
    /// The same error `lines` further down: its text sat below that many lines.
    fileprivate func movedDown(_ lines: Int) -> JSONError {
        guard case .syntax(let code, let line) = self else { return self }
        return .syntax(code, line: line + lines)
    }
}

extension PlistError {
    /// The same error `lines` further down: its text sat below that many lines.
    fileprivate func movedDown(_ lines: Int) -> PlistError {
        switch self {
        case let .xml(code, line): .xml(code, line: line + lines)
        case let .openStep(code, line): .openStep(code, line: line + lines)
        case let .tooDeep(format, limit, line): .tooDeep(format, limit: limit, line: line + lines)
        case let .entityDeclaration(line): .entityDeclaration(line: line + lines)
        case let .invalidEncoding(format, line): .invalidEncoding(format, line: line + lines)
        case .binary, .unknownFormat, .unsupported: self
        }
    }
}

/// Why an edited text cannot be used: one line for the person.
public struct EditError: Error, Sendable, Equatable {
    /// What is wrong.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}
