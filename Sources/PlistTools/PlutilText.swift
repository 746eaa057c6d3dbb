import PlistCodecs
import PlistModel

/// The texts `plutil` prints for people and shell scripts: `-p`, `-extract … raw` and
/// `-type`.
package enum PlutilText {
    /// `-p`: a dictionary's keys sorted as Finder sorts names (`precedes`), `"key" => value`,
    /// two spaces a level; not stable, not for machines, as Apple says of it. Data shows
    /// every byte as two hex digits (Apple's Linux port drops leading zeros), and from 25
    /// bytes only the first and last 8.
    package static func printed(_ value: PlistValue) -> String {
        var out = ""
        append(value, indent: 2, to: &out)
        return out
    }

    private static func append(_ value: PlistValue, indent: Int, to out: inout String) {
        let inner = String(repeating: " ", count: indent), outer = String(repeating: " ", count: indent - 2)
        switch value {
        case .dict(let dict):
            out += "{\n"
            for entry in sortedEntries(dict) {
                out += inner + "\"" + entry.key + "\" => "
                append(entry.value, indent: indent + 2, to: &out)
            }
            out += outer + "}\n"
        case .array(let items):
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner + "\(i) => "
                append(item, indent: indent + 2, to: &out)
            }
            out += outer + "]\n"
        case .string(let s): out += "\"" + s + "\"\n"
        case .data(let bytes):
            out += "{length = \(bytes.count), bytes = 0x"
            if bytes.count > 24 {
                out += hex(bytes.prefix(8)) + "... " + hex(bytes.suffix(8))
            } else {
                out += hex(bytes[...])
            }
            out += "}\n"
        case .date(let date): out += DefaultsText.date(date) + "\n"
        case .bool(let b): out += b ? "true\n" : "false\n"
        case .int(let i): out += i.description + "\n"
        case .float(let f): out += Double(f).description + "\n"
        case .double(let d): out += d.description + "\n"
        }
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for b in bytes { out += String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)]) }
        return out
    }

    /// `-extract KEYPATH raw`: a scalar's text (a real as `%f` does it, a date as ISO 8601
    /// in UTC, data as base64), a dictionary's keys a line each, sorted as `-p` sorts
    /// them, and an array's count.
    package static func raw(_ value: PlistValue) -> String {
        switch value {
        case .bool(let b): b ? "true" : "false"
        case .int(let i): i.description
        case .float(let f): fixed(Double(f))
        case .double(let d): fixed(d)
        case .string(let s): s
        case .data(let bytes): base64(bytes)
        case .date(let date): isoText(date)
        case .array(let items): "\(items.count)"
        case .dict(let dict): sortedEntries(dict).map(\.key).joined(separator: "\n")
        }
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        Base64.encode(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `%f`: six decimals, rounded half to even on the binary value, as C's printf.
    static func fixed(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        return CFormat.fixed(value, decimals: 6)
    }

    /// `2024-01-02T03:04:05Z`: whole seconds, as Foundation's `.iso8601` style writes.
    static func isoText(_ date: PlistDate) -> String {
        guard let c = PlistDate(secondsSince2001: date.secondsSince2001.rounded(.down)).components else {
            return RealText.shortest(date.secondsSince2001)
        }
        var out: [UInt8] = []
        DefaultsText.appendCivil(c, dateTimeSeparator: UInt8(ascii: "T"), to: &out)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `-type` and `-expect`'s name of a value's type.
    package static func typeName(_ value: PlistValue) -> String {
        switch value {
        case .bool: "bool"
        case .int: "integer"
        case .float, .double: "float"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .array: "array"
        case .dict: "dictionary"
        }
    }

    /// The names `-expect` takes.
    package static let typeNames: Set<String> = [
        "bool", "integer", "float", "string", "date", "data", "dictionary", "array",
    ]

    /// A dictionary's entries as `-p` and `raw` list them.
    static func sortedEntries(_ dict: PlistDictionary) -> [PlistDictionary.Entry] {
        dict.uniqueEntries.sorted { precedes($0.key, $1.key) }
    }

    /// Finder's order of names (Foundation's numeric, case-insensitive compare in the root
    /// locale): runs of digits by their number; punctuation and spaces before digits, and
    /// digits before letters; letters by their base letter ignoring case and accents (é
    /// sorts with e); then accents, then case and bytes, so the order is total. Letters
    /// outside Latin sort by code point after Latin ones.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        var secondary = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let (m, nextI) = digitRun(x, from: i), (n, nextJ) = digitRun(y, from: j)
                if m != n { return m.count != n.count ? m.count < n.count : m.lexicographicallyPrecedes(n) }
                (i, j) = (nextI, nextJ)
                continue
            }
            let p = weight(x[i]), q = weight(y[j])
            if p.primary != q.primary { return p.primary < q.primary }
            if secondary == 0, p.accent != q.accent { secondary = p.accent < q.accent ? -1 : 1 }
            i += 1
            j += 1
        }
        if (x.count - i) != (y.count - j) { return x.count - i < y.count - j }
        if secondary != 0 { return secondary < 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }

    /// A run of digits without its leading zeros, and where it ends.
    private static func digitRun(_ s: [Unicode.Scalar], from start: Int) -> ([UInt32], Int) {
        var end = start
        while end < s.count, isDigit(s[end]) { end += 1 }
        var first = start
        while first < end - 1, s[first] == "0" { first += 1 }
        return (s[first..<end].map(\.value), end)
    }

    /// A character's place: its class and base letter first, its accent second.
    private static func weight(_ s: Unicode.Scalar) -> (primary: UInt32, accent: UInt32) {
        let v = s.value
        if let base = latinBase(v) { return (0x2_0000 + base, v) }
        if isDigit(s) { return (0x1_0000 + v, 0) }
        if v < 0x80 || s.properties.isWhitespace || !s.properties.isAlphabetic { return (v, 0) }
        return (0x3_0000 + v, 0)
    }

    /// From U+00C0: each letter's base letter, `/` for a character that is no letter (× ÷).
    private static let latinBases = Array(
        ("aaaaaaaceeeeiiiidnooooo/ouuuuytsaaaaaaaceeeeiiiidnooooo/ouuuuyty"
            + "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkkllllllllllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuu"
            + "uuuuuuuwwyyyzzzzzzs").utf8)

    /// The lowercase ASCII letter a Latin letter is written on (`É` is `e`), for the
    /// letters of Latin-1 and Latin Extended-A; nil for any other character.
    private static func latinBase(_ v: UInt32) -> UInt32? {
        switch v {
        case 0x41...0x5A: return v + 32
        case 0x61...0x7A: return v
        case 0xC0...0x17F:
            let base = latinBases[Int(v - 0xC0)]
            return base == UInt8(ascii: "/") ? nil : UInt32(base)
        default: return nil
        }
    }
}
