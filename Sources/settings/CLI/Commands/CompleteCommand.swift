import SettingsCore

/// `complete domains`, `complete keys D` and `complete paths D`: candidates for shell
/// completion, one per line. Always exits 0 and prints nothing it cannot read, so a broken domain never
/// breaks the shell.
enum CompleteCommand {
    static func complete(_ context: inout Context, _ arguments: [Token]) throws {
        guard let what = arguments.first?.text else { throw CLIError.usage("complete needs 'domains' or 'keys <domain>'") }
        switch what {
        case "domains":
            try expectAtMost(1, arguments)
            context.print("NSGlobalDomain")
            for name in (try? context.store.domainNames()) ?? [] { context.print(name) }
        case "keys", "paths":
            guard arguments.count == 2 else { throw CLIError.usage("complete \(what) needs a domain") }
            guard let domain = try? DomainName(arguments[1].text),
                  let values = try? context.store.load(domain, host: context.host)?.values else { return }
            if what == "keys" {
                for key in values.keys where !key.utf8.contains(UInt8(ascii: "\n")) { context.print(key) }
            } else {
                for path in KeyPath.all(in: values) where !path.pointer.utf8.contains(UInt8(ascii: "\n")) { context.print(path.pointer) }
            }
        default:
            throw CLIError.usage("complete needs 'domains', 'keys <domain>' or 'paths <domain>'")
        }
    }

    /// `paths D`: a JSON Pointer for every scalar and empty collection, one per line.
    static func paths(_ context: inout Context, _ arguments: [Token]) throws {
        guard let domainToken = arguments.first else { throw CLIError.usage("paths needs a domain") }
        try expectAtMost(1, arguments)
        guard let values = try context.store.load(try domainName(domainToken), host: context.host)?.values, !values.isEmpty else {
            throw CLIError.domainMissing(domainToken.text)
        }
        for path in KeyPath.all(in: values, leavesOnly: true) { context.print(path.pointer) }
    }
}
