import PlistModel

/// GVariant's text form, as GLib prints it with types shown where the text alone would
/// not say them (`g_variant_print (value, TRUE)`): what `gsettings get` and `dconf read`
/// print, and what `dconf write` and `gsettings set` read back as the same value.
extension Variant {
    package var gvariantText: String { gvariantText(annotated: true) }

    /// Without the outer type words (`5`, not `uint32 5`), as `gsettings range` prints
    /// a range's ends.
    package func gvariantText(annotated: Bool) -> String {
        var out = ""
        Self.print(self, annotate: annotated, &out)
        return out
    }

    private static func print(_ value: Variant, annotate: Bool, _ out: inout String) {
        switch value {
        case .bool(let b): out += b ? "true" : "false"
        case .signed(let n, let c):
            if annotate, let word = numberWords[c] { out += word + " " }
            out += String(n)
        case .unsigned(let n, let c):
            if c == UInt8(ascii: "y") {
                if annotate { out += "byte " }
                let hex = String(n, radix: 16)
                out += "0x" + (hex.count < 2 ? "0" : "") + hex
            } else {
                if annotate, let word = numberWords[c] { out += word + " " }
                out += String(n)
            }
        case .double(let d):
            let text = CFormat.general(d)
            out += text
            if !text.contains(where: { ".enN".contains($0) }) { out += ".0" }
        case .string(let bytes, let c):
            if annotate, c == UInt8(ascii: "o") { out += "objectpath " }
            if annotate, c == UInt8(ascii: "g") { out += "signature " }
            quoted(bytes, &out)
        case .boxed(let inner):
            out += "<"
            print(inner, annotate: true, &out)
            out += ">"
        case .maybe:
            if annotate { out += "@" + value.type.text + " " }
            // "just" only where a nothing inside needs it: `@mmi 5`, `@mms just nothing`.
            var inner: Variant? = value
            while case .maybe(_, let child)? = inner { inner = child }
            if let inner {
                print(inner, annotate: false, &out)
            } else {
                var justs = 0
                var walk: Variant? = value
                while case .maybe(_, let child?)? = walk {
                    walk = child
                    justs += 1
                }
                out += String(repeating: "just ", count: justs) + "nothing"
            }
        case .array(let element, let items):
            if element == .basic(UInt8(ascii: "y")), let bytes = byteString(items) {
                out += bytes
                return
            }
            if items.isEmpty {
                if annotate { out += "@" + value.type.text + " " }
                if case .entry = element { out += "{}" } else { out += "[]" }
                return
            }
            var annotate = annotate
            if case .entry = element {
                out += "{"
                for (n, item) in items.enumerated() {
                    if n > 0 { out += ", " }
                    guard case .entry(let key, let entryValue) = item else { continue }
                    print(key, annotate: annotate, &out)
                    out += ": "
                    print(entryValue, annotate: annotate, &out)
                    annotate = false
                }
                out += "}"
                return
            }
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += ", " }
                print(item, annotate: annotate, &out)
                annotate = false
            }
            out += "]"
        case .tuple(let members):
            out += "("
            for (n, member) in members.enumerated() {
                if n > 0 { out += ", " }
                print(member, annotate: annotate, &out)
            }
            out += members.count == 1 ? ",)" : ")"
        case .entry(let key, let entryValue):
            out += "{"
            print(key, annotate: annotate, &out)
            out += ", "
            print(entryValue, annotate: annotate, &out)
            out += "}"
        }
    }

    private static let numberWords: [UInt8: String] = [
        UInt8(ascii: "n"): "int16", UInt8(ascii: "q"): "uint16", UInt8(ascii: "u"): "uint32",
        UInt8(ascii: "x"): "int64", UInt8(ascii: "t"): "uint64", UInt8(ascii: "h"): "handle",
    ]

    /// A string in quotes: `'` unless it holds one; the quote and `\` escaped, and what
    /// GLib does not print (controls, format characters, unassigned code points) as
    /// `\n`, `\u200b` or `\U000e0001`.
    private static func quoted(_ bytes: [UInt8], _ out: inout String) {
        let quote: Character = bytes.contains(UInt8(ascii: "'")) ? "\"" : "'"
        out.append(quote)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if Character(scalar) == quote || scalar == "\\" { out += "\\" }
            switch scalar.properties.generalCategory {
            case .control, .format, .unassigned, .surrogate:
                switch scalar {
                case "\u{07}": out += "\\a"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{0B}": out += "\\v"
                default:
                    let hex = String(scalar.value, radix: 16)
                    out +=
                        scalar.value < 0x10000
                        ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                        : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append(quote)
    }

    /// `b'…'` for bytes that end in their only NUL, escaped as GLib's `g_strescape` does;
    /// nil for other bytes, which print as a list.
    private static func byteString(_ items: [Variant]) -> String? {
        var bytes: [UInt8] = []
        for item in items {
            guard case .unsigned(let n, _) = item else { return nil }
            bytes.append(UInt8(truncatingIfNeeded: n))
        }
        guard bytes.last == 0, bytes.firstIndex(of: 0) == bytes.count - 1 else { return nil }
        bytes.removeLast()
        let quote = bytes.contains(UInt8(ascii: "'")) ? "\"" : "'"
        var out = "b" + quote
        for byte in bytes {
            switch byte {
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x0B: out += "\\v"
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\""): out += "\\\""
            case 0x20..<0x7F: out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + quote
    }
}
