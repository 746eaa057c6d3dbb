import SettingsCore

/// The verb table: each verb once, with its usage lines and the function that runs it.
struct Verb: Sendable {
    let name: String
    let aliases: [String]
    /// `(arguments, description)` pairs for the help text.
    let usage: [(String, String)]
    let run: @Sendable (inout Context, [Token]) throws -> Void

    static let all: [Verb] = [
        Verb(name: "read", aliases: ["get"], usage: [
            ("read", "shows all defaults"),
            ("read <domain>", "shows defaults for given domain"),
            ("read <domain> <key>", "shows defaults for given domain, key"),
            ("read <domain> -p <pointer>", "the value at an RFC 6901 pointer: -p /window/frame/0"),
            ("read <domain> --path-json <path>", "the value at a jq path: --path-json '[\"window\",0]'"),
            ("read ... --json", "prints JSON (pretty at a terminal), in the man page's mapping"),
            ("read <domain> <key> --source", "prints user or default (from the schema)"),
            ("read <domain> --with-defaults", "the domain with the schema's defaults filled in"),
        ], run: ReadCommand.read),
        Verb(name: "read-type", aliases: [], usage: [
            ("read-type <domain> <key>", "shows the type for the given domain, key"),
            ("read-type <domain> -p <pointer>", "shows the type of the value at pointer"),
        ], run: ReadCommand.readType),
        Verb(name: "write", aliases: ["set"], usage: [
            ("write <domain> <domain_rep>", "writes domain (overwrites existing)"),
            ("write <domain> <key> <value>", "writes key for domain (a schema types and checks it)"),
            ("write <domain> --force ...", "writes what the schema would refuse, or over a read-only file"),
            ("write <domain> <key> --json <json>", "writes key as a JSON value"),
            ("write <domain> -p <pointer> <value>", "sets the place (dictionaries on the way are made)"),
            ("  [--insert] [--exact]", "insert before an array index; keep JSON integers integers"),
        ], run: WriteCommand.write),
        Verb(name: "rename", aliases: [], usage: [
            ("rename <domain> <old_key> <new_key>", "renames old_key to new_key"),
            ("rename <domain> --force ...", "also in a read-only file"),
        ], run: RenameCommand.rename),
        Verb(name: "delete", aliases: ["remove"], usage: [
            ("delete <domain>", "deletes domain"),
            ("delete <domain> <key>", "deletes key in domain"),
            ("delete <domain> -p <pointer>", "deletes the value at pointer (arrays close the gap)"),
            ("delete <domain> --force ...", "also a read-only file"),
        ], run: DeleteCommand.delete),
        Verb(name: "import", aliases: [], usage: [
            ("import <domain> <path to plist>", "writes the plist at path to domain"),
            ("import <domain> -", "writes a plist from stdin to domain"),
            ("  [--json] [--merge] [--exact]", "the file is JSON; merge dictionaries deeply"),
            ("import <domain> --force ...", "also over a read-only file"),
        ], run: TransferCommand.importDomain),
        Verb(name: "export", aliases: [], usage: [
            ("export <domain> <path to plist>", "saves domain as a binary plist to path"),
            ("export <domain> -", "writes domain as an xml plist to stdout"),
            ("  [--json]", "as JSON instead"),
        ], run: TransferCommand.exportDomain),
        Verb(name: "paths", aliases: [], usage: [
            ("paths <domain>", "lists a JSON Pointer for every leaf value, one per line"),
        ], run: PathsCommand.paths),
        Verb(name: "watch", aliases: [], usage: [
            ("watch <domain> [<key>...]", "prints each change: key, tab, value; until stopped"),
            ("  [-p <pointer>...]", "watches a place inside a value: -p /window/frame/0"),
            ("  [--json]", "one JSON object per change: domain, key, path, change, old, new"),
            ("  [--initial] [--count N]", "first the current values; stop after N changes"),
            ("  [--timeout S] [--debounce MS]", "stop after S seconds (124 if nothing changed); quiet window"),
        ], run: WatchCommand.watch),
        Verb(name: "keys", aliases: [], usage: [
            ("keys <domain>", "lists the domain's keys, one per line"),
        ], run: SchemaCommand.keys),
        Verb(name: "list-keys", aliases: [], usage: [
            ("list-keys <domain>", "lists the keys of the domain's schema (else its stored keys)"),
        ], run: SchemaCommand.listKeys),
        Verb(name: "describe", aliases: [], usage: [
            ("describe <domain> <key>", "prints the key's description from the schema"),
        ], run: SchemaCommand.describe),
        Verb(name: "range", aliases: [], usage: [
            ("range <domain> <key>", "prints the values the schema allows: type, range or enum"),
        ], run: SchemaCommand.range),
        Verb(name: "reset", aliases: [], usage: [
            ("reset <domain> <key>... | --all", "removes keys, so reads give the schema's defaults"),
        ], run: SchemaCommand.reset),
        Verb(name: "validate", aliases: [], usage: [
            ("validate <domain>", "lists every value the schema does not allow (status 1)"),
        ], run: SchemaCommand.validate),
        Verb(name: "schema", aliases: [], usage: [
            ("schema path <domain>", "prints the schema file used for the domain"),
        ], run: SchemaCommand.schema),
        Verb(name: "domains", aliases: [], usage: [
            ("domains", "lists all domains"),
        ], run: DomainsCommand.domains),
        Verb(name: "find", aliases: [], usage: [
            ("find <word>", "lists all entries containing word"),
        ], run: FindCommand.find),
        Verb(name: "complete", aliases: [], usage: [
            ("complete domains", "lists domain names, one per line (for shells)"),
            ("complete keys <domain>", "lists the domain's keys, one per line"),
            ("complete paths <domain>", "lists a JSON Pointer for every value, one per line"),
            ("complete values <domain> <key>", "lists the values the schema offers for key"),
        ], run: CompleteCommand.complete),
        Verb(name: "completion", aliases: [], usage: [
            ("completion bash|zsh|fish", "prints the shell's completion script: eval \"$(settings completion bash)\""),
        ], run: CompleteCommand.script),
        Verb(name: "help", aliases: ["-h", "--help"], usage: [
            ("help", "print this help"),
            ("help <verb>", "print one verb's help (also: <verb> --help, <verb> -h)"),
        ], run: HelpCommand.help),
        Verb(name: "--version", aliases: ["version"], usage: [
            ("--version", "print the version"),
        ], run: HelpCommand.version),
    ]

