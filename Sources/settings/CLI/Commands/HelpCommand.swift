import PlistModel
import PlistCodecs
import SettingsStore

enum HelpCommand {
    /// `help`: the whole usage; `help VERB` (also `VERB --help`, `VERB -h`): that verb's;
    /// `help --man`: the manual page's source, for a build that installed none.
    static func help(_ context: inout Context, _ arguments: [Token]) throws {
        try expectAtMost(1, arguments)
        guard let word = arguments.first?.text else {
            context.output.append(contentsOf: usage(program: context.program).utf8)
            return
        }
        if word == "--man" {
            context.output.append(contentsOf: ManPage.source.utf8)
            return
        }
        guard let verb = Verb.named(word) else { throw Verb.unknown(word) }
        context.output.append(contentsOf: verbHelp(verb, program: context.program).utf8)
    }

    /// One verb, all from its row of the verb table: its synopsis, sub-verbs, options (and
    /// for the verbs that take a value, the type table's flags), other names, examples and
    /// exit statuses.
    static func verbHelp(_ verb: Verb, program: String) -> String {
        var lines = ["usage:"]
        for (syntax, description) in verb.usage {
            lines.append("  " + "\(program) \(syntax)".padding(44) + description)
        }
        if !verb.subverbs.isEmpty {
            lines += ["", "commands:"] + verb.subverbs.map { "  " + $0.name.padding(22) + $0.summary }
        }
        if !verb.options.isEmpty {
            lines += ["", "options:"] + verb.options.map { "  " + $0.synopsis.padding(22) + $0.summary }
        }
        if !verb.fileForm.isEmpty { lines += ["", "the file:"] + verb.fileForm.map { "  " + $0 } }
        if verb.arguments.contains(.value) {
            lines += ["", "value types (see '\(program) help' for <value>):"]
            lines += CompleteCommand.typeFlags(at: .value).map { "  " + $0.0.padding(22) + $0.1 }
        }
        let aliases = verb.aliases.filter { !$0.hasPrefix("-") }
        if !aliases.isEmpty { lines += ["", "also: " + aliases.joined(separator: ", ")] }
        if !verb.examples.isEmpty {
            lines += ["", "examples:"] + verb.examples.map { "  " + exampleLine($0, program: program) }
        }
        let exits = [(Int32(0), "done")] + verb.exits + [(2, "bad usage or value")]
        lines += ["", "exit status:"] + exits.sorted { $0.0 < $1.0 }.map { "  " + "\($0.0)".padding(5) + $0.1 }
        lines += ["", "See \(program)(1) for everything."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// An example as a person types it: the program's name after the words that set the
    /// environment (`EDITOR=nano settings edit D`, not `settings EDITOR=nano edit D`).
    static func exampleLine(_ example: String, program: String) -> String {
        var words = example.split(separator: " ", omittingEmptySubsequences: false)[...]
        var assignments: [Substring] = []
        while let word = words.first, let equals = word.firstIndex(of: "="),
            word[..<equals].allSatisfy({ $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }),
            word.first?.isNumber == false, equals != word.startIndex
        {
            assignments.append(word)
            words = words.dropFirst()
        }
        return (assignments + [Substring(program)] + words).joined(separator: " ")
    }

    /// What a bare command prints: every verb and alias, grouped by what a person wants to do.
    static func shortUsage(program: String) -> String {
        var lines = ["usage: \(program) [-currentHost | -host <name>] <verb> <domain> ...", ""]
        for (title, names) in groups {
            let words = names.map { name -> String in
                let aliases = Verb.named(name)?.aliases.filter { !$0.hasPrefix("-") } ?? []
                return aliases.isEmpty ? name : "\(name) (\(aliases.joined(separator: ", ")))"
            }
            lines.append(title.padding(16) + words.joined(separator: ", "))
        }
        lines += [
            "",
            "'\(program) help <verb>' shows one verb; '\(program) help' all of them; "
                + "'\(program) help --man | man -l -' the manual.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The verbs grouped by task, for the bare usage; a test checks it names every verb once.
    static let groups: [(String, [String])] = [
        ("read", ["read", "read-type", "check", "keys", "find", "domains"]),
        ("write", ["write", "delete", "rename"]),
        ("files and JSON", ["import", "export", "paths"]),
        ("watch", ["watch"]),
        ("settings as code", ["diff", "snapshot", "capture", "apply", "history", "undo", "redo", "edit"]),
        ("schemas", ["list-keys", "describe", "range", "reset", "validate", "schema"]),
        ("git and sync", ["textconv", "merge-file", "git-setup", "sync", "conflicts"]),
        ("plist files", ["create", "lint", "plutil", "plistbuddy"]),
        ("shell", ["completion", "complete", "help", "version"]),
    ]

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
