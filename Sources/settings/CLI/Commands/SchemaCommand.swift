import PlistModel
import PlistCodecs
import SettingsStore

/// The verbs that read a domain's schema, for gsettings parity: `list-keys`, `describe`,
/// `range`, `reset`, `validate`, and `schema path`.
enum SchemaCommand {
    /// `list-keys D`: the schema's keys, sorted, one a line; a domain without a schema
    /// lists its stored keys, as `keys` does.
    static func listKeys(_ context: inout Context, _ arguments: [Token]) throws {
        guard let first = arguments.first else { throw CLIError.usage("list-keys needs a domain") }
        if context.schema(for: try context.domainName(first)) == nil { return try keys(&context, arguments) }
        let (_, schema) = try domainAndSchema(&context, arguments, count: 1)
        for name in schema.sortedNames { context.print(name) }
    }

    /// `keys D`: the keys stored in a domain, sorted by their bytes, one a line.
    static func keys(_ context: inout Context, _ arguments: [Token]) throws {
        let values = try onlyDomainValues(&context, arguments, verb: "keys")
        for entry in values.sortedEntries { context.print(entry.key) }
    }

    /// `describe D KEY`: the key's description, or its summary. `describe D`: every key
    /// of the schema, one a line: its name, what it allows, its default and its summary.
    static func describe(_ context: inout Context, _ arguments: [Token]) throws {
        if arguments.count == 1 {
            let (_, schema) = try domainAndSchema(&context, arguments, count: 1)
            for name in schema.sortedNames {
                guard let key = schema.key(name) else { continue }
                var line = "\(name): " + key.rangeText.split(separator: "\n").joined(separator: " ")
                if let value = key.defaultValue { line += ", default \(KeySchema.text(value))" }
                if let about = key.summary ?? key.description { line += " - " + about }
                context.print(line)
            }
            return
        }
        let key = try keySchema(&context, arguments)
        context.print(key.description ?? key.summary ?? "")
    }

    /// `range D KEY`: `type T`, `range T MIN MAX`, or `enum` and one choice a line.
    static func range(_ context: inout Context, _ arguments: [Token]) throws {
        context.print(try keySchema(&context, arguments).rangeText)
    }

    /// `reset D KEY…` or `reset D --all`: removes the keys (every key the schema names,
    /// for `--all`), so reads give the defaults again. A key already absent is no error.
    static func reset(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        context.takeForce(&arguments)
        guard arguments.count >= 2 else { throw CLIError.usage("reset needs a domain and keys, or --all") }
        let domain = try context.domainName(arguments[0])
        var names = arguments.dropFirst().map(\.text)
        if names == ["--all"] {
            guard let schema = context.schema(for: domain) else {
                throw CLIError.noSchema(domain: arguments[0].text, key: nil)
            }
            names = schema.keys.map(\.name)
        } else {
            try context.refuseManaged(names, in: domain)
        }
        try context.update(domain) { values in
            var changed = false
            for name in names where values.removeValue(forKey: name) != nil { changed = true }
            return changed
        }
    }

    /// `validate D`: every value the schema does not allow, one line each, status 1;
    /// nothing and status 0 when all is well.
    static func validate(_ context: inout Context, _ arguments: [Token]) throws {
        let (domain, schema) = try domainAndSchema(&context, arguments, count: 1)
        let values = try context.store.load(domain, host: context.host)?.values ?? [:]
        var problems: [String] = []
        for entry in values.sortedEntries {
            if let key = schema.key(entry.key) {
                if let problem = key.violation(entry.value) { problems.append("\(entry.key): \(problem.message)") }
            } else if schema.strict {
                problems.append("\(entry.key): not a key of the schema, which is strict")
            }
        }
        for problem in problems { context.print(problem) }
        if !problems.isEmpty { context.status = 1 }
    }

    /// `schema path D`: the schema file used for the domain.
    static func schema(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count == 2, arguments[0].text == "path" else { throw CLIError.usage("schema path <domain>") }
        let domain = try context.domainName(arguments[1])
        guard case .named(let name) = domain,
            let path = SchemaFiles.path(
                for: name, configDirectory: context.store.directory, environment: context.store.environment)
        else {
            throw CLIError.noSchema(domain: arguments[1].text, key: nil)
        }
        context.print(path)
    }

    private static func domainAndSchema(_ context: inout Context, _ arguments: [Token], count: Int) throws -> (
        DomainName, Schema
    ) {
        guard arguments.count >= count else {
            throw CLIError.usage("this verb needs a domain" + (count > 1 ? " and a key" : ""))
        }
        try expectAtMost(count, arguments)
        let domain = try context.domainName(arguments[0])
        guard let schema = context.schema(for: domain) else {
            throw CLIError.noSchema(domain: arguments[0].text, key: nil)
        }
        return (domain, schema)
    }

    private static func keySchema(_ context: inout Context, _ arguments: [Token]) throws -> KeySchema {
        let (_, schema) = try domainAndSchema(&context, arguments, count: 2)
        guard let key = schema.key(arguments[1].text) else {
            throw CLIError.noSchema(domain: arguments[0].text, key: arguments[1].text)
        }
        return key
    }
}

extension KeySchema {
    /// What `range` prints: `type T`, `range T MIN MAX`, or `enum` and one choice a line.
    var rangeText: String {
        let word = type?.rawValue ?? "any"
        if let choices { return (["enum"] + choices.map { Self.text($0) }).joined(separator: "\n") }
        if minimum != nil || maximum != nil {
            return "range \(word) \(minimum.map(Self.text) ?? "-inf") \(maximum.map(Self.text) ?? "inf")"
        }
        return "type \(word)"
    }
}