    /// Whether the verb may change a domain; messages of the others never say "leaving
    /// defaults unchanged".
    var writes: Bool { ["write", "rename", "delete", "import", "reset"].contains(name) }

    /// Whether the verb's first argument is a domain, read off its usage lines.
    var takesDomain: Bool {
        usage.contains { $0.0.split(separator: " ").dropFirst().first == "<domain>" }
    }

    /// Verbs are case-insensitive, as in defaults.
    static func named(_ word: String) -> Verb? {
        let lower = word.lowercased()
        return all.first { $0.name == lower || $0.aliases.contains(lower) }
    }

    /// The verb a mistyped word most likely meant: within two edits of a name or an alias.
    static func suggestion(for word: String) -> String? {
        let lower = Array(word.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for verb in all {
            for name in [verb.name] + verb.aliases where !name.hasPrefix("-") {
                let d = editDistance(lower, Array(name.utf8))
                if d <= 2, d < (best?.distance ?? .max) { best = (verb.name, d) }
            }
        }
        return best?.name
    }

    /// Levenshtein distance, with a transposition counted as one edit (`wirte`).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }
}

/// Fails with "Unexpected argument" when more words follow than a verb takes.
func expectAtMost(_ n: Int, _ arguments: [Token]) throws(CLIError) {
    if arguments.count > n { throw CLIError.unexpectedArgument(arguments[n].text) }
}

extension Context {
    /// `--force` right after the domain: write what a schema would refuse, and replace
    /// or remove a read-only file (the store is told). Taken out of the words; whether
    /// it was there.
    @discardableResult
    mutating func takeForce(_ arguments: inout [Token]) -> Bool {
        let force = arguments.count > 1 && arguments[1].text == "--force"
        if force { arguments.remove(at: 1) }
        store.overwriteReadOnly = force
        return force
    }
}

extension DomainName {
    /// The file a path domain names, for messages; nil for the config folder's domains.
    var file: String? {
        if case .path(let path) = self { return path }
        return nil
    }
}

/// `VERB D`: the one domain argument's values, which must exist and not be empty
/// (`paths`, `keys`).
func onlyDomainValues(_ context: inout Context, _ arguments: [Token], verb: String) throws -> PlistDictionary {
    guard let domainToken = arguments.first else { throw CLIError.usage("\(verb) needs a domain") }
    try expectAtMost(1, arguments)
    let domain = try domainName(domainToken)
    guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
        throw CLIError.domainMissing(domainToken.text, file: domain.file)
    }
    return values
}

/// The domain argument, checked.
func domainName(_ token: Token) throws(CLIError) -> DomainName {
    do throws(StoreError) { return try DomainName(commandLine: token.text) } catch { throw CLIError.store(error) }
}
