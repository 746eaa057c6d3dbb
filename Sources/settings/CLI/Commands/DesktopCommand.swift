import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// The verbs on the desktop's own settings: `gsettings:SCHEMA`, `gsettings:SCHEMA:/PATH/`
/// and `dconf:/PATH/` domains. They parse and print; `DesktopStore` reads dconf's
/// databases, typed by the compiled schemas, and writes through the user's `dconf`.
enum DesktopCommand {
    /// The verbs that take a desktop domain.
    static let verbs: Set<String> = [
        "read", "read-type", "write", "check", "delete", "reset", "keys", "list-keys", "describe", "range", "validate",
        "export", "import",
    ]

    /// Whether the verb is one of `verbs` and its domain argument names a desktop domain.
    /// Any other verb meets a desktop name in `Context.domainName`, which refuses it
    /// (`capture` takes them out first).
    static func names(_ verb: Verb, _ arguments: [Token]) -> Bool {
        guard verb.takesDomain, verbs.contains(verb.name) else { return false }
        return arguments.first { !$0.text.hasPrefix("-") }.map { DesktopDomain.isDesktop($0.text) } ?? false
    }

    static func run(_ context: inout Context, _ verb: Verb, _ arguments: [Token]) throws {
        var arguments = arguments
        if arguments.contains(where: { $0.text == "--force" }) {
            throw CLIError.usage(
                "--force does not apply to desktop keys: GSettings would ignore a value its schema refuses")
        }
        let verbose = verb.name == "check" && arguments.first?.text == "-v"
        if verbose { arguments.removeFirst() }
        guard context.host == .any else { throw CLIError.desktopHasNoHost }
        // `write` and `check` take their value words as they stand (`-string --json` is a
        // string); the other verbs' options may stand anywhere.
        let raw = verb.name == "write" || verb.name == "check"
        var (options, words) =
            raw
            ? (PathOptions(), arguments) : try PathOptions.extract(arguments, allowed: Verb.optionNames(of: verb.name))
        guard let domainToken = words.first else { throw CLIError.usage("\(verb.name) needs a domain") }
        // `-p /KEY` (as `capture` writes a key that starts with `-`) is the key; no deeper.
        if let path = options.path {
            guard path.segments.count == 1 else { throw CLIError.usage("-p does not reach inside desktop values yet") }
            words.insert(Token(text: path.segments[0], position: domainToken.position), at: 1)
        } else if raw, words.count > 2, words[1].text == "-p" || words[1].text == "--path-json" {
            let path = try PathOptions.parsePath(words[1].text, words[2].text)
            guard path.segments.count == 1 else { throw CLIError.usage("-p does not reach inside desktop values yet") }
            words.replaceSubrange(1...2, with: [Token(text: path.segments[0], position: words[1].position)])
        }
        let store = context.desktopStore()
        defer { context.note(store) }
        let place = try store.place(try DesktopDomain(domainToken.text))
        let rest = Array(words.dropFirst())
        let session = Session(store: store, place: place, options: options)
        switch verb.name {
        case "read": try session.read(&context, rest)
        case "read-type": try session.readType(&context, rest)
        case "write": try session.write(&context, rest)
        case "check": try session.check(&context, rest, verbose: verbose)
        case "delete", "reset": try session.reset(&context, rest, verb: verb.name)
        case "keys":
            try expectAtMost(0, rest)
            for (key, _) in try store.userValues(place) { context.print(key) }
        case "list-keys":
            try expectAtMost(0, rest)
            let names = try place.schema.map { try $0.keys().map(\.name) } ?? store.effectiveValues(place).map(\.key)
            for name in names { context.print(name) }
        case "describe": try session.describe(&context, rest)
        case "range":
            try expectAtMost(1, rest)
            guard let name = rest.first else { throw CLIError.usage("range needs a domain and a key") }
            guard let key = try store.key(place, name.text) else {
                throw CLIError.noSchema(domain: domainToken.text, key: name.text)
            }
            context.print(key.rangeText)
        case "validate": try session.validate(&context, rest)
        case "export": try session.export(&context, rest)
        default: try session.importValues(&context, rest)
        }
    }

