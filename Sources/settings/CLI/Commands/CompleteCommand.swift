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
        guard arguments.count == 1, let script = CompletionScripts.byShell[arguments[0].text] else {
            throw CLIError.usage("completion needs a shell: bash, zsh or fish")
        }
        context.print(script)
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

    static func complete(_ context: inout Context, _ arguments: [Token]) throws {
        guard let what = arguments.first?.text else {
            throw CLIError.usage("complete needs 'domains' or 'keys <domain>'")
        }
        switch what {
        case "domains":
            try expectAtMost(1, arguments)
            context.print("NSGlobalDomain")
            for name in (try? context.store.domainNames()) ?? [] { context.print(name) }
        case "values":
            // What may follow `write D KEY`: the schema's choices, or true and false.
            guard arguments.count == 3 else { throw CLIError.usage("complete values needs a domain and a key") }
            guard let domain = try? context.domainName(arguments[1]),
                let key = context.schema(for: domain)?.key(arguments[2].text)
            else { return }
            if let choices = key.choices {
                for choice in choices { context.output += DefaultsPrinter.renderLine(choice) + [UInt8(ascii: "\n")] }
            } else if key.type == .boolean {
                context.print("true")
                context.print("false")
            }
        case "keys", "paths":
            guard arguments.count == 2 else { throw CLIError.usage("complete \(what) needs a domain") }
            guard let domain = try? context.domainName(arguments[1]) else { return }
            // As readers see the domain: the administrator's keys too (a broken file of theirs
            // is left out, without a word: completion never writes to the terminal).
            let user = (try? context.store.load(domain, host: context.host))??.values ?? [:]
            let values = context.store.adminLayers(of: domain, host: context.host).merged(over: user)
            if what == "keys" {
                // The schema's keys too, so a key can be completed before it is ever written.
                let schemaKeys = context.schema(for: domain)?.keys.map(\.name).filter { values[$0] == nil } ?? []
                for key in (values.keys + schemaKeys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
                where !key.utf8.contains(UInt8(ascii: "\n")) { context.print(key) }
            } else {
                for path in PlistKeyPath.all(in: values) where !path.pointer.utf8.contains(UInt8(ascii: "\n")) {
                    context.print(path.pointer)
                }
            }
        case "verbs":
            try expectAtMost(1, arguments)
            for verb in Verb.all where !verb.name.hasPrefix("-") {
                context.print("\(verb.name)\t\(verb.summary)")
                for alias in verb.aliases where !alias.hasPrefix("-") {
                    context.print("\(alias)\t\(verb.summary) (as \(verb.name))")
                }
            }
        case "options":
            guard arguments.count == 3 else { throw CLIError.usage("complete options needs a verb and a place") }
            guard let verb = Verb.named(arguments[1].text), let place = VerbOption.Place(rawValue: arguments[2].text)
            else { return }
            for (flag, summary) in typeFlags(at: place) { context.print("\(flag)\t\(summary)") }
            for option in verb.options where option.places.contains(place) {
                context.print("\(option.name)\t\(option.summary)")
            }
        default:
            throw CLIError.usage(
                "complete needs 'domains', 'keys <domain>', 'paths <domain>', "
                    + "'values <domain> <key>', 'verbs' or 'options <verb> <place>'"
            )
        }
    }
}
