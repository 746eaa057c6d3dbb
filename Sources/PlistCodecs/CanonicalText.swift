import PlistModel

/// A property list as text a line-based tool can diff: one line per leaf, `POINTER = JSON`,
/// in key order, whatever the file's format. A leaf is a value that is not a non-empty
/// dictionary (an array is one value, as the merge driver takes it); the pointer is the
/// RFC 6901 pointer with a backslash and control characters (C0, DEL and C1, which a
/// terminal may take as a line break or the start of a command) escaped as JSON escapes
/// them, so every line is one line; the value is compact JSON in the man page's mapping,
/// its dictionaries in key order, with the same controls escaped (`\u0085`, which JSON
/// allows and reads back as the same text). The same settings in XML, binary or OpenStep give the same
/// text, and a one-key change is a one-line diff.
///
///     String(decoding: CanonicalText.lines(.dict(["b": 1, "a": ["x": true]])), as: UTF8.self)
///     //=> "/a/x = true\n/b = 1\n"
package enum CanonicalText {
    package static func lines(_ root: PlistValue) -> [UInt8] {
        var out: [UInt8] = []
        write(root, path: [], into: &out)
        return out
    }

    private static func write(_ value: PlistValue, path: [String], into out: inout [UInt8]) {
        if case .dict(let dict) = value, !dict.isEmpty {
            for entry in dict.sortedEntries { write(entry.value, path: path + [entry.key], into: &out) }
            return
        }
        out += line(PlistKeyPath(path), value)
    }

    /// One leaf's line, `POINTER = JSON` and a newline: what `diff` prints after `-` or `+`.
    package static func line(_ path: PlistKeyPath, _ value: PlistValue) -> [UInt8] {
        var out: [UInt8] = []
        appendLine(path, value, to: &out)
        return out
    }

    /// `line(path, value)` appended to `out`, after `sign` (`-` or `+`) when given: a diff
    /// of thousands of leaves is not thousands of arrays joined.
    package static func appendLine(_ path: PlistKeyPath, _ value: PlistValue, sign: UInt8? = nil, to out: inout [UInt8])
    {
        if let sign { out.append(sign) }
        appendEscaped(path.pointer, to: &out)
        out += " = ".utf8
        let start = out.count
        JSONWriter.append(sorted(value), to: &out)
        escapeMoreControls(inJSON: &out, from: start)
        out.append(UInt8(ascii: "\n"))
    }

    /// `text` with a backslash and control characters (C0, DEL, C1) escaped as JSON escapes
    /// them (`\u000a`, `\u009b`), so it stays on one line of a terminal or a log and
    /// cannot start a terminal's command (a key in a message).
    package static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        appendEscaped(text, to: &out)
        return out
    }

    /// `escaped(text)` appended to `out`.
    package static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        appendEscaped(text, backslash: true, to: &out)
    }

    /// `escaped(text)` as text: a key or a pointer in a message or a log line.
    package static func escapedLine(_ text: String) -> String { String(decoding: escaped(text), as: UTF8.self) }

    /// `text` with its control characters (C0, DEL, C1) escaped as `escaped` escapes them,
    /// and its backslashes left as they are: a whole message, whose keys `escapedLine`
    /// already escaped, made safe to print (a domain name or a line an older version
    /// logged raw), escaping nothing twice.
    package static func controlsEscaped(_ text: String) -> String {
        var out: [UInt8] = []
        appendEscaped(text, backslash: false, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// C1 controls are U+0080 to U+009F: in UTF-8, 0xC2 and then 0x80 to 0x9F.
    private static func appendEscaped(_ text: String, backslash: Bool, to out: inout [UInt8]) {
        var lead = false
        for byte in text.utf8 {
            if lead {
                lead = false
                if (0x80...0x9F).contains(byte) {
                    appendUnicodeEscape(byte, to: &out)
                    continue
                }
                out.append(0xC2)
            }
            switch byte {
            case UInt8(ascii: "\\") where backslash: out += Array("\\\\".utf8)
            case 0..<0x20, 0x7f: appendUnicodeEscape(byte, to: &out)
            case 0xC2: lead = true
            default: out.append(byte)
            }
        }
        if lead { out.append(0xC2) }
    }

    /// `\u00XX` of a control character below U+0100.
    private static func appendUnicodeEscape(_ value: UInt8, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [hex[Int(value >> 4)], hex[Int(value & 0xf)]]
    }

    /// JSON that `JSONWriter` wrote into `out` from `start` on, with DEL and the C1
    /// controls inside its strings escaped too (JSON escapes only C0; outside strings there
    /// is no such byte): what a message or a canonical line shows.
    private static func escapeMoreControls(inJSON out: inout [UInt8], from start: Int) {
        guard out[start...].contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return }
        let json = Array(out[start...])
        out.removeSubrange(start...)
        var i = 0
        while i < json.count {
            let byte = json[i]
            if byte == 0x7F {
                appendUnicodeEscape(byte, to: &out)
            } else if byte == 0xC2, i + 1 < json.count, (0x80...0x9F).contains(json[i + 1]) {
                appendUnicodeEscape(json[i + 1], to: &out)
                i += 1
            } else {
                out.append(byte)
            }
            i += 1
        }
    }

    /// A value as one line of compact JSON, in the JSON mapping, for messages: its control
    /// characters escaped, DEL and C1 too.
    package static func json(_ value: PlistValue) -> String {
        var out: [UInt8] = []
        JSONWriter.append(value, to: &out)
        escapeMoreControls(inJSON: &out, from: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` with every dictionary inside in key order, so JSON of it is canonical.
    private static func sorted(_ value: PlistValue) -> PlistValue {
        switch value {
        case .dict(let dict):
            return .dict(
                PlistDictionary(entries: dict.sortedEntries.map { .init(key: $0.key, value: sorted($0.value)) }))
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }
}