    /// The desktop's part of a state (`capture`): each named desktop domain's user values
    /// (nil: none), or with `every`, every desktop domain holding one. A desktop that cannot
    /// be read is then a warning, and no domain.
    static func state(_ named: [Token], every: Bool, _ context: inout Context) throws -> [(
        name: String, values: PlistDictionary?
    )] {
        let store = DesktopStore(environment: context.store.environment)
        guard every else {
            return try named.map { token in
                let place = try store.place(try DesktopDomain(token.text))
                return (token.text, try store.stateDomain(place))
            }
        }
        do throws(DesktopError) {
            return try store.stateDomains().map { ($0.name, $0.values) }
        } catch {
            context.warn(error.message)
            return []
        }
    }

    /// One verb's run on one domain.
    struct Session {
        let store: DesktopStore
        let place: DesktopStore.Place
        let options: PathOptions
        var typed: Bool { place.schema != nil }

        /// A value in the value model, for `read`'s text and JSON.
        func plist(_ value: Variant) -> PlistValue { value.plistValue(typed: typed) }

        func dictionary(_ values: [(key: String, value: Variant)]) -> PlistDictionary {
            store.dictionary(values, of: place)
        }

        /// `read D`: the values the user set; `--with-defaults`, every key as applications
        /// see it. `read D K`: the key as applications see it (`--source`: from where;
        /// `--gvariant`: its GVariant text, as `gsettings get` prints it).
        func read(_ context: inout Context, _ words: [Token]) throws {
            try expectAtMost(1, words)
            guard let name = words.first?.text else {
                let values = dictionary(
                    try options.withDefaults ? store.effectiveValues(place) : store.userValues(place))
                context.output +=
                    options.json ? jsonOutput(.dict(values), context.streams) : DefaultsPrinter.render(.dict(values))
                return
            }
            guard let (value, source) = try store.read(place, name) else {
                throw CLIError.pairMissing(domain: place.domain.name, key: name)
            }
            if options.source { return context.print(source.rawValue) }
            if options.gvariant { return context.print(value.gvariantText) }
            context.output +=
                options.json ? jsonOutput(plist(value), context.streams) : DefaultsPrinter.renderBare(plist(value))
        }

        /// `read-type D K`: `Type is WORD (T)`, the value model's word and the GVariant type.
        func readType(_ context: inout Context, _ words: [Token]) throws {
            guard words.count == 1 else { throw CLIError.usage("read-type needs a domain and a key") }
            guard let (value, _) = try store.read(place, words[0].text) else {
                throw CLIError.pairMissing(domain: place.domain.name, key: words[0].text)
            }
            let type = try store.key(place, words[0].text)?.type ?? value.type
            context.print("Type is \(TypeTable.row(for: plist(value)).word) (\(type.text))")
        }

        /// `write D K VALUE`: a value typed by the key's schema (or, in a dconf folder, by
        /// the value the key holds), checked against its range and choices, set by dconf.
        func write(_ context: inout Context, _ words: [Token]) throws {
            guard words.count >= 2 else { throw CLIError.usage("write needs a domain, a key and a value") }
            let name = words[0].text
            let schema = try store.key(place, name)?.type
            let held = schema == nil ? try store.read(place, name)?.0.type : nil
            let value = try Self.value(
                Array(words.dropFirst()), schema: schema, held: held, key: name, input: context.streams.input)
            try store.write(place, [(name, value)])
        }

