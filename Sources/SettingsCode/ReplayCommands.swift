import PlistCodecs
import PlistModel
import SettingsStore

/// The `settings write` and `delete` lines that turn one state of a domain into another,
/// typed and shell-quoted, in `defaults` syntax: a scalar with its type flag (`-bool true`,
/// `-int 3`, `-date 2024-01-02T03:04:05Z`), a collection as a one-line XML fragment (which
/// `defaults write` also reads), and, only for what neither can say exactly (a date with a
/// fraction of a second, a non-finite real, text with a control character or a NUL),
/// `--exact --json` in the lossless JSON mapping. A collection holding a 32-bit real is
/// written piece by piece, so the real stays 32-bit. Pasted into a shell (`sh -e`, dash or
/// bash) in order, they turn the first state into the second, types included.
///
/// Safe to show: no raw control character (C0, DEL, C1) is ever printed, even inside
/// quotes, so a terminal shows the command that runs; JSON escapes them in values and
/// keys, and a domain word that holds one is made by `printf`. A value too big for one
/// argument (Linux refuses one over 128 KiB) goes as JSON on standard input, in a
/// here-document, so the line stays one `write`.
///
///     ReplayCommands.lines("com.example.app", from: ["a": 1], to: ["a": 2, "b": true])
///     //=> ["settings write com.example.app a -int 2", "settings write com.example.app b -bool true"]
public enum ReplayCommands {
    /// The commands, one a line (a here-document's lines with its command), for the domain
    /// a state names `domain` (`SettingsState.name(of:host:)`: a ByHost name gets
    /// `-currentHost` or `-host H`), from `old` to `new` (nil: absent). Nothing when they
    /// are equal; a domain that goes away is one `delete`.
    public static func lines(
        _ domain: String, from old: PlistDictionary?, to new: PlistDictionary?, program: String = "settings"
    ) -> [String] {
        let target = Target(domain, program: program)
        guard let new else { return old == nil ? [] : [target.command("delete")] }
        var out: [String] = []
        commands(old ?? [:], new, [], target, into: &out)
        return out
    }

    /// The words that start each command: the program, the host option a ByHost domain
    /// needs, the verb, and the domain as the command line names it.
    private struct Target {
        let program: String, host: String, domain: String

        init(_ name: String, program: String) {
            self.program = program
            switch try? SettingsState.domain(named: name) {
            case (.named(let domain), let host)?: (self.host, self.domain) = (Self.option(host), quoted(domain))
            case (.global, let host)?: (self.host, self.domain) = (Self.option(host), "NSGlobalDomain")
            case (.byHostFile(let file), _)?:
                // A ByHost file whose name splits into no domain and host: its macOS path,
                // which the command line reads as that file.
                (host, domain) = ("", quoted("~/Library/Preferences/ByHost/" + file + ".plist"))
            case (.path(let path), _)?: (host, domain) = ("", quoted(path))
            case nil: (host, domain) = ("", quoted(name))
            }
        }

        private static func option(_ host: DomainHost) -> String {
            switch host {
            case .any: ""
            case .current: "-currentHost "
            case .named(let name): "-host \(quoted(name)) "
            }
        }

        /// `PROGRAM [HOST] VERB DOMAIN` and the rest.
        func command(_ verb: String, _ rest: String = "") -> String {
            "\(program) \(host)\(verb) \(domain)" + (rest.isEmpty ? "" : " " + rest)
        }
    }

    /// Per key, in byte order: a removal is a delete; a change inside two non-empty
    /// dictionaries goes deeper; any other change writes the whole new value, so no
    /// dictionary on the way has to be guessed.
    private static func commands(
        _ old: PlistDictionary, _ new: PlistDictionary, _ prefix: [String], _ target: Target,
        into out: inout [String]
    ) {
        new.forEachChange(from: old) { change in
            let path = prefix + [change.key]
            switch (change.old, change.new) {
            case (_, nil):
                out.append(target.command("delete", place(path)))
            case (.dict(let a)?, .dict(let b)?) where LeafChange.isBranch(a) && LeafChange.isBranch(b):
                commands(a, b, path, target, into: &out)
            case (_, let value?):
                write(value, at: path, target, into: &out)
            }
        }
    }

    /// The writes that put `value` at `path`: one, or, for a collection holding a 32-bit
    /// real (which XML and JSON can only say as a 64-bit one), the empty collection and
    /// then each of its elements.
    private static func write(_ value: PlistValue, at path: [String], _ target: Target, into out: inout [String]) {
        switch value {
        case .array(let items) where hasFloat(value):
            out.append(target.command("write", place(path) + " -array"))
            for (i, item) in items.enumerated() { write(item, at: path + [String(i)], target, into: &out) }
        case .dict(let dict) where hasFloat(value):
            out.append(target.command("write", place(path) + " -dict"))
            for entry in dict.sortedEntries { write(entry.value, at: path + [entry.key], target, into: &out) }
        default:
            out.append(target.command("write", place(path) + " " + typed(value)))
        }
    }

