import PlistCodecs
import PlistModel

/// The `settings write` and `delete` lines that turn one state of a domain into another,
/// typed and shell-quoted, in `defaults` syntax: a scalar with its type flag (`-bool true`,
/// `-int 3`, `-date 2024-01-02T03:04:05Z`), a collection as an XML fragment (which
/// `defaults write` also reads), and, only for what neither can say exactly (a date with a
/// fraction of a second, a non-finite real, a control character XML cannot hold, text with
/// a NUL), `--json` in the lossless JSON mapping. Pasted into a shell in order, they turn
/// the first state into the second, types included; a 32-bit real inside a collection
/// comes back as a 64-bit one, which is all XML and JSON can say of it.
///
///     ReplayCommands.lines("com.example.app", from: ["a": 1], to: ["a": 2, "b": true])
///     //=> ["settings write com.example.app a -int 2", "settings write com.example.app b -bool true"]
public enum ReplayCommands {
    /// The commands, one a line, for the domain `domain` (nil: absent) from `old` to `new`.
    /// Nothing when they are equal; a domain that goes away is one `delete`.
    public static func lines(
        _ domain: String, from old: PlistDictionary?, to new: PlistDictionary?, program: String = "settings"
    ) -> [String] {
        guard let new else { return old == nil ? [] : ["\(program) delete \(quoted(domain))"] }
        var out: [String] = []
        commands(old ?? [:], new, [], domain: quoted(domain), program: program, into: &out)
        return out
    }

    /// Per key, in byte order: a removal is a delete; a change inside two non-empty
    /// dictionaries goes deeper; any other change writes the whole new value, so no
    /// dictionary on the way has to be guessed.
    private static func commands(
        _ old: PlistDictionary, _ new: PlistDictionary, _ prefix: [String], domain: String, program: String,
        into out: inout [String]
    ) {
        new.forEachChange(from: old) { change in
            let path = prefix + [change.key]
            switch (change.old, change.new) {
            case (_, nil):
                out.append("\(program) delete \(domain) \(place(path))")
            case (.dict(let a)?, .dict(let b)?) where !a.isEmpty && !b.isEmpty:
                commands(a, b, path, domain: domain, program: program, into: &out)
            case (_, let value?):
                out.append("\(program) write \(domain) \(place(path)) \(typed(value))")
            }
        }
    }

    /// A top-level key as itself; a deeper place, or a key a parser could take for a flag
    /// or that a command line cannot carry, as a pointer (`-p`) or a JSON path.
    static func place(_ segments: [String]) -> String {
        if segments.contains(where: { $0.utf8.contains(0) }) {
            let path = PlistValue.array(segments.map(PlistValue.string))
            return "--path-json " + quoted(String(decoding: JSONWriter.encode(path), as: UTF8.self))
        }
        if segments.count == 1, let key = segments.first, !key.isEmpty, !key.hasPrefix("-") { return quoted(key) }
        return "-p " + quoted(PlistKeyPath(segments).pointer)
    }

    /// A value in `defaults` syntax where it says the value exactly, else `--json`.
    static func typed(_ value: PlistValue) -> String {
        switch value {
        case .bool(let b): return "-bool \(b)"
        case .int(let n): if let small = n.int64 { return "-int \(small)" }
        case .float(let x): if x.isFinite { return "-float \(x)" }
        case .double(let x): if x.isFinite { return "-double \(x)" }
        case .string(let text): if !text.utf8.contains(0) { return "-string " + quoted(text) }
        case .data(let bytes): return "-data " + (bytes.isEmpty ? "''" : hex(bytes))
        case .date(let date):
            if let text = RFC3339.text(date), !text.contains("."), !text.hasPrefix("0000") { return "-date \(text)" }
        case .array(let items) where items.isEmpty: return "-array"
        case .dict(let dict) where dict.isEmpty: return "-dict"
        case .array, .dict:
            if PropertyList.unstorable(key: "", value: value, format: .xml) == nil,
                !PropertyList.hasFractionalDate(value), !hasNonFinite(value)
            {
                return quoted(fragment(value))
            }
        }
        return "--json " + quoted(String(decoding: JSONWriter.encode(value), as: UTF8.self))
    }

    /// The XML of `value` without the document's prolog and closing line.
    private static func fragment(_ value: PlistValue) -> String {
        var lines = String(decoding: XMLWriter.encode(value), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        // <?xml…>, <!DOCTYPE…>, <plist…> first; </plist> and the final newline last.
        lines.removeFirst(3)
        lines.removeLast(2)
        return lines.joined(separator: "\n")
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

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// A word a POSIX shell reads back as `text`: bare when it is only safe characters,
    /// else in single quotes, a quote inside as `'\''`.
    public static func quoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-".utf8)
        if !text.isEmpty, text.utf8.allSatisfy(safe.contains) { return text }
        return "'" + text.replacingOccurrences("'", "'\\''") + "'"
    }
}

extension String {
    /// `self` with every `target` replaced (the stdlib has no Foundation-free one).
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