        /// `check [-v] D K VALUE`: status 0 when the key holds what `write` would store, as
        /// applications see it (a schema's default is no value), else 1; `-v` says
        /// `equal`, `differs: VALUE (TYPE)` or `missing`.
        func check(_ context: inout Context, _ words: [Token], verbose: Bool) throws {
            guard words.count >= 2 else { throw CLIError.usage("check needs a domain, a key and a value") }
            let name = words[0].text
            let found = try store.read(place, name)
            let schema = try store.key(place, name)?.type
            let value = try Self.value(
                Array(words.dropFirst()), schema: schema, held: schema == nil ? found?.0.type : nil, key: name,
                input: context.streams.input)
            let current = found.flatMap { $0.1 == .schemaDefault ? nil : $0.0 }
            if current != value { context.status = 1 }
            guard verbose else { return }
            guard let current else { return context.print("missing") }
            context.print(
                current == value ? "equal" : "differs: \(current.gvariantText) (\(current.type.text))")
        }

        /// The value words of `write`: one untyped word (a string for a string key, else
        /// GVariant text), a type flag (`-bool`, `-int`, `-array` …) or `--json TEXT`.
        /// `schema` is the key's type in its schema; `held`, in a dconf folder, the type of
        /// the value the key holds, which types an untyped word (a type flag or JSON says
        /// its own type there, so a replayed `capture` makes the same value).
        static func value(
            _ words: [Token], schema: VariantType?, held: VariantType? = nil, key: String, input: () throws -> [UInt8]
        ) throws -> Variant {
            let type = schema ?? held
            var words = words
            // `--exact` (as `capture` and `diff --commands` write it) changes nothing here:
            // the key's type says what the value is.
            if words.count > 1, words[0].text == "--exact", words[1].text == "--json" { words.removeFirst() }
            var plain: PlistValue?
            if words[0].text == "--json" {
                guard words.count == 2 else {
                    throw CLIError.usage("--json takes one JSON text (or - for standard input)")
                }
                let text = words[1].text
                let bytes: [UInt8]
                if text == "-" {
                    do { bytes = try input() } catch let error as Errno {
                        throw StoreError.unreadable(path: "standard input", error)
                    }
                } else {
                    bytes = Array(text.utf8)
                }
                do throws(JSONError) { plain = try JSONReader.read(bytes) } catch {
                    throw CLIError.json(error, source: text == "-" ? "standard input" : "the value")
                }
            } else if TypeTable.row(forFlag: words[0].text) != nil {
                var lookalikes: [ValueArguments.Lookalike] = []
                guard case .set(let value) = try ValueArguments.parse(words, lookalikes: &lookalikes) else {
                    throw CLIError.usage("-array-add and -dict-add do not work on desktop keys; write the whole value")
                }
                plain = value
            }
            if plain == nil { try expectAtMost(1, words) }
            let text = words[0].text
            do throws(VariantParser.Failure) {
                if let plain { return try Variant.from(plain, as: schema) }
                switch type {
                case .basic(let c)? where c == UInt8(ascii: "s") || c == UInt8(ascii: "o") || c == UInt8(ascii: "g"):
                    return try Variant.from(.string(text), as: type!)
                case .maybe(.basic(UInt8(ascii: "s")))?:
                    // GVariant text when it is some (`nothing`, `'x'`, `just 'x'`), as
                    // gsettings reads it; any other word is the string itself.
                    return (try? VariantParser.parse(text, as: type)) ?? .maybe(.string, .string(text))
                default:
                    do { return try VariantParser.parse(text, as: type) } catch {
                        // defaults' own form of a collection, a property list's XML: what
                        // `capture` and `diff` print for a nested value.
                        if text.hasPrefix("<"), let plain = try? ValueArguments.untyped(text) {
                            if case .string = plain {} else { return try Variant.from(plain, as: type) }
                        }
                        // A new dconf key whose text is no GVariant value is a string; a list
                        // of strings takes one word as its one string (a flag's name).
                        guard type != nil else { return .string(text) }
                        if type == .strings, !text.hasPrefix("["), !text.hasPrefix("@") {
                            return .array(.string, [.string(text)])
                        }
                        throw error
                    }
                }
            } catch {
                throw DesktopError.refused(key: key, reason: error.message)
            }
        }