    /// A top-level key as itself; a deeper place, or a key a parser could take for a flag,
    /// as a pointer (`-p`); one with a control character or a NUL (which neither a shell
    /// word nor a terminal carries) as an escaped JSON path (`--path-json`).
    static func place(_ segments: [String]) -> String {
        if segments.contains(where: hasControl) {
            return "--path-json " + quoted(CanonicalText.json(.array(segments.map(PlistValue.string))))
        }
        if segments.count == 1, let key = segments.first, !key.isEmpty, !key.hasPrefix("-") { return quoted(key) }
        return "-p " + quoted(PlistKeyPath(segments).pointer)
    }

    /// A value in `defaults` syntax where it says the value exactly, else `--exact --json`
    /// (integers stay integers); a value too big for one argument, on standard input.
    static func typed(_ value: PlistValue) -> String {
        let word = defaultsWord(value) ?? "--exact --json " + quoted(CanonicalText.json(value))
        guard word.utf8.count > argumentLimit else { return word }
        // One JSON line (JSON escapes every line break), which is never the delimiter.
        return "--exact --json - <<'SETTINGS_VALUE'\n" + CanonicalText.json(value) + "\nSETTINGS_VALUE"
    }

    /// The longest value word written on the command line: half of the 128 KiB Linux
    /// allows one argument (`MAX_ARG_STRLEN`), so a line is also easy to read and paste.
    static let argumentLimit = 64 * 1024

    /// The value in `defaults` syntax, or nil when that cannot say it exactly or safely.
    private static func defaultsWord(_ value: PlistValue) -> String? {
        switch value {
        case .bool(let b): return "-bool \(b)"
        case .int(let n): if let small = n.int64 { return "-int \(small)" }
        case .float(let x): if x.isFinite { return "-float \(x)" }
        case .double(let x): if x.isFinite { return "-double \(x)" }
        case .string(let text): if !hasControl(text) { return "-string " + quoted(text) }
        case .data(let bytes): return "-data " + (bytes.isEmpty ? "''" : hex(bytes))
        case .date(let date):
            if let text = RFC3339.text(date), !text.contains("."), !text.hasPrefix("0000") { return "-date \(text)" }
        case .array(let items) where items.isEmpty: return "-array"
        case .dict(let dict) where dict.isEmpty: return "-dict"
        case .array, .dict:
            if PropertyList.unstorable(key: "", value: value, format: .xml) == nil,
                !PropertyList.hasFractionalDate(value), !hasNonFinite(value), !hasControlText(value)
            {
                return quoted(fragment(value))
            }
        }
        return nil
    }

    /// The XML of `value` on one line, without the document's prolog and closing line:
    /// its layout's line breaks and tabs dropped (no text inside holds one: such text
    /// goes as JSON), so no control character reaches the terminal.
    private static func fragment(_ value: PlistValue) -> String {
        var lines = String(decoding: XMLWriter.encode(value), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        // <?xml…>, <!DOCTYPE…>, <plist…> first; </plist> and the final newline last.
        lines.removeFirst(3)
        lines.removeLast(2)
        return lines.map { $0.drop { $0 == "\t" } }.joined()
    }

    private static func hasNonFinite(_ value: PlistValue) -> Bool {
        switch value {
        case .double(let x): !x.isFinite
        case .float(let x): !x.isFinite
        case .array(let items): items.contains(where: hasNonFinite)
        case .dict(let dict): dict.entries.contains { hasNonFinite($0.value) }
        default: false
        }
    }

    /// Whether a collection holds a 32-bit real anywhere.
    private static func hasFloat(_ value: PlistValue) -> Bool {
        switch value {
        case .float: true
        case .array(let items): items.contains(where: hasFloat)
        case .dict(let dict): dict.entries.contains { hasFloat($0.value) }
        default: false
        }
    }

    /// Whether a string or a key inside holds a control character.
    private static func hasControlText(_ value: PlistValue) -> Bool {
        switch value {
        case .string(let text): hasControl(text)
        case .array(let items): items.contains(where: hasControlText)
        case .dict(let dict): dict.entries.contains { hasControl($0.key) || hasControlText($0.value) }
        default: false
        }
    }

    /// Whether `text` holds a character a terminal may act on: C0 (a line break and a
    /// tab too), DEL or C1, the ones `CanonicalText` escapes.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// A word a POSIX shell reads back as `text`: bare when it is only safe characters,
    /// else in single quotes, a quote inside as `'\''`; text with a control character
    /// (a path domain's) as `"$(printf '…')"` with each such byte in octal, so none is
    /// printed raw. (Command substitution drops trailing line breaks: a domain word ends
    /// in `.plist` or a name, never in one.)
    public static func quoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-".utf8)
        if !text.isEmpty, text.utf8.allSatisfy(safe.contains) { return text }
        guard hasControl(text) else { return "'" + text.replacingOccurrences("'", "'\\''") + "'" }
        var format = ""
        for scalar in text.unicodeScalars {
            if hasControl(String(scalar)) {
                for byte in String(scalar).utf8 { format += "\\" + String(byte, radix: 8).leftPadded(to: 3) }
            } else {
                switch scalar {
                case "'": format += "'\\''"
                case "\\": format += "\\\\"
                case "%": format += "%%"
                default: format.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"$(printf '" + format + "')\""
    }
}

extension String {
    /// `self` with every `target` replaced (the stdlib has no Foundation-free one).
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }

    /// `self` with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
