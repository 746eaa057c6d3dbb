import PlistModel
/// Prints values the way `defaults read` does (SPEC §4): 4 spaces a level, keys in
/// code-point order, scalars bare when `[A-Za-z0-9]+` and quoted otherwise.
///
///     DefaultsPrinter.render(.dict(["a": .double(0.5)]))   //=> "{\n    a = \"0.5\";\n}\n"
package enum DefaultsPrinter {
    /// A whole value as `read D` or a collection under `read D K` prints it, with the
    /// final newline.
    package static func render(_ value: PlistValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        describe(value, level: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// `read D K`: a scalar raw (a string without quotes), a collection as a block.
    package static func renderBare(_ value: PlistValue) -> [UInt8] {
        switch value {
        case .array, .dict: return render(value)
        default:
            var out = Array(TypeTable.row(for: value).text(value).utf8)
            out.append(UInt8(ascii: "\n"))
            return out
        }
    }

    /// One line, for line-oriented output such as `watch`: a scalar as `read D K` prints
    /// it (a string with a line break or tab quoted instead), a collection's block with
    /// each line break and its indentation folded into one space: `( a, b )`.
    package static func renderLine(_ value: PlistValue) -> [UInt8] {
        var block: [UInt8] = []
        switch value {
        case .array, .dict: describe(value, level: 0, into: &block)
        case .string(let s) where s.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }):
            appendQuoted(s, &block)
        default: block = Array(TypeTable.row(for: value).text(value).utf8)
        }
        var out: [UInt8] = []
        out.reserveCapacity(block.count)
        var i = 0
        while i < block.count {
            if block[i] == UInt8(ascii: "\n") {
                out.append(UInt8(ascii: " "))
                i += 1
                while i < block.count, block[i] == UInt8(ascii: " ") { i += 1 }
            } else {
                out.append(block[i])
                i += 1
            }
        }
        return out
    }

    static func describe(_ value: PlistValue, level: Int, into out: inout [UInt8]) {
        switch value {
        case .dict(let dict):
            indent(level, &out)
            out.append(contentsOf: "{\n".utf8)
            for entry in dict.sortedEntries {
                indent(level + 1, &out)
                appendQuoted(entry.key, &out)
                out.append(contentsOf: " = ".utf8)
                describe(entry.value, level: level + 1, into: &out)
                out.append(contentsOf: ";\n".utf8)
            }
            indent(level, &out)
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            indent(level, &out)
            out.append(contentsOf: "(\n".utf8)
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(contentsOf: ",\n".utf8) }
                indent(level + 1, &out)
                describe(element, level: level + 1, into: &out)
            }
            if !elements.isEmpty { out.append(UInt8(ascii: "\n")) }
            indent(level, &out)
            out.append(UInt8(ascii: ")"))
        default:
            let row = TypeTable.row(for: value)
            if row.printsBare {
                out.append(contentsOf: row.text(value).utf8)
            } else {
                appendQuoted(row.text(value), &out)
            }
        }
    }

    @inline(__always)
    private static func indent(_ level: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 4))
    }

    /// Bare when every byte is an ASCII letter or digit; otherwise in double quotes
    /// with `\"`, `\\`, `\n` and `\t` escaped. Non-ASCII stays UTF-8.
    static func appendQuoted(_ text: String, _ out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            let bare =
                !bytes.isEmpty
                && bytes.allSatisfy { b in
                    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                        || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                }
            if bare { out.append(contentsOf: bytes); return }
            out.append(UInt8(ascii: "\""))
            for b in bytes {
                switch b {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
                default: out.append(b)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }
}