        /// `delete D [K]`, `reset D K… | --all`: each key back to its default (dconf's
        /// `reset`); the whole domain when no key is named.
        func reset(_ context: inout Context, _ words: [Token], verb: String) throws {
            var names = words.map(\.text)
            if verb == "delete" { try expectAtMost(1, words) }
            if verb == "reset", names.isEmpty { throw CLIError.usage("reset needs a domain and keys, or --all") }
            if names.isEmpty || names == ["--all"] {
                if place.schema == nil { return try store.resetFolder(place) }
                // Every key the user's database holds in the folder, one GSettings ignores too.
                names = try store.userValues(place, ofTheKeysType: false).map(\.key).filter { name throws in
                    try place.schema!.key(name) != nil
                }
                if names.isEmpty, verb == "delete" {
                    throw CLIError.domainMissing(place.domain.name, file: nil)
                }
            }
            try store.write(place, names.map { ($0, nil) })
        }

        /// `describe D K`: the key's description, or its summary, as gsettings prints it;
        /// `describe D`: a line per key: its name, rule, default and summary.
        func describe(_ context: inout Context, _ words: [Token]) throws {
            try expectAtMost(1, words)
            guard let schema = place.schema else {
                throw CLIError.noSchema(domain: place.domain.name, key: words.first?.text)
            }
            if let name = words.first?.text {
                guard try store.key(place, name) != nil else { return }
                let texts = SchemaTexts.of(name, in: schema)
                return context.print(texts.description ?? texts.summary ?? "")
            }
            for key in try schema.keys() {
                var line = "\(key.name): " + key.rangeText.split(separator: "\n").joined(separator: " ")
                line += ", default \(key.defaultValue.gvariantText)"
                let texts = SchemaTexts.of(key.name, in: schema)
                if let about = texts.summary ?? texts.description { line += " - " + about }
                context.print(line)
            }
        }

        /// `validate D`: each value the user set that its key does not allow (GSettings
        /// ignores a value of the wrong type), one line each, and status 1.
        func validate(_ context: inout Context, _ words: [Token]) throws {
            try expectAtMost(0, words)
            guard let schema = place.schema else { throw CLIError.noSchema(domain: place.domain.name, key: nil) }
            var problems: [String] = []
            for (name, value) in try store.userValues(place, ofTheKeysType: false) {
                guard let key = try schema.key(name) else {
                    problems.append("\(name): not a key of the schema \(schema.id)")
                    continue
                }
                if let reason = key.refusal(value) { problems.append("\(name): \(reason)") }
            }
            for problem in problems { context.print(problem) }
            if !problems.isEmpty { context.status = 1 }
        }

        /// `export D PATH|- [--json] [--with-defaults]`: the values as a property list
        /// (XML on standard output, binary in a file) or JSON.
        func export(_ context: inout Context, _ words: [Token]) throws {
            guard words.count == 1 else {
                throw CLIError.usage("export needs a domain and a path (or - for standard output)")
            }
            let values = dictionary(try options.withDefaults ? store.effectiveValues(place) : store.userValues(place))
            let path = words[0].text
            let form: DomainText.Form = options.json ? .json : path == "-" ? .xml : .binary
            let text = DomainText(values, as: form)
            if path == "-" {
                do { try text.write { try context.streams.output(Array($0)) } } catch let error as Errno {
                    throw CLIError.outputFailed(error)
                }
            } else {
                context.note(
                    try PlistFiles.write(to: path, lockTimeout: context.store.lockTimeout) { try text.write(to: $0) })
            }
        }

