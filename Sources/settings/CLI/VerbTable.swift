/// The exit statuses most verbs share, besides 0 and 2 (see `Verb.exits`).
private let missing: (Int32, String) = (1, "no such domain or key")
private let unreadable: (Int32, String) = (3, "a file cannot be read")
private let unwritable: (Int32, String) = (4, "a file cannot be written, or is managed")
private let reads = [missing, unreadable]
private let changes = [missing, unreadable, unwritable]

extension Verb {
    /// The verb table: every verb once, in the order help lists them.
    static let all: [Verb] = [
        Verb(
            name: "read", aliases: ["get"], summary: "show all defaults, a domain, or one key",
            usage: [
                ("read", "shows all defaults"),
                ("read <domain>", "shows defaults for given domain"),
                ("read <domain> <key>", "shows defaults for given domain, key"),
                ("read <domain> -p <pointer>", "the value at an RFC 6901 pointer: -p /window/frame/0"),
            ],
            arguments: [.domain, .key],
            options: [
                .pointer, .pathJSON,
                VerbOption("--json", "prints JSON (pretty at a terminal), in the man page's mapping", at: [.after]),
                VerbOption(
                    "--source", "with a key: prints where its value comes from: managed, user, system or default",
                    at: [.after]),
                VerbOption(
                    "--with-defaults", "the domain as readers see it: managed, machine-wide and schema values applied",
                    at: [.after]),
                VerbOption(
                    "--gvariant", "with a desktop key: prints its GVariant text, as gsettings get does", at: [.after]),
            ],
            examples: [
                "read com.example.app", "read com.example.app volume",
                "read com.example.app -p /window/frame/0 --json",
            ],
            exits: reads, run: ReadCommand.read),
        Verb(
            name: "read-type", summary: "show the type of a key",
            usage: [
                ("read-type <domain> <key>", "shows the type for the given domain, key"),
                ("read-type <domain> -p <pointer>", "shows the type of the value at pointer"),
            ],
            arguments: [.domain, .key], options: [.pointer, .pathJSON],
            examples: ["read-type com.example.app volume"], exits: reads, run: ReadCommand.readType),
        Verb(
            name: "write", aliases: ["set"], summary: "write a key, or a whole domain",
            usage: [
                ("write <domain> <domain_rep>", "writes domain (overwrites existing)"),
                ("write <domain> <key> <value>", "writes key for domain (a schema types and checks it)"),
                ("write <domain> <key> --json <json>", "writes key as a JSON value"),
                ("write <domain> -p <pointer> <value>", "sets the place (dictionaries on the way are made)"),
            ],
            arguments: [.domain, .key, .value], repeatsLast: true,
            options: [
                .pointer, .pathJSON, .force("writes what the schema would refuse, or over a read-only file"),
                VerbOption(
                    "--insert", "after -p: insert before the array index instead of replacing", at: [.pointerValue]),
                VerbOption("--exact", "after -p: keep JSON integers integers where reals were", at: [.pointerValue]),
                VerbOption(
                    "--json", "the value is JSON: --json '{\"w\": 800}'; --json - reads it from standard input",
                    argument: .json, at: [.value, .pointerValue]),
            ],
            examples: [
                "write com.example.app music -bool true", "write com.example.app -p /recent/- -string doc.txt",
                "write com.example.app window --json '{\"w\": 800}'",
            ],
            exits: changes, writes: true, run: WriteCommand.write),
        Verb(
            name: "check", summary: "exit 0 if a key already has a value, type included",
            usage: [
                ("check <domain> <key> <value>", "exits 0 if key's value is what write would store, else 1"),
                ("check <domain> -p <pointer> <value>", "the same for the place at pointer"),
                ("check -v <domain> <key> <value>", "also prints equal, differs: VALUE (TYPE), or missing"),
            ],
            arguments: [.domain, .key, .value], repeatsLast: true,
            options: [
                VerbOption("-v", "also prints equal, differs: VALUE (TYPE), or missing", at: [.start]),
                .pointer, .pathJSON,
                VerbOption("--json", "the value is JSON", argument: .json, at: [.value, .pointerValue]),
            ],
            examples: [
                "check com.example.app music -bool true", "check -v com.example.app recent -array-add doc.txt",
            ],
            exits: [(1, "the value differs, or is missing"), unreadable], run: WriteCommand.check),
        Verb(
            name: "rename", summary: "rename a key",
            usage: [("rename <domain> <old_key> <new_key>", "renames old_key to new_key")],
            arguments: [.domain, .key, .text],
            options: [.force("also what the schema would refuse, or in a read-only file")],
            examples: ["rename com.example.app volume level"], exits: changes, writes: true,
            run: RenameCommand.rename),
        Verb(
            name: "delete", aliases: ["remove"], summary: "delete a key or a whole domain",
            usage: [
                ("delete <domain>", "deletes domain"),
                ("delete <domain> <key>", "deletes key in domain"),
                ("delete <domain> -p <pointer>", "deletes the value at pointer (arrays close the gap)"),
            ],
            arguments: [.domain, .key], options: [.pointer, .pathJSON, .force("also a read-only file")],
            examples: [
                "delete com.example.app volume", "delete com.example.app -p /recent/0", "delete com.example.app",
            ],
            exits: changes, writes: true, run: DeleteCommand.delete),
        Verb(
            name: "import", summary: "write a property-list file's keys into a domain",
            usage: [
                ("import <domain> <path to plist>", "writes the plist at path to domain"),
                ("import <domain> -", "writes a plist from stdin to domain"),
            ],
            arguments: [.domain, .plistFile],
            options: [
                .force("also what the schema would refuse, or over a read-only file"),
                VerbOption("--json", "the file is JSON", at: [.after]),
                VerbOption("--replace", "make the file the whole domain (keys it lacks are removed)", at: [.after]),
                VerbOption("--merge", "merge dictionaries deeply, key by key inside them", at: [.after]),
                VerbOption("--exact", "with --json: keep integers integers where reals were", at: [.after]),
            ],
            examples: ["import com.example.app backup.plist", "import com.example.app app.json --json --merge"],
            exits: changes, writes: true, run: TransferCommand.importDomain),
        Verb(
            name: "export", summary: "save a domain as a property-list file",
            usage: [
                ("export <domain> <path to plist>", "saves domain as a binary plist to path"),
                ("export <domain> -", "writes domain as an xml plist to stdout"),
            ],
            arguments: [.domain, .plistFile],
            options: [
                VerbOption("--json", "as JSON instead", at: [.after]),
                VerbOption(
                    "--with-defaults", "what readers see: managed, machine-wide and schema values applied",
                    at: [.after]),
            ],
            examples: ["export com.example.app backup.plist", "export com.example.app - --json"],
            exits: [missing, unreadable, (4, "the file or standard output cannot be written")],
            run: TransferCommand.exportDomain),
        Verb(
            name: "paths", summary: "list a JSON Pointer for every leaf value",
            usage: [("paths <domain>", "lists a JSON Pointer for every leaf value, one per line")],
            arguments: [.domain], examples: ["paths com.example.app"], exits: reads, run: PathsCommand.paths),
        Verb(
            name: "watch", summary: "print each change to a domain as it happens",
            usage: [
                ("watch <domain> [<key>...]", "prints each change: key, tab, value; until stopped"),
                ("watch <domain> --exec <command>", "runs the command after each batch, the changes on its stdin"),
            ],
            arguments: [.domain, .key], repeatsLast: true,
            options: [
                VerbOption(
                    "-p", "watches a place inside a value: -p /window/frame/0 (repeatable)", argument: .pointer,
                    at: [.key, .after], repeats: true),
                VerbOption(
                    "--json", "one JSON object per change: domain, key, path, change, old, new", at: [.key, .after]),
                VerbOption("--initial", "first the current values", at: [.key, .after]),
                VerbOption("--count", "stop after N changes", argument: .count, at: [.key, .after]),
                VerbOption(
                    "--timeout", "stop after S seconds (status 124 if nothing changed)", argument: .seconds,
                    at: [.key, .after]),
                VerbOption(
                    "--debounce", "the quiet window before a change is reported (default 50)",
                    argument: .milliseconds, at: [.key, .after]),
                VerbOption(
                    "--exec", "run the shell command after each batch, one at a time; a signal stops it too",
                    argument: .text, at: [.key, .after]),
            ],
            examples: [
                "watch com.example.app", "watch com.example.app volume --count 1 --timeout 30",
                "watch com.example.app --json",
                "watch com.example.app --exec 'systemctl --user restart example.service'",
            ],
            exits: [unreadable, (124, "--timeout passed with no change")], run: WatchCommand.watch),
        Verb(
            name: "diff", summary: "compare two domains, files or snapshots",
            usage: [
                ("diff <domain|file> <domain|file>", "prints -POINTER = OLD and +POINTER = NEW per changed leaf"),
                ("diff <snapshot>", "compares a snapshot with the domains as they are now"),
                ("diff <a> <b> --commands", "prints the settings write and delete commands that turn A into B"),
            ],
            arguments: [.side, .side],
            options: [
                VerbOption(
                    "--commands", "the replayable write and delete commands instead", at: [.start, .key, .after]),
                VerbOption("--json", "one JSON object per changed leaf", at: [.start, .key, .after]),
            ],
            examples: [
                "diff com.example.app backup.plist", "diff before.json", "diff com.example.app backup.plist --commands",
                "diff backup.plist com.example.app --commands",
            ],
            exits: [(1, "they differ"), unreadable], run: DiffCommand.diff),
        Verb(
            name: "snapshot", summary: "save domains as a state file for diff and apply",
            usage: [
                (
                    "snapshot [<domain>...] [-o <file>]",
                    "writes the domains (default: all, ByHost files too) as a JSON state file apply takes"
                )
            ],
            arguments: [.domain], repeatsLast: true,
            options: [
                VerbOption("-o", "write to the file instead of standard output", argument: .file, at: [.start, .after])
            ],
            examples: ["snapshot -o before.json", "snapshot com.example.app -o app.json"],
            exits: [unreadable, (4, "the file cannot be written")], run: DiffCommand.snapshot),
        Verb(
            name: "capture", summary: "show which settings change while you act, as commands",
            usage: [
                ("capture [<domain>...]", "records the domains (default: all); prints what changed at Ctrl-C"),
                ("capture [<domain>...] -- <command>...", "runs the command; prints what it changed"),
                ("capture [<domain>...] --state [-o <file>]", "prints the changes as a desired state for apply"),
            ],
            arguments: [.domain], repeatsLast: true,
            options: [
                VerbOption("--timeout", "stop after S seconds", argument: .seconds, at: [.start, .after]),
                VerbOption(
                    "--ignore", "also hide keys matching the pattern (repeatable)", argument: .pattern,
                    at: [.start, .after], repeats: true),
                VerbOption("--all", "hide nothing: also keys that change by themselves", at: [.start, .after]),
                VerbOption(
                    "--state", "print a desired-state file for apply instead of commands", at: [.start, .after]),
                VerbOption(
                    "-o", "write to the file instead of standard output", argument: .file, at: [.start, .after]),
                VerbOption(
                    "--", "run the command that follows, and stop when it ends", argument: .command,
                    at: [.start, .after]),
            ],
            examples: [
                "capture com.example.app", "capture --timeout 60",
                "capture com.example.app -- settings write com.example.app volume -int 3",
                "capture com.example.app --state -o app.json --timeout 60",
            ],
            exits: [unreadable, (126, "the command cannot run"), (127, "no such command")],
            run: CaptureCommand.capture),
        Verb(
            name: "apply", summary: "make domains match a desired-state file",
            usage: [
                ("apply <file>", "sets what differs; places dropped since the last apply get back what they held"),
                ("apply <file> --dry-run", "prints what would change, as diff does"),
                ("apply <file> --check", "prints the drift; exits 1 if the domains differ from the file"),
                ("apply <snapshot>", "restores a snapshot: each domain it names becomes exactly what it held"),
            ],
            arguments: [.file],
            options: [
                VerbOption("--dry-run", "print what would change; change nothing", at: [.start, .after]),
                VerbOption("--check", "exit 1 and print the drift when the domains differ", at: [.start, .after]),
                VerbOption(
                    "--as", "the record of what was set (default: the file's name, no extension)", argument: .text,
                    at: [.start, .after]),
            ],
            examples: ["apply editor.json --dry-run", "apply editor.json", "apply editor.json --check"],
            fileForm: [
                #"{"com.example.editor": {"#,
                #"  "tabs": 4, "ratio": 1.5, "when": {"$date": "2024-01-02T03:04:05Z"},"#,
                #"  "/window/width": 800,      a /pointer into a value (dictionaries made)"#,
                #"  "lastSeen": null},         null: the key must be absent"#,
                #" "com.example.old": {},      named, empty: what an apply set there is given back"#,
                #" "com.example.gone": null}   the domain must be absent"#,
            ],
            exits: [(1, "with --check: the domains differ from the file"), unreadable, unwritable], writes: true,
            run: ApplyCommand.apply),
        Verb(
            name: "history", summary: "list the changes made to a domain, with who made them",
            usage: [
                ("history <domain> [<key>]", "prints each change: time, writer, then -KEY = OLD and +KEY = NEW"),
                ("history <domain> --json", "one JSON object per change: time, date, writer, pid, changes"),
            ],
            arguments: [.domain, .key],
            options: [
                VerbOption("--json", "one JSON object per change", at: [.key, .after]),
                VerbOption(
                    "--since", "only changes since then: 30m, 2h, 7d or a date", argument: .text, at: [.key, .after]),
            ],
            examples: ["history com.example.app", "history com.example.app volume --since 1d"],
            exits: [unreadable], run: HistoryCommand.history),
        Verb(
            name: "undo", summary: "take back a domain's last changes, as a new change",
            usage: [
                ("undo <domain>", "restores what the last change replaced, key by key; again goes further back"),
                ("undo <domain> --steps <n>", "takes back the last N changes"),
                ("undo <domain> --to <time>", "takes back every change since then: 30m, 2h or a date"),
            ],
            arguments: [.domain],
            options: [
                VerbOption("--steps", "take back the last N changes", argument: .count, at: [.key, .after]),
                VerbOption("--to", "take back every change since then", argument: .text, at: [.key, .after]),
            ],
            examples: ["undo com.example.app", "undo com.example.app --to 1h"],
            exits: [(1, "nothing to undo"), unreadable, unwritable], writes: true, run: HistoryCommand.undo),
        Verb(
            name: "redo", summary: "make again what the last undo took back",
            usage: [("redo <domain>", "takes back the newest undo, until a new change is made")],
            arguments: [.domain], options: [],
            examples: ["redo com.example.app"],
            exits: [(1, "nothing to redo"), unreadable, unwritable], writes: true, run: HistoryCommand.redo),
        Verb(
            name: "edit", summary: "edit a domain in $VISUAL or $EDITOR, checked before it is saved",
            usage: [
                ("edit <domain>", "opens the domain as typed JSON; saves only what you change, checked"),
                ("edit <domain> --format xml", "as an XML property list instead"),
            ],
            arguments: [.domain],
            options: [VerbOption("--format", "json (the default) or xml", argument: .format, at: [.key, .after])],
            examples: [
                "edit com.example.app", "EDITOR=nano edit com.example.app", "edit com.example.app --format xml",
            ],
            exits: [(1, "the edit was abandoned: nothing changed"), unreadable, unwritable], writes: true,
            run: EditCommand.edit),
        Verb(
            name: "keys", summary: "list the keys of a domain",
            usage: [("keys <domain>", "lists the domain's keys, one per line")],
            arguments: [.domain], examples: ["keys com.example.app"], exits: reads, run: SchemaCommand.keys),
        Verb(
            name: "list-keys", summary: "list the keys of the domain's schema",
            usage: [("list-keys <domain>", "lists the keys of the domain's schema (else its stored keys)")],
            arguments: [.domain], examples: ["list-keys com.example.player"], exits: reads,
            run: SchemaCommand.listKeys),
        Verb(
            name: "describe", summary: "print a key's description from the schema",
            usage: [
                ("describe <domain> <key>", "prints the key's description from the schema"),
                ("describe <domain>", "prints each key of the schema: what it allows, its default, its summary"),
            ],
            arguments: [.domain, .key], examples: ["describe com.example.player volume"],
            exits: [(1, "no schema, or no such key in it"), unreadable], run: SchemaCommand.describe),
        Verb(
            name: "range", summary: "print the values the schema allows for a key",
            usage: [("range <domain> <key>", "prints the values the schema allows: type, range or enum")],
            arguments: [.domain, .key], examples: ["range com.example.player volume"],
            exits: [(1, "no schema, or no such key in it"), unreadable], run: SchemaCommand.range),
        Verb(
            name: "reset", summary: "remove keys, so reads give the schema's defaults",
            usage: [("reset <domain> <key>...", "removes keys, so reads give the schema's defaults")],
            arguments: [.domain, .key], repeatsLast: true,
            options: [.force("also in a read-only file"), VerbOption("--all", "every key of the domain", at: [.key])],
            examples: ["reset com.example.player volume", "reset com.example.player --all"],
            exits: changes, writes: true, run: SchemaCommand.reset),
        Verb(
            name: "validate", summary: "list every value the schema does not allow",
            usage: [("validate <domain>", "lists every value the schema does not allow (status 1)")],
            arguments: [.domain], examples: ["validate com.example.player"],
            exits: [(1, "a value the schema does not allow, or no schema"), unreadable],
            run: SchemaCommand.validate),
        Verb(
            name: "schema", summary: "print the schema file used for a domain",
            usage: [("schema path <domain>", "prints the schema file used for the domain")],
            subverbs: [.sub("path", "the schema file used for the domain", [.domain])],
            examples: ["schema path com.example.player"], exits: [(1, "no schema for the domain")],
            run: SchemaCommand.schema),
        Verb(
            name: "domains", summary: "list all domains", usage: [("domains", "lists all domains")],
            examples: ["domains"], exits: [unreadable], run: DomainsCommand.domains),
        Verb(
            name: "find", summary: "list entries containing a word",
            usage: [("find <word>", "lists all entries containing word")],
            arguments: [.text], examples: ["find dock"], exits: [unreadable], run: FindCommand.find),
        Verb(
            name: "textconv", summary: "print any plist as sorted text, one value a line (for git diff)",
            usage: [
                ("textconv <file>", "prints each value as POINTER = JSON, in key order, whatever the file's format")
            ],
            arguments: [.file],
            examples: ["textconv ~/.config/com.example.app.plist", "textconv App/Info.plist | grep Version"],
            exits: [(1, "no such file"), unreadable], run: GitCommand.textconv),
        Verb(
            name: "merge-file", summary: "merge two changed plists key by key (git's merge driver)",
            usage: [
                (
                    "merge-file <base> <ours> <theirs> [--path <name>]",
                    "writes the merge into ours, in its format; status 1 on a conflict (ours kept)"
                )
            ],
            arguments: [.file, .file, .file],
            options: [
                VerbOption(
                    "--path", "the file's name in the repository, for messages", argument: .text,
                    at: [.start, .key, .after]),
                VerbOption(
                    "--keep-theirs", "a conflict takes theirs, status 0 (settings sync: the value already pushed)",
                    at: [.start, .key, .after]),
                VerbOption(
                    "--log", "append each conflict's line to FILE", argument: .file, at: [.start, .key, .after]),
            ],
            examples: ["merge-file base.plist ours.plist theirs.plist --path app.plist   # as git runs it"],
            exits: [(1, "a conflict: ours is kept"), unreadable, unwritable], run: GitCommand.mergeFile),
        Verb(
            name: "git-setup", summary: "make git diff and merge plists with settings",
            usage: [
                ("git-setup", "in this repository: git config and .gitattributes"),
                ("git-setup --global", "in git's global config and attributes file"),
                ("git-setup --repo <dir>", "in the repository at dir"),
            ],
            options: [
                VerbOption("--global", "git's global config and attributes file", at: [.start]),
                VerbOption("--repo", "the repository at DIR", argument: .directory, at: [.start]),
            ],
            examples: [
                "git-setup --global           # every repository: *.plist diffed and merged by key",
                "git-setup --repo ~/dotfiles  # one repository, in its .gitattributes",
            ],
            exits: [(4, "git failed or could not be run, or a file cannot be written")], run: GitCommand.gitSetup),
        Verb(
            name: "create", summary: "make a plist file holding an empty dictionary",
            usage: [
                ("create <file> [--binary]", "an empty dictionary, XML (or binary); a file that is there is left alone")
            ],
            arguments: [.file],
            options: [VerbOption("--binary", "a binary property list", at: [.after])],
            examples: ["create App/Settings.plist", "create cache.plist --binary"],
            exits: [(1, "the file is there already"), unwritable], writes: true, run: FileCommand.create),
        Verb(
            name: "lint", summary: "check that files are property lists (for pre-commit hooks)",
            usage: [("lint <file>... [-v]", "one line per bad file, with its line where the format has lines")],
            arguments: [.file], repeatsLast: true,
            options: [VerbOption("-v", "also say FILE: OK of each good file", at: [.after])],
            examples: ["lint App/Info.plist Resources/*.plist", "lint -v Settings.bundle/Root.plist"],
            exits: [(1, "a file is not a property list, or cannot be read")], run: FileCommand.lint),
        Verb(
            name: "plutil", summary: "Apple's plutil: lint, print, convert and edit plist files",
            usage: [
                (
                    "plutil [-lint] [-s] <file>...",
                    "checks each file; plutil by that name (a link) takes the same words"
                ),
                ("plutil -p <file>...", "prints each file for people"),
                ("plutil -convert <fmt> [-o <path>|-e <ext>] [-r] <file>...", "xml1 binary1 json swift objc"),
                ("plutil -insert|-replace <keypath> -<type> <value> [-append] <file>...", "puts a value"),
                ("plutil -remove <keypath> <file>...", "removes a value"),
                ("plutil -extract <keypath> <fmt> [-expect <type>] [-o <path>] <file>...", "a value as fmt or raw"),
                ("plutil -type <keypath> <file>...", "prints the type of a value"),
                ("plutil -create <fmt> <file>...", "writes an empty dictionary"),
            ],
            arguments: [.file], repeatsLast: true,
            options: [
                VerbOption("-lint", "check that each file is a property list (the default)", at: [.start]),
                VerbOption("-p", "print each file for people", at: [.start]),
                VerbOption("-convert", "write each file in this format", argument: .plistFormat, at: [.start]),
                VerbOption(
                    "-insert", "add the value at the key path (next: -TYPE VALUE)", argument: .text, at: [.start]),
                VerbOption("-replace", "set the value at the key path", argument: .text, at: [.start]),
                VerbOption("-remove", "remove the value at the key path", argument: .text, at: [.start]),
                VerbOption("-extract", "write the value at the key path (next: FMT)", argument: .text, at: [.start]),
                VerbOption("-type", "print the type of the value at the key path", argument: .text, at: [.start]),
                VerbOption("-create", "write an empty dictionary in this format", argument: .plistFormat, at: [.start]),
                VerbOption("-help", "plutil's own usage", at: [.start]),
                VerbOption("-s", "print nothing on success", at: [.after]),
                VerbOption("-o", "write the result here (- for standard output)", argument: .file, at: [.after]),
                VerbOption("-e", "write the result beside the file with this extension", argument: .text, at: [.after]),
                VerbOption("-r", "indent JSON, keys sorted", at: [.after]),
                VerbOption("-n", "no newline after raw and -type output", at: [.after]),
            ],
            examples: [
                "plutil -lint App/Info.plist", "plutil -replace CFBundleVersion -string 42 App/Info.plist",
                "plutil -extract CFBundleShortVersionString raw App/Info.plist",
                "plutil -convert json -r -o - App/Info.plist",
            ],
            exits: [(1, "a file could not be read, changed or written: its line says which")], writes: true,
            run: { _, _ in }),
        Verb(
            name: "plistbuddy", summary: "Apple's PlistBuddy: edit one plist with commands",
            usage: [
                (
                    "plistbuddy -c <command> [-c <command>...] [-x] <file>",
                    "runs the commands, then saves every change at once"
                ),
                ("plistbuddy <file>", "reads commands from standard input (a prompt at a terminal); Save writes"),
            ],
            arguments: [.file],
            options: [
                VerbOption(
                    "-c", "a command: Print, Set, Add, Delete, Copy, Merge, Import, Clear, Save, Revert, Exit",
                    argument: .text, at: [.start], repeats: true),
                VerbOption("-x", "Print writes an XML property list", at: [.start]),
                VerbOption("-l", "refuse a file reached through a symbolic link", at: [.start]),
            ],
            examples: [
                "plistbuddy -c 'Set :CFBundleVersion 42' App/Info.plist",
                "plistbuddy -c 'Add :CFBundleURLTypes:0:CFBundleURLSchemes: string myapp' App/Info.plist",
                "plistbuddy -c 'Print :CFBundleShortVersionString' App/Info.plist",
            ],
            exits: [
                (
                    1,
                    "a command failed, its line says why and the others still ran; or the file cannot be read or written"
                )
            ],
            writes: true, run: { _, _ in }),
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
                ("sync log", "the values that lost a conflict (the one already pushed wins), the newest 1 MiB"),
                ("sync carry [<pattern>...]", "carries the domains matching from now on (none: every plist domain)"),
                ("sync remote <url>", "syncs with url from now on; a new URL of the same repository keeps the base"),
                ("sync leave", "stops syncing: removes the sync's folder; the settings stay as they are"),
            ],
            options: [
                VerbOption("--watch", "rounds until stopped: after local changes, and every S seconds", at: [.start]),
                VerbOption(
                    "--interval", "with --watch: fetch every S seconds (default 60)", argument: .seconds,
                    at: [.start]),
            ],
            subverbs: [
                .sub("init", "set this machine up to sync with a remote", [.url, .pattern], repeatsLast: true),
                .sub("status", "the remote, the last round, the domains carried, the conflicts"),
                .sub("log", "the values that lost a conflict"),
                .sub("carry", "carry the domains matching from now on", [.pattern], repeatsLast: true),
                .sub("remote", "sync with another remote from now on", [.url]),
                .sub("leave", "stop syncing; the settings stay as they are"),
            ],
            examples: [
                "sync init git@example.com:me/settings.git 'com.example.*'",
                "sync carry 'com.example.*' 'gsettings:org.gnome.desktop.*'   # desktop keys too",
                "sync          # one round; run it from a timer, or after a change",
                "sync log      # what lost a conflict",
            ],
            exits: [
                (1, "this machine does not sync yet, or already does"), unreadable,
                (4, "git, the remote or the disk failed; the live settings are as they were"),
            ], writes: true,
            run: SyncCommand.sync),
        Verb(
            name: "conflicts", summary: "list or merge back file-sync conflict copies",
            usage: [
                ("conflicts [<domain>]", "lists Syncthing's and Nextcloud's conflict copies, with their domain"),
                (
                    "conflicts --resolve [<domain>]",
                    "merges each copy into its domain (yours kept where both differ), then removes it"
                ),
            ],
            arguments: [.domain],
            options: [VerbOption("--resolve", "merge each copy into its domain, then remove it", at: [.start])],
            examples: ["conflicts", "conflicts --resolve com.example.player"],
            exits: [unreadable, unwritable], writes: true, run: ConflictsCommand.conflicts),
        Verb(
            name: "complete", summary: "list candidates for shell completion",
            usage: [
                ("complete line <word>...", "what may stand for the last word of a command line, with directions"),
                ("complete domains", "lists domain names, one per line (for shells)"),
                ("complete keys <domain>", "lists the domain's keys, one per line"),
                ("complete paths <domain>", "lists a JSON Pointer for every value, one per line"),
                ("complete values <domain> <key>", "lists the values the schema offers for key"),
                ("complete verbs", "lists the verbs: name, tab, summary"),
                (
                    "complete options <verb> <place>",
                    "lists a verb's options at start, key, value, pointer-value, element or after"
                ),
            ],
            subverbs: [
                .sub("line", "candidates for the last word of a command line", [.word], repeatsLast: true),
                .sub("domains", "domain names"),
                .sub("keys", "the domain's keys", [.domain]),
                .sub("paths", "a JSON Pointer for every value", [.domain]),
                .sub("values", "the values the schema offers for key", [.domain, .key]),
                .sub("verbs", "the verbs and their summaries"),
                .sub("options", "a verb's options at a place", [.verb, .place]),
            ],
            examples: ["complete keys com.example.app", "complete line read com.example.app ''"],
            run: CompleteCommand.complete),
        Verb(
            name: "completion", summary: "print the completion script for a shell",
            usage: [
                (
                    "completion bash|zsh|fish",
                    "prints the shell's completion script: eval \"$(settings completion bash)\""
                )
            ],
            arguments: [.shell],
            examples: [
                "completion bash      # in ~/.bashrc: eval \"$(settings completion bash)\"",
                "completion zsh       # in ~/.zshrc, after compinit: eval \"$(settings completion zsh)\"",
                "completion fish      # in config.fish: settings completion fish | source",
            ],
            run: CompleteCommand.script),
        Verb(
            name: "help", aliases: ["-h", "--help"], summary: "print usage, or one verb's",
            usage: [
                ("help", "print this help"),
                ("help <verb>", "print one verb's help (also: <verb> --help, <verb> -h)"),
                ("help --man", "print the manual page, for man -l - (a source build installs none)"),
            ],
            arguments: [.verb],
            options: [
                VerbOption("--man", "the manual page, in man(7) source: settings help --man | man -l -", at: [.start])
            ],
            examples: ["help write", "write --help", "help --man | man -l -"],
            run: HelpCommand.help),
        Verb(
            name: "version", aliases: ["--version"], summary: "print the version",
            usage: [("version", "print the version (also: --version)")],
            examples: ["version"], run: HelpCommand.version),
    ]
}
