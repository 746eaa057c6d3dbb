import PlistModel
import PlistCodecs
import SettingsStore

enum HelpCommand {
    /// `help`: the whole usage; `help VERB` (also `VERB --help`, `VERB -h`): that verb's.
    static func help(_ context: inout Context, _ arguments: [Token]) throws {
        try expectAtMost(1, arguments)
        guard let word = arguments.first?.text else {
            context.output.append(contentsOf: usage(program: context.program).utf8)
            return
        }
        guard let verb = Verb.named(word) else {
            let guess = Verb.suggestion(for: word).map { "; did you mean \($0)?" } ?? ""
            throw CLIError.usage("unknown verb '\(word)'\(guess)")
        }
        context.output.append(contentsOf: verbHelp(verb, program: context.program).utf8)
    }

    /// One verb: its synopsis and options (the verb table's), its other names, and two or
    /// three examples.
    static func verbHelp(_ verb: Verb, program: String) -> String {
        var lines = ["usage:"]
        for (syntax, description) in verb.usage {
            let shown = syntax.hasPrefix(" ") ? syntax : "\(program) " + syntax
            lines.append("  " + shown.padding(44) + description)
        }
        if !verb.options.isEmpty {
            lines += ["", "options:"] + verb.options.map { "  " + $0.synopsis.padding(22) + $0.summary }
        }
        let aliases = verb.aliases.filter { !$0.hasPrefix("-") }
        if !aliases.isEmpty { lines += ["", "also: " + aliases.joined(separator: ", ")] }
        if let examples = examples[verb.name], !examples.isEmpty {
            lines += ["", "examples:"] + examples.map { "  \(program) " + $0 }
        }
        lines += ["", "See \(program)(1) for everything."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two or three examples a verb, as a person would type them.
    static let examples: [String: [String]] = [
        "read": [
            "read com.example.app", "read com.example.app volume", "read com.example.app -p /window/frame/0 --json",
        ],
        "read-type": ["read-type com.example.app volume"],
        "check": [
            "check com.example.app music -bool true",
            "check -v com.example.app recent -array-add doc.txt",
        ],
        "write": [
            "write com.example.app music -bool true", "write com.example.app -p /recent/- -string doc.txt",
            "write com.example.app window --json '{\"w\": 800}'",
        ],
        "rename": ["rename com.example.app volume level"],
        "delete": ["delete com.example.app volume", "delete com.example.app -p /recent/0", "delete com.example.app"],
        "import": ["import com.example.app backup.plist", "import com.example.app app.json --json --merge"],
        "export": ["export com.example.app backup.plist", "export com.example.app - --json"],
        "paths": ["paths com.example.app"],
        "watch": [
            "watch com.example.app", "watch com.example.app volume --count 1 --timeout 30",
            "watch com.example.app --json",
        ],
        "keys": ["keys com.example.app"],
        "list-keys": ["list-keys com.example.player"],
        "describe": ["describe com.example.player volume"],
        "range": ["range com.example.player volume"],
        "reset": ["reset com.example.player volume", "reset com.example.player --all"],
        "validate": ["validate com.example.player"],
        "schema": ["schema path com.example.player"],
        "domains": ["domains"],
        "find": ["find dock"],
        "sync": [
            "sync init git@example.com:me/settings.git 'com.example.*'",
            "sync          # one round; run it from a timer, or after a change",
            "sync log      # what lost a conflict",
        ],
        "conflicts": ["conflicts", "conflicts --resolve com.example.player"],
        "textconv": ["textconv ~/.config/com.example.app.plist", "textconv App/Info.plist | grep Version"],
        "merge-file": ["merge-file base.plist ours.plist theirs.plist --path app.plist   # as git runs it"],
        "git-setup": [
            "git-setup --global           # every repository: *.plist diffed and merged by key",
            "git-setup --repo ~/dotfiles  # one repository, in its .gitattributes",
        ],
        "complete": ["complete keys com.example.app"],
        "help": ["help write", "write --help"],
        "completion": [
            "completion bash      # in ~/.bashrc: eval \"$(settings completion bash)\"",
            "completion zsh       # in ~/.zshrc: eval \"$(settings completion zsh)\"",
            "completion fish      # in config.fish: settings completion fish | source",
        ],
    ]

    /// What a bare command prints: the verbs grouped by what a person wants to do.
    static func shortUsage(program: String) -> String {
        let groups: [(String, [String])] = [
            ("read", ["read", "read-type", "check", "keys", "find", "domains"]),
            ("write", ["write", "delete", "rename"]),
            ("files and JSON", ["import", "export", "paths"]),
            ("watch", ["watch"]),
            ("schemas", ["list-keys", "describe", "range", "reset", "validate", "schema"]),
            ("shell", ["completion", "complete", "help"]),
        ]
        var lines = ["usage: \(program) [-currentHost | -host <name>] <verb> <domain> ...", ""]
        for (title, names) in groups {
            lines.append(title.padding(16) + names.joined(separator: ", "))
        }
        lines += [
            "", "'\(program) help <verb>' shows one verb; '\(program) help' all of them; man \(program) the rest.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func version(_ context: inout Context, _ arguments: [Token]) throws {
        context.print("\(context.program) \(CLI.version)")
    }

    /// The usage text, in the layout of defaults' own, built from the verb and type tables.
    static func usage(program: String) -> String {
        var lines = [
            "Command line interface to a user's defaults.",
            "Syntax:",
            "",
            "'\(program)' [-currentHost | -host <hostname>] followed by one of the following:",
            "",
        ]
        for verb in Verb.all {
            for (syntax, description) in verb.usage {
                lines.append("  " + syntax.padding(37) + description)
            }
            for option in verb.options {
                lines.append("    " + option.synopsis.padding(35) + option.summary)
            }
            lines.append("")
        }
        lines += [
            "<domain> is ( <domain_name> | -g | -globalDomain | NSGlobalDomain )",
            "         or a path to a file (any domain with a '/': /abs, ~/home or ./relative),",
            "         with or without '.plist';",
            "         an existing domain is found in any case, and ~/Library/Preferences/<name>",
            "         is the domain <name>",
            "",
            "<value> is one of:",
            "  <value_rep>",
        ]
        for row in TypeTable.rows {
            let flags = row.flags.joined(separator: " | ")
            switch row.type {
            case .array: lines.append("  \(flags) <value1> <value2> ...")
            case .dict: lines.append("  \(flags) <key1> <value1> <key2> <value2> ...")
            default: lines.append("  " + flags.padding(18) + "<" + row.expected + ">")
            }
            if let add = row.addFlag {
                lines.append(row.type == .array ? "  \(add) <value1> <value2> ..." : "  \(add) <key1> <value1> ...")
            }
        }
        lines += [
            "",
            "<value_rep> is text, stored as a string (\\Uxxxx is that character), or a property-list",
            "            literal: OpenStep '(a, b)', '{key = value;}', '<0a0b>', '\"quoted\"', or XML",
            "            '<integer>5</integer>'. Any word that is not a type flag is a value, even",
            "            one that starts with '-'; one that resembles a flag gets a warning.",
            "",
            "Files: $XDG_CONFIG_HOME/<domain>.plist (default ~/.config); see \(program)(1).",
            "Exit status: 0 ok, 1 no such domain or key, 2 bad usage or value, 3 unreadable file, 4 write failed.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Pads with spaces to `width` columns, keeping at least one space.
    func padding(_ width: Int) -> String {
        count < width ? self + String(repeating: " ", count: width - count) : self + " "
    }
}