        /// `import D PATH|- [--json] [--replace]`: each key of the file set, typed by the
        /// schema, in one dconf change; `--replace` resets the keys the file does not have.
        func importValues(_ context: inout Context, _ words: [Token]) throws {
            guard words.count == 1 else {
                throw CLIError.usage("import needs a domain and a path (or - for standard input)")
            }
            let (bytes, name) = try TransferCommand.importBytes(words[0].text, &context)
            let imported = try TransferCommand.importedDictionary(bytes, json: options.json, name: name)
            var changes: [(key: String, value: Variant?)] = []
            for entry in imported.entries {
                changes.append((entry.key, try store.variant(place, entry.key, entry.value)))
            }
            if options.replace {
                for (key, _) in try store.userValues(place) where imported[key] == nil { changes.append((key, nil)) }
            }
            try store.write(place, changes)
        }
    }
}

extension DesktopCommand {
    /// `edit gsettings:…|dconf:…`: the user's values of the domain (as `export --json`
    /// gives them), each changed key checked against its schema and locks before anything
    /// is written, and the edit made through dconf in one change on the values as they are
    /// when it is saved (a key someone changed meanwhile stays theirs, as in a plist edit).
    static func editTarget(_ name: String, _ store: DesktopStore) throws -> EditSession.Target {
        let place = try store.place(try DesktopDomain(name))
        /// The changes from `before` to `after`, typed as `import` types them.
        func changes(_ before: PlistDictionary, _ after: PlistDictionary) throws(DesktopError) -> [(
            key: String, value: Variant?
        )] {
            var out: [(key: String, value: Variant?)] = []
            var failure: DesktopError? = nil
            PlistDictionary.walk([before, after]) { key, values in
                guard failure == nil, values[0] != values[1] else { return }
                guard let value = values[1] else { return out.append((key, nil)) }
                do throws(DesktopError) { out.append((key, try store.variant(place, key, value))) } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            return out
        }
        return EditSession.Target(
            name: name, values: try store.stateDomain(place) ?? [:],
            refusals: { base, result in
                do throws(DesktopError) {
                    for (key, value) in try changes(base, result) {
                        if let value { try store.check(place, key, value) } else { _ = try store.key(place, key) }
                    }
                    return []
                } catch {
                    return ["\(name): \(error.message)"]
                }
            },
            update: { change in
                store.forgetDatabases()
                let before = try store.stateDomain(place) ?? [:]
                var values = before
                guard try change(&values) else { return }
                let made = try changes(before, values)
                if !made.isEmpty { try store.write(place, made) }
            })
    }
}

extension Context {
    /// The desktop's store, each change it makes journalled through this run's store (its
    /// writer's name included), as taking back `mark` (an undo's or a redo's) when given.
    func desktopStore(takingBack mark: JournalEntry.TakenBack? = nil) -> DesktopStore {
        let store = DesktopStore(environment: self.store.environment)
        var journalling = self.store
        journalling.takesBack = mark
        store.journal = { name, before, after in
            journalling.journalDesktop(name, before: before, after: after)?.message
        }
        store.holding = { name, body in journalling.holdingDesktop(name, body) }
        return store
    }

    /// The desktop's store for a verb that will write (`edit`): said at once, before any
    /// editor opens, when no change could be made (no session, no dconf service, a host named).
    func desktopStoreToWrite() throws -> DesktopStore {
        guard host == .any else { throw CLIError.desktopHasNoHost }
        let store = desktopStore()
        try store.checkWriter()
        return store
    }

    /// What the journal could not keep of the desktop's changes, one warning each.
    mutating func note(_ store: DesktopStore) {
        for warning in store.journalWarnings { warn("the change is in place, but not in its history: " + warning) }
        // A schema file passed over while others gave the schemas (when none did, the
        // verb's own error names it).
        if (try? store.schemas.hasSchemas()) == true {
            for skipped in store.schemas.skipped { warn(skipped.message + "; passed over, as GLib passes over it") }
        }
        for skipped in store.skippedDatabases { warn(skipped.message + "; passed over, as dconf passes over it") }
    }
}
