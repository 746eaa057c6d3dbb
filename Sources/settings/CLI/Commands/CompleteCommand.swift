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
                printPaths(.dict(values), KeyPath([]), &context)
            }
        default:
            throw CLIError.usage("complete needs 'domains', 'keys <domain>' or 'paths <domain>'")
        }
    }

    /// A JSON Pointer for every value below `value`, parents before children.
    private static func printPaths(_ value: PlistValue, _ path: KeyPath, _ context: inout Context) {
        func visit(_ segment: String, _ child: PlistValue) {
            let below = KeyPath(path.segments + [segment])
            let pointer = below.pointer
            if !pointer.utf8.contains(UInt8(ascii: "\n")) { context.print(pointer) }
            printPaths(child, below, &context)
        }
        switch value {
        case .dict(let dict): for entry in dict.sortedEntries { visit(entry.key, entry.value) }
        case .array(let items): for (i, item) in items.enumerated() { visit(String(i), item) }
        default: break
        }
    }
}
