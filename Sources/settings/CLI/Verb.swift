import PlistModel
import PlistCodecs
import SettingsStore

/// The verb table: each verb once, with its summary, usage lines, options and the
/// function that runs it. Help, the parsers' lists of allowed options and the completion
/// scripts (through `settings complete verbs` and `complete options`) all read it.
struct Verb: Sendable {
    let name: String
    let aliases: [String]
    /// A few words for completion menus and the short usage.
    let summary: String
    /// `(arguments, description)` pairs for the help text.
    let usage: [(String, String)]
    let options: [VerbOption]
    let run: @Sendable (inout Context, [Token]) throws -> Void

    init(
        name: String, aliases: [String] = [], summary: String, usage: [(String, String)], options: [VerbOption] = [],
        run: @escaping @Sendable (inout Context, [Token]) throws -> Void
    ) {
        (self.name, self.aliases, self.summary, self.usage, self.options, self.run) = (
            name, aliases, summary, usage, options, run
        )
    }

    static let all: [Verb] = [
        Verb(
            name: "read", aliases: ["get"], summary: "show all defaults, a domain, or one key",
            usage: [
                ("read", "shows all defaults"),
                ("read <domain>", "shows defaults for given domain"),
                ("read <domain> <key>", "shows defaults for given domain, key"),
                ("read <domain> -p <pointer>", "the value at an RFC 6901 pointer: -p /window/frame/0"),
            ],
            options: [
                .pointer, .pathJSON,
                VerbOption("--json", "prints JSON (pretty at a terminal), in the man page's mapping", at: [.after]),
                VerbOption(
                    "--source", "with a key: prints where its value comes from: managed, user, system or default",
                    at: [.after]),
                VerbOption(
                    "--with-defaults", "the domain as readers see it: managed, machine-wide and schema values applied",
                    at: [.after]),
            ],
            run: ReadCommand.read),
        Verb(
            name: "read-type", summary: "show the type of a key",
            usage: [
                ("read-type <domain> <key>", "shows the type for the given domain, key"),
                ("read-type <domain> -p <pointer>", "shows the type of the value at pointer"),
            ], options: [.pointer, .pathJSON], run: ReadCommand.readType),
        Verb(
            name: "write", aliases: ["set"], summary: "write a key, or a whole domain",
            usage: [
                ("write <domain> <domain_rep>", "writes domain (overwrites existing)"),
                ("write <domain> <key> <value>", "writes key for domain (a schema types and checks it)"),
                ("write <domain> <key> --json <json>", "writes key as a JSON value"),
                ("write <domain> -p <pointer> <value>", "sets the place (dictionaries on the way are made)"),
            ],
            options: [
                .pointer, .pathJSON, .force("writes what the schema would refuse, or over a read-only file"),
                VerbOption(
                    "--insert", "after -p: insert before the array index instead of replacing", at: [.pointerValue]),
                VerbOption("--exact", "after -p: keep JSON integers integers where reals were", at: [.pointerValue]),
                VerbOption(
                    "--json", "the value is JSON: --json '{\"w\": 800}'", argument: "<json>",
                    at: [.value, .pointerValue]),
            ],
            run: WriteCommand.write),
        Verb(
            name: "check", summary: "exit 0 if a key already has a value, type included",
            usage: [
                ("check <domain> <key> <value>", "exits 0 if key's value is what write would store, else 1"),
                ("check <domain> -p <pointer> <value>", "the same for the place at pointer"),
                ("check -v <domain> <key> <value>", "also prints equal, differs: VALUE (TYPE), or missing"),
            ],
            options: [
                .pointer, .pathJSON,
                VerbOption("--json", "the value is JSON", argument: "<json>", at: [.value, .pointerValue]),
            ],
            run: WriteCommand.check),
        Verb(
            name: "rename", summary: "rename a key",
            usage: [
                ("rename <domain> <old_key> <new_key>", "renames old_key to new_key")
            ], options: [.force("also in a read-only file")], run: RenameCommand.rename),
        Verb(
            name: "delete", aliases: ["remove"], summary: "delete a key or a whole domain",
            usage: [
                ("delete <domain>", "deletes domain"),
                ("delete <domain> <key>", "deletes key in domain"),
                ("delete <domain> -p <pointer>", "deletes the value at pointer (arrays close the gap)"),
            ], options: [.pointer, .pathJSON, .force("also a read-only file")], run: DeleteCommand.delete),
        Verb(
            name: "import", summary: "write a property-list file's keys into a domain",
            usage: [
                ("import <domain> <path to plist>", "writes the plist at path to domain"),
                ("import <domain> -", "writes a plist from stdin to domain"),
            ],
            options: [
                .force("also over a read-only file"),
                VerbOption("--json", "the file is JSON", at: [.after]),
                VerbOption("--replace", "make the file the whole domain (keys it lacks are removed)", at: [.after]),
                VerbOption("--merge", "merge dictionaries deeply, key by key inside them", at: [.after]),
                VerbOption("--exact", "with --json: keep integers integers where reals were", at: [.after]),
            ],
            run: TransferCommand.importDomain),
        Verb(
            name: "export", summary: "save a domain as a property-list file",
            usage: [
                ("export <domain> <path to plist>", "saves domain as a binary plist to path"),
                ("export <domain> -", "writes domain as an xml plist to stdout"),
            ],
            options: [
                VerbOption("--json", "as JSON instead", at: [.after]),
                VerbOption(
                    "--with-defaults", "what readers see: managed, machine-wide and schema values applied",
                    at: [.after]),
            ], run: TransferCommand.exportDomain),
        Verb(
            name: "paths", summary: "list a JSON Pointer for every leaf value",
            usage: [
                ("paths <domain>", "lists a JSON Pointer for every leaf value, one per line")
            ], run: PathsCommand.paths),
        Verb(
            name: "watch", summary: "print each change to a domain as it happens",
            usage: [
                ("watch <domain> [<key>...]", "prints each change: key, tab, value; until stopped")
            ],
            options: [
                VerbOption(
                    "-p", "watches a place inside a value: -p /window/frame/0 (repeatable)", argument: "<pointer>",
                    at: [.after]),
                VerbOption("--json", "one JSON object per change: domain, key, path, change, old, new", at: [.after]),
                VerbOption("--initial", "first the current values", at: [.after]),
                VerbOption("--count", "stop after N changes", argument: "N", at: [.after]),
                VerbOption(
                    "--timeout", "stop after S seconds (status 124 if nothing changed)", argument: "S", at: [.after]),
                VerbOption(
                    "--debounce", "the quiet window before a change is reported (default 50)", argument: "MS",
                    at: [.after]),
            ],
            run: WatchCommand.watch),
        Verb(
            name: "keys", summary: "list the keys of a domain",
            usage: [
                ("keys <domain>", "lists the domain's keys, one per line")
            ], run: SchemaCommand.keys),
        Verb(
            name: "list-keys", summary: "list the keys of the domain's schema",
            usage: [
                ("list-keys <domain>", "lists the keys of the domain's schema (else its stored keys)")
            ], run: SchemaCommand.listKeys),
        Verb(
            name: "describe", summary: "print a key's description from the schema",
            usage: [
                ("describe <domain> <key>", "prints the key's description from the schema"),
                ("describe <domain>", "prints each key of the schema: what it allows, its default, its summary"),
            ], run: SchemaCommand.describe),
        Verb(
            name: "range", summary: "print the values the schema allows for a key",
            usage: [
                ("range <domain> <key>", "prints the values the schema allows: type, range or enum")
            ], run: SchemaCommand.range),
        Verb(
            name: "reset", summary: "remove keys, so reads give the schema's defaults",
            usage: [
                ("reset <domain> <key>...", "removes keys, so reads give the schema's defaults")
            ],
            options: [.force("also in a read-only file"), VerbOption("--all", "every key of the domain", at: [.key])],
            run: SchemaCommand.reset),
        Verb(
            name: "validate", summary: "list every value the schema does not allow",
            usage: [
                ("validate <domain>", "lists every value the schema does not allow (status 1)")
            ], run: SchemaCommand.validate),
        Verb(
            name: "schema", summary: "print the schema file used for a domain",
            usage: [
                ("schema path <domain>", "prints the schema file used for the domain")
            ], run: SchemaCommand.schema),
        Verb(
            name: "domains", summary: "list all domains",
            usage: [
                ("domains", "lists all domains")
            ], run: DomainsCommand.domains),
        Verb(
            name: "find", summary: "list entries containing a word",
            usage: [
                ("find <word>", "lists all entries containing word")
            ], run: FindCommand.find),
        Verb(
            name: "textconv", summary: "print any plist as sorted text, one value a line (for git diff)",
            usage: [
                ("textconv <file>", "prints each value as POINTER = JSON, in key order, whatever the file's format")
            ], run: GitCommand.textconv),
        Verb(
            name: "merge-file", summary: "merge two changed plists key by key (git's merge driver)",
            usage: [
                (
                    "merge-file <base> <ours> <theirs> [--path <name>]",
                    "writes the merge into ours, in its format; status 1 on a conflict (ours kept)"
                )
            ],
            options: [
                VerbOption("--path", "the file's name in the repository, for messages", argument: "NAME", at: [.after]),
                VerbOption(
                    "--keep-theirs", "a conflict takes theirs, status 0 (settings sync: the value already pushed)",
                    at: [.after]),
                VerbOption("--log", "append each conflict's line to FILE", argument: "FILE", at: [.after]),
            ],
            run: GitCommand.mergeFile),
        Verb(
            name: "git-setup", summary: "make git diff and merge plists with settings",
            usage: [
                ("git-setup", "in this repository: git config and .gitattributes"),
                ("git-setup --global", "in git's global config and attributes file"),
                ("git-setup --repo <dir>", "in the repository at dir"),
            ],
            options: [
                VerbOption("--global", "git's global config and attributes file", at: [.key]),
                VerbOption("--repo", "the repository at DIR", argument: "DIR", at: [.key]),
            ], run: GitCommand.gitSetup),
        Verb(
            name: "sync", summary: "carry settings between machines in a git repository",
            usage: [
                (
                    "sync init <remote> [<pattern>...]",
                    "sets this machine up to sync with remote; carries the domains matching (all)"
                ),
                ("sync", "one round: merge base, live and remote per key, push, apply to the live domains"),
                (
                    "sync --watch [--interval <s>]",
                    "a round after local changes settle, and a fetch every s seconds (60); quiet when idle"
                ),
                ("sync status", "the remote, the last round and how it ended, the domains carried, the conflicts"),
                ("sync log", "the values that lost a conflict (the one already pushed wins)"),
                ("sync carry [<pattern>...]", "carries the domains matching from now on (none: every domain)"),
                ("sync remote <url>", "syncs with another remote from now on"),
                ("sync leave", "stops syncing: removes the sync's folder; the settings stay as they are"),
            ], run: SyncCommand.sync),
        Verb(
            name: "conflicts", summary: "list or merge back file-sync conflict copies",
            usage: [
                ("conflicts [<domain>]", "lists Syncthing's and Nextcloud's conflict copies, with their domain"),
                (
                    "conflicts --resolve [<domain>]",
                    "merges each copy into its domain (yours kept where both differ), then removes it"
                ),
            ],
            options: [VerbOption("--resolve", "merge each copy into its domain, then remove it", at: [.key])],
            run: ConflictsCommand.conflicts),
        Verb(
            name: "complete", summary: "list candidates for shell completion",
            usage: [
                ("complete domains", "lists domain names, one per line (for shells)"),
                ("complete keys <domain>", "lists the domain's keys, one per line"),
                ("complete paths <domain>", "lists a JSON Pointer for every value, one per line"),
                ("complete values <domain> <key>", "lists the values the schema offers for key"),
                ("complete verbs", "lists the verbs: name, tab, summary"),
                (
                    "complete options <verb> <place>",
                    "lists a verb's options at key, value, pointer-value, element or after"
                ),
            ], run: CompleteCommand.complete),
        Verb(
            name: "completion", summary: "print the completion script for a shell",
            usage: [
                (
                    "completion bash|zsh|fish",
                    "prints the shell's completion script: eval \"$(settings completion bash)\""
                )
            ], run: CompleteCommand.script),
        Verb(
            name: "help", aliases: ["-h", "--help"], summary: "print usage, or one verb's",
            usage: [
                ("help", "print this help"),
                ("help <verb>", "print one verb's help (also: <verb> --help, <verb> -h)"),
            ], run: HelpCommand.help),
        Verb(
            name: "--version", aliases: ["version"], summary: "print the version",
            usage: [
                ("--version", "print the version")
            ], run: HelpCommand.version),
    ]

    /// The names of the options `verb` declares, for its parser: an option missing from
    /// the table is not taken.
    static func optionNames(of verb: String) -> Set<String> {
        Set(named(verb)?.options.map(\.name) ?? [])
    }

    /// Whether the verb may change a domain; messages of the others never say "leaving
    /// defaults unchanged".
    var writes: Bool { ["write", "rename", "delete", "import", "reset", "conflicts", "sync"].contains(name) }

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
        let names = all.flatMap { verb in
            ([verb.name] + verb.aliases).filter { !$0.hasPrefix("-") }.map { ($0, verb.name) }
        }
        guard let closest = Lookalike.closest(to: word, among: names.map(\.0)) else { return nil }
        return names.first { $0.0 == closest }?.1
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
    let domain = try context.domainName(domainToken)
    guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
        throw CLIError.domainMissing(domainToken.text, file: domain.file)
    }
    return values
}
