import PlistModel
import PlistCodecs
import SettingsStore

/// `complete domains`, `complete keys D`, `complete paths D`, `complete values D K`,
/// `complete verbs` and `complete options VERB PLACE`: candidates for shell completion, one
/// per line (verbs and options as `NAME<TAB>SUMMARY`). Always exits 0 and prints nothing it
/// cannot read, so a broken domain never breaks the shell.
enum CompleteCommand {
    /// `completion bash|zsh|fish`: the completion script, to load from a shell's rc file
    /// (`eval "$(settings completion bash)"`, `settings completion fish | source`).
    static func script(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count == 1, let script = CompletionScripts.script(for: arguments[0].text) else {
            throw CLIError.usage("completion needs a shell: bash, zsh or fish")
        }
        context.output += Array(script.utf8)
    }

    /// The type table's flags where a value stands: all of them in a value's place, the
    /// scalar ones among a collection's elements.
    static func typeFlags(at place: VerbOption.Place) -> [(String, String)] {
        guard [.value, .pointerValue, .element].contains(place) else { return [] }
        return TypeTable.rows.flatMap { row -> [(String, String)] in
            switch row.type {
            case .array, .dict:
                guard place != .element else { return [] }
                return row.flags.map { ($0, "the \(row.expected) that follow") }
                    + (row.addFlag.map { [($0, "add the \(row.expected) that follow")] } ?? [])
            default:
                return row.flags.map { ($0, row.expected) }
            }
        }
    }

    /// The domains completion offers: the global domain's name, then the store's.
    static func domainNames(_ context: inout Context) -> [String] {
        ["NSGlobalDomain"] + ((try? context.store.domainNames()) ?? [])
    }

    /// The keys of a domain as readers see it (the administrator's too; a broken file of
    /// theirs is left out without a word: completion never writes to the terminal), and
    /// the schema's, so a key can be completed before it is ever written.
    static func keys(of domain: DomainName, _ context: inout Context) -> [String] {
        let values = visibleValues(of: domain, &context)
        let schemaKeys = context.schema(for: domain)?.keys.map(\.name).filter { values[$0] == nil } ?? []
        return (values.keys + schemaKeys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .filter { !$0.utf8.contains(UInt8(ascii: "\n")) }
    }

    /// A JSON Pointer for every value of the domain as readers see it, parents first.
    static func pointers(in domain: DomainName, _ context: inout Context) -> [String] {
        PlistKeyPath.all(in: visibleValues(of: domain, &context)).map(\.pointer)
            .filter { !$0.utf8.contains(UInt8(ascii: "\n")) }
    }

    /// What may follow `write D KEY` for a schema's key: its choices, or true and false.
    static func values(of key: KeySchema) -> [String] {
        if let choices = key.choices {
            return choices.map { String(decoding: DefaultsPrinter.renderLine($0), as: UTF8.self) }
        }
        return key.type == .boolean ? ["true", "false"] : []
    }

    private static func visibleValues(of domain: DomainName, _ context: inout Context) -> PlistDictionary {
        let user = (try? context.store.load(domain, host: context.host))??.values ?? [:]
        return context.store.adminLayers(of: domain, host: context.host).merged(over: user)
    }

    static func complete(_ context: inout Context, _ arguments: [Token]) throws {
        switch arguments.first?.text {
        case "line"?:
            let completion = Completion.complete(arguments.dropFirst().map(\.text), &context)
            context.output += Array(completion.text.utf8)
        case "domains"?:
            try expectAtMost(1, arguments)
            for name in domainNames(&context) { context.print(name) }
        case "values"?:
            guard arguments.count == 3 else { throw CLIError.usage("complete values needs a domain and a key") }
            guard let domain = try? context.domainName(arguments[1]),
                let key = context.schema(for: domain)?.key(arguments[2].text)
            else { return }
            for value in values(of: key) { context.print(value) }
        case let what? where what == "keys" || what == "paths":
            guard arguments.count == 2 else { throw CLIError.usage("complete \(what) needs a domain") }
            guard let domain = try? context.domainName(arguments[1]) else { return }
            for line in what == "keys" ? keys(of: domain, &context) : pointers(in: domain, &context) {
                context.print(line)
            }
        case "verbs"?:
            try expectAtMost(1, arguments)
            for (name, summary) in Completion.verbs { context.print("\(name)\t\(summary)") }
        case "options"?:
            guard arguments.count == 3 else { throw CLIError.usage("complete options needs a verb and a place") }
            guard let verb = Verb.named(arguments[1].text), let place = VerbOption.Place(rawValue: arguments[2].text)
            else { return }
            for (flag, summary) in typeFlags(at: place) { context.print("\(flag)\t\(summary)") }
            for option in verb.options where option.places.contains(place) {
                context.print("\(option.name)\t\(option.summary)")
            }
        default:
            // None (an unknown one is refused before the verb runs, by `Verb.checkWords`).
            throw CLIError.usage(
                "complete needs one of: " + Verb.named("complete")!.subverbs.map(\.name).joined(separator: ", "))
        }
    }
}
