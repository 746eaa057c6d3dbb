import SettingsCore

enum ReadCommand {
    /// `read`, `read D`, `read D K`.
    static func read(_ context: inout Context, _ arguments: [Token]) throws {
        try expectAtMost(2, arguments)
        guard let domainToken = arguments.first else {
            context.output.append(contentsOf: DefaultsPrinter.render(.dict(try everyDomain(context))))
            return
        }
        let domain = try domainName(domainToken)
        guard arguments.count == 2 else {
            guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
                throw CLIError.domainMissing(domainToken.text)
            }
            context.output.append(contentsOf: DefaultsPrinter.render(.dict(values)))
            return
        }
        let key = arguments[1].text
        guard let value = try context.store.value(forKey: key, in: domain, host: context.host) else {
            throw CLIError.pairMissing(domain: domainToken.text, key: key)
        }
        context.output.append(contentsOf: DefaultsPrinter.renderBare(value))
    }

    /// `read-type D K`: `Type is boolean`.
    static func readType(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count >= 2 else { throw CLIError.usage("read-type needs a domain and a key") }
        try expectAtMost(2, arguments)
        let domain = try domainName(arguments[0])
        let key = arguments[1].text
        guard let value = try context.store.value(forKey: key, in: domain, host: context.host) else {
            throw CLIError.pairMissing(domain: arguments[0].text, key: key)
        }
        context.print("Type is \(TypeTable.row(for: value).word)")
    }

    /// Every domain keyed by its name, the global one as NSGlobalDomain.
    static func everyDomain(_ context: Context) throws -> PlistDictionary {
        var all = PlistDictionary()
        let names = [DomainName.global] + (try context.store.domainNames()).map { DomainName.named($0) }
        for name in names {
            if let values = try context.store.load(name, host: context.host)?.values, !values.isEmpty {
                all[name.displayName] = .dict(values)
            }
        }
        return all
    }
}
