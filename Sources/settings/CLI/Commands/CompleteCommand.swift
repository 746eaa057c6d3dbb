import SettingsCore

/// `complete domains` and `complete keys D`: candidates for shell completion, one per
/// line. Always exits 0 and prints nothing it cannot read, so a broken domain never
/// breaks the shell.
enum CompleteCommand {
    static func complete(_ context: inout Context, _ arguments: [Token]) throws {
        guard let what = arguments.first?.text else { throw CLIError.usage("complete needs 'domains' or 'keys <domain>'") }
        switch what {
        case "domains":
            try expectAtMost(1, arguments)
            context.print("NSGlobalDomain")
            for name in (try? context.store.domainNames()) ?? [] { context.print(name) }
        case "keys":
            guard arguments.count == 2 else { throw CLIError.usage("complete keys needs a domain") }
            guard let domain = try? DomainName(arguments[1].text),
                  let values = try? context.store.load(domain, host: context.host)?.values else { return }
            for key in values.keys where !key.utf8.contains(UInt8(ascii: "\n")) { context.print(key) }
        default:
            throw CLIError.usage("complete needs 'domains' or 'keys <domain>'")
        }
    }
}
