import SettingsCore

enum HelpCommand {
    static func help(_ context: inout Context, _ arguments: [Token]) throws {
        context.output.append(contentsOf: usage(program: context.program).utf8)
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
