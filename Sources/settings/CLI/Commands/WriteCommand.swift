import SettingsCore

enum WriteCommand {
    /// `write D K VALUE…` sets one key; `write D PLIST` replaces the domain.
    static func write(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count >= 2 else { throw CLIError.usage("write needs a domain, a key and a value") }
        let domain = try domainName(arguments[0])
        if arguments.count == 2 {
            try replaceDomain(&context, domain, literal: arguments[1].text)
            return
        }
        let key = arguments[1].text
        var lookalikes: [ValueArguments.Lookalike] = []
        let change: ValueArguments.Change
        do {
            change = try ValueArguments.parse(Array(arguments.dropFirst(2)), lookalikes: &lookalikes)
        } catch {
            throw lookalikes.first.map { CLIError.lookalike(error, $0) } ?? error
        }
        for lookalike in lookalikes {
            context.warn("'\(lookalike.word)' is not a type flag (did you mean \(lookalike.flag)?); stored as the string '\(lookalike.word)', as defaults does")
        }
        try context.store.update(domain, host: context.host, key: key) { value in
            switch change {
            case .set(let new):
                if value == new { return false }
                value = new
            case .append(let elements):
                switch value {
                case nil: value = .array(elements)
                case .array(let existing)?: value = .array(existing + elements)
                default: throw CLIError.notAnArray(key: key)
                }
            case .merge(let additions):
                var merged: PlistDictionary
                switch value {
                case nil: merged = PlistDictionary()
                case .dict(let existing)?: merged = existing
                default: throw CLIError.notADictionary(key: key)
                }
                for entry in additions.sortedEntries { merged[entry.key] = entry.value }
                value = .dict(merged)
            }
            return true
        }
    }

    /// `write D '{…}'`: the literal must be a dictionary, and becomes the whole domain.
    private static func replaceDomain(_ context: inout Context, _ domain: DomainName, literal: String) throws {
        guard PropertyList.looksLikeLiteral(literal), case .dict(let replacement) = try ValueArguments.untyped(literal) else {
            throw CLIError.couldNotParse(literal)
        }
        try context.store.update(domain, host: context.host) { values in
            if values == replacement { return false }
            values = replacement
            return true
        }
    }
}
