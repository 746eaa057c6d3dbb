import SettingsCore

enum DeleteCommand {
    /// `delete D` removes the domain's file; `delete D K` one key.
    static func delete(_ context: inout Context, _ arguments: [Token]) throws {
        guard let domainToken = arguments.first else { throw CLIError.usage("delete needs a domain") }
        try expectAtMost(2, arguments)
        let domain = try domainName(domainToken)
        guard arguments.count == 2 else {
            guard try context.store.remove(domain, host: context.host) else {
                throw CLIError.deleteMissing(domain: domainToken.text)
            }
            return
        }
        let key = arguments[1].text
        var removed = false
        try context.store.update(domain, host: context.host, key: key) { value in
            removed = value != nil
            value = nil
            return removed
        }
        guard removed else { throw CLIError.deleteMissing(domain: domainToken.text) }
    }
}
