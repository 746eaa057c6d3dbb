import PlistModel

/// A property list as text a line-based tool can diff: one line per leaf, `POINTER = JSON`,
/// in key order, whatever the file's format. A leaf is a value that is not a non-empty
/// dictionary (an array is one value, as the merge driver takes it); the pointer is the
/// RFC 6901 pointer with a backslash and control characters escaped as JSON escapes them,
/// so every line is one line; the value is compact JSON in the man page's mapping, its
/// dictionaries in key order. The same settings in XML, binary or OpenStep give the same
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
        JSONWriter.append(sorted(value), to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `text` with a backslash and control characters escaped as JSON escapes them, so it
    /// stays on one line of a terminal or a log (a key in a message).
    package static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        appendEscaped(text, to: &out)
        return out
    }

    /// `escaped(text)` appended to `out`.
    package static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0..<0x20, 0x7f:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xf)]]
            default: out.append(byte)
            }
        }
    }

    /// `escaped(text)` as text: a key or a pointer in a message or a log line.
    package static func escapedLine(_ text: String) -> String { String(decoding: escaped(text), as: UTF8.self) }

    /// A value as one line of compact JSON, in the JSON mapping, for messages.
    package static func json(_ value: PlistValue) -> String {
        String(decoding: JSONWriter.encode(value), as: UTF8.self)
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
