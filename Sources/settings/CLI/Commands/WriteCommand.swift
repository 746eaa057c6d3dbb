import PlistModel
import PlistCodecs
import SettingsStore

enum WriteCommand {
    /// `write D K VALUE…` sets one key; `write D PLIST` replaces the domain;
    /// `write D -p POINTER [--insert] VALUE…` sets a place inside a value; `--json TEXT`
    /// in place of the value words gives the value as JSON.
    static func write(_ context: inout Context, _ arguments: [Token]) throws {
        let request: Request
        switch try Request.parse(&context, arguments) {
        case let .wholeDomain(domain, literal): return try replaceDomain(&context, domain, literal: literal)
        case .place(let place): request = place
        }
        let (key, options) = (request.key, request.options)
        // Text given exactly as JSON (`--exact --json`, `--path-json`) says a control
        // character on purpose, as `diff --commands` replays one: the file becomes binary
        // to hold it, as SettingsKit's and sync's writes do. Plain `--json` (text typed or
        // piped from `jq`) is refused as every other write is, with the way to store it.
        if (options.json && options.exact) || request.pathFromJSON { context.store.binaryForAnyText = true }
        // The store checks the key's whole value against the schema (`WritePolicy`), so a
        // write deep inside it is checked too; `--force` turned that off.
        try context.update(request.domain, key: key) { value in
            let target = value.flatMap(request.below.value(inside:))
            let new = try request.newValue(over: target)
            if new == target, !options.insert { return false }
            try request.path.set(new, in: &value, insert: options.insert)
            return true
        }
    }

    /// `check [-v] D K VALUE…` (the value words of `write`): status 0 when the value a
    /// reader gets (the managed, user and machine-wide layers; not a schema's default)
    /// is what `write` would store, type included, so that `write` would change nothing;
    /// 1 when not, a missing key or domain included. Writes nothing; with `-v`, one line:
    /// `equal`, `differs: VALUE (TYPE)` or `missing`.
    static func check(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        let verbose = arguments.first?.text == "-v"
        if verbose { arguments.removeFirst() }
        guard arguments.count >= 3 else { throw CLIError.usage("check needs a domain, a key and a value") }
        guard case .place(let request) = try Request.parse(&context, arguments, checking: true) else {
            throw CLIError.usage("check needs a domain, a key and a value")
        }
        let found = try context.resolve(request.key, in: request.domain)
        let current = found.flatMap { $0.source == .default ? nil : request.below.value(inside: $0.value) }
        var same = false
        if let current, case .append(let elements) = request.change {
            // Appending is done when the array already ends with the elements.
            if case .array(let items) = current {
                same = items.count >= elements.count && items.suffix(elements.count).elementsEqual(elements)
            }
        } else if let current {
            // A value `write` could not apply (-dict-add to a string) differs.
            same = (try? request.newValue(over: current)) == current
        }
        if !same { context.status = 1 }
        guard verbose else { return }
        guard let current else { return context.print("missing") }
        let shown = String(decoding: DefaultsPrinter.renderLine(current), as: UTF8.self)
        context.print(same ? "equal" : "differs: \(shown) (\(TypeTable.row(for: current).word))")
    }

    /// What a `write` (or `check`) asks for: the place, the change, and the schema that
    /// types and checks it.
    private struct Request {
        let domain: DomainName
        let path: PlistKeyPath
        let change: ValueArguments.Change
        let options: PathOptions
        let keySchema: KeySchema?
        let force: Bool
        /// Whether the place was given as a JSON path (`--path-json`).
        let pathFromJSON: Bool

        var key: String { path.segments[0] }
        /// The place below the top-level key.
        var below: PlistKeyPath { PlistKeyPath(Array(path.segments.dropFirst())) }
        /// The key, or the pointer for `-p`, for messages.
        var name: String { options.path?.pointer ?? key }

        /// What the words ask for: `write D PLIST` (a whole domain), or a place and a value.
        enum Parsed {
            case wholeDomain(DomainName, literal: String)
            case place(Request)
        }

        /// `check` (`checking`) takes no `--force`, and refuses nothing a reader may ask about.
        static func parse(_ context: inout Context, _ arguments: [Token], checking: Bool = false) throws -> Parsed {
            // `--force` right after the domain writes what the schema would refuse, and over a
            // read-only file. (`write D --force` alone stores the key --force, as defaults.)
            var arguments = arguments
            let force = !checking && arguments.count > 2 && context.takeForce(&arguments)
            guard arguments.count >= 2 else { throw CLIError.usage("write needs a domain, a key and a value") }
            let domain = try context.domainName(arguments[0])
            let words = Array(arguments.dropFirst())
            // A path only with a value after it: `write D -p V` stores the key -p, as defaults does.
            let isPath = ["-p", "--path-json"].contains(words[0].text) && words.count >= 3
            if !isPath, words.count == 1 { return .wholeDomain(domain, literal: words[0].text) }
            return .place(
                try Request(
                    &context, domain, arguments[0].text, words, force: force, isPath: isPath, checking: checking))
        }

