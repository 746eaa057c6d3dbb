import SettingsCore

/// `complete domains`, `complete keys D`, `complete paths D` and `complete values D K`:
/// candidates for shell completion, one per line. Always exits 0 and prints nothing it
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

    static func complete(_ context: inout Context, _ arguments: [Token]) throws {
        guard let what = arguments.first?.text else { throw CLIError.usage("complete needs 'domains' or 'keys <domain>'") }
        switch what {
        case "domains":
            try expectAtMost(1, arguments)
            context.print("NSGlobalDomain")
            for name in (try? context.store.domainNames()) ?? [] { context.print(name) }
        case "values":
            // What may follow `write D KEY`: the schema's choices, or true and false.
            guard arguments.count == 3 else { throw CLIError.usage("complete values needs a domain and a key") }
            guard let domain = try? DomainName(commandLine: arguments[1].text), let key = context.schema(for: domain)?.key(arguments[2].text) else { return }
            if let choices = key.choices {
                for choice in choices { context.output += DefaultsPrinter.renderLine(choice) + [UInt8(ascii: "\n")] }
            } else if key.type == .boolean {
                context.print("true")
                context.print("false")
            }
        case "keys", "paths":
            guard arguments.count == 2 else { throw CLIError.usage("complete \(what) needs a domain") }
            guard let domain = try? DomainName(commandLine: arguments[1].text) else { return }
            let values = (try? context.store.load(domain, host: context.host))??.values ?? [:]
            if what == "keys" {
                // The schema's keys too, so a key can be completed before it is ever written.
                let schemaKeys = context.schema(for: domain)?.keys.map(\.name).filter { values[$0] == nil } ?? []
                for key in (values.keys + schemaKeys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
                    where !key.utf8.contains(UInt8(ascii: "\n")) { context.print(key) }
            } else {
                for path in KeyPath.all(in: values) where !path.pointer.utf8.contains(UInt8(ascii: "\n")) { context.print(path.pointer) }
            }
        default:
            throw CLIError.usage("complete needs 'domains', 'keys <domain>', 'paths <domain>' or 'values <domain> <key>'")
        }
    }
}