        private init(
            _ context: inout Context, _ domain: DomainName, _ domainText: String, _ words: [Token], force: Bool,
            isPath: Bool, checking: Bool
        ) throws {
            (self.domain, self.force) = (domain, force)
            pathFromJSON = isPath && words[0].text == "--path-json"
            var words = words
            var options = PathOptions()
            if isPath {
                options.path = try PathOptions.parsePath(words[0].text, words[1].text)
                words.removeFirst(2)
                while let flag = words.first?.text, flag == "--insert" || flag == "--exact", words.count > 1 {
                    if flag == "--insert" { options.insert = true } else { options.exact = true }
                    words.removeFirst()
                }
            }
            path = try options.placeInside() ?? PlistKeyPath([words.removeFirst().text])
            let key = path.segments[0]
            if !checking { try context.refuseManaged([key], in: domain) }
            // A schema types a flagless value and checks every value written to a top-level key.
            let schema = context.schema(for: domain)
            keySchema = schema?.key(key)
            // Refused here, before the value is read, as the store would refuse it.
            if !checking, let schema, schema.strict, keySchema == nil, !force {
                throw CLIError.notInSchema(key: key, domain: domainText)
            }
            var change = try valueChange(&context, &words, &options)
            if path.segments.count == 1 { change = try typed(change, words, keySchema, force: force, options) }
            (self.change, self.options) = (change, options)
        }

        /// What the place holds after the write, given what it holds now.
        func newValue(over target: PlistValue?) throws -> PlistValue {
            var new = try apply(change, to: target, name: name)
            if options.json, !options.exact { new = JSONIntegers.keepingReals(new, where: target) }
            return new
        }
    }

    /// A single untyped word takes the schema's type: `write D volume 70` stores an
    /// integer, `write D ratio 2` a real. Text that does not read as that type is an error
    /// that says what the schema expects (with `--force`, it is stored as typed).
    private static func typed(
        _ change: ValueArguments.Change, _ words: [Token], _ keySchema: KeySchema?,
        force: Bool, _ options: PathOptions
    ) throws -> ValueArguments.Change {
        guard let keySchema, let type = keySchema.type, let row = type.row, type != .string, !options.json,
            words.count == 1, TypeTable.row(forFlag: words[0].text) == nil, case .set(.string(let text)) = change,
            let parse = row.parse
        else { return change }
        if let value = parse(text) { return .set(value) }
        if force { return change }
        throw CLIError.schemaViolation(key: keySchema.name, "'\(text)' is not \(type.phrase) (\(row.expected))")
    }

    /// The value words, or `[--exact] --json TEXT` (`-`: standard input).
    private static func valueChange(
        _ context: inout Context, _ words: inout [Token],
        _ options: inout PathOptions
    ) throws -> ValueArguments.Change {
        let flags = words.map(\.text)
        if flags.count == 2 && flags[0] == "--json" || flags.count == 3 && flags[0] == "--exact" && flags[1] == "--json"
        {
            options.json = true
            options.exact = options.exact || flags[0] == "--exact"
            // `--json -` reads the value from standard input: a value too big for one
            // argument (Linux refuses one over 128 KiB), as `diff --commands` replays it.
            let text = flags[flags.count - 1]
            let bytes: [UInt8]
            if text == "-" {
                do throws(Errno) { bytes = try context.streams.input() } catch {
                    throw StoreError.unreadable(path: "standard input", error)
                }
            } else {
                bytes = Array(text.utf8)
            }
            do throws(JSONError) { return .set(try JSONReader.read(bytes)) } catch {
                throw CLIError.json(error, source: text == "-" ? "standard input" : "the value")
            }
        }
        var lookalikes: [ValueArguments.Lookalike] = []
        let change: ValueArguments.Change
        do {
            change = try ValueArguments.parse(words, lookalikes: &lookalikes)
        } catch {
            throw lookalikes.first.map { CLIError.lookalike(error, $0) } ?? error
        }
        for lookalike in lookalikes {
            context.warn(
                "'\(lookalike.word)' is not a type flag (did you mean \(lookalike.flag)?); "
                    + "stored as the string '\(lookalike.word)', as defaults does"
            )
        }
        return change
    }

    /// The value `change` makes of `value` (nil when there is none). `name` is the key or
    /// pointer, for errors.
    private static func apply(_ change: ValueArguments.Change, to value: PlistValue?, name: String) throws -> PlistValue
    {
        switch change {
        case .set(let new):
            return new
        case .append(let elements):
            switch value {
            case nil: return .array(elements)
            case .array(let existing)?: return .array(existing + elements)
            default: throw CLIError.notAnArray(key: name)
            }
        case .merge(let additions):
            var merged: PlistDictionary
            switch value {
            case nil: merged = PlistDictionary()
            case .dict(let existing)?: merged = existing
            default: throw CLIError.notADictionary(key: name)
            }
            for entry in additions.sortedEntries { merged[entry.key] = entry.value }
            return .dict(merged)
        }
    }

    /// `write D '{…}'`: the literal must be a dictionary, and becomes the whole domain.
    private static func replaceDomain(_ context: inout Context, _ domain: DomainName, literal: String) throws {
        // A plain word is a key whose value was forgotten, not a literal that failed.
        guard CommandLineValue.looksLikeLiteral(literal) else { throw CLIError.valueMissing(key: literal) }
        guard case .dict(let replacement) = try ValueArguments.untyped(literal) else {
            throw CLIError.couldNotParse(literal)
        }
        try context.update(domain) { values in
            if values == replacement { return false }
            values = replacement
            return true
        }
    }
}
