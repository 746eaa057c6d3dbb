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
        render(value, into: &out)
        return out
    }

    /// `render`, appended to `out`: a big domain's text is made once, where it goes,
    /// instead of in a buffer of its own copied there after.
    package static func render(_ value: PlistValue, into out: inout [UInt8]) {
        describe(value, level: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// `render` into `out`, handing it to `flush` whenever a top-level entry leaves it
    /// over a megabyte (`flush` empties it), and once more at the end: a big domain's
    /// text goes out in pieces through one reused buffer, never whole in memory. With
    /// `inParallel`, a big domain's second half of entries is made on another thread
    /// meanwhile (`inParallel` runs the work there and gives back a wait for its text).
    /// Big is `halvesFrom` entries or more (less in tests).
    package static func render(
        _ value: PlistValue, into out: inout [UInt8], flush: (inout [UInt8]) -> Void,
        inParallel: ((@escaping () -> [UInt8]) -> () -> [UInt8])? = nil, halvesFrom: Int = 20_000
    ) {
        guard case .dict(let dict) = value else {
            render(value, into: &out)
            flush(&out)
            return
        }
        open(UInt8(ascii: "{"), level: 0, &out)
        let entries = dict.sortedEntries
        var half = entries.count
        var secondHalf: (() -> [UInt8])?
        if let inParallel, entries.count >= halvesFrom {
            half = entries.count / 2
            let rest = entries[half...]
            secondHalf = inParallel {
                var text: [UInt8] = []
                text.reserveCapacity(rest.count * 64)
                for entry in rest { describeEntry(entry, level: 1, into: &text) }
                return text
            }
        }
        for entry in entries[..<half] {
            describeEntry(entry, level: 1, into: &out)
            if out.count >= 1 << 20 { flush(&out) }
        }
        if let secondHalf {
            flush(&out)
            var text = secondHalf()
            flush(&text)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
        flush(&out)
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
            open(UInt8(ascii: "{"), level: level, &out)
            for entry in dict.sortedEntries { describeEntry(entry, level: level + 1, into: &out) }
            close(UInt8(ascii: "}"), level: level, &out)
        case .array(let elements):
            open(UInt8(ascii: "("), level: level, &out)
            for (i, element) in elements.enumerated() {
                appendElementStart(first: i == 0, level: level + 1, &out)
                describe(element, level: level + 1, into: &out)
            }
            close(UInt8(ascii: ")"), afterElements: !elements.isEmpty, level: level, &out)
        case .string(let text):
            appendQuoted(text, &out)
        // The type table's texts, as bytes with no `String` made for each value: digits
        // print bare (a minus sign is quoted, the default way), data's text always does,
        // and a date's always has quotes and nothing to escape.
        case .int(let n) where n.isUnsigned || Int64(bitPattern: n.bitPattern) >= 0:
            n.appendDecimal(to: &out)
        case .data(let bytes):
            DefaultsText.appendData(bytes, to: &out)
        case .date(let date):
            guard let civil = date.components else { return appendTableText(value, &out) }
            out.append(UInt8(ascii: "\""))
            DefaultsText.appendDate(civil, to: &out)
            out.append(UInt8(ascii: "\""))
        default:
            appendTableText(value, &out)
        }
    }

    /// A scalar's text from the type table, quoted unless its row prints bare.
    private static func appendTableText(_ value: PlistValue, _ out: inout [UInt8]) {
        let index = TypeTable.index(of: value.type)
        var text = TypeTable.rows[index].text(value)
        if TypeTable.rows[index].printsBare {
            text.withUTF8 { out.appendBytes($0) }
        } else {
            appendQuoted(text, &out)
        }
    }

    /// `KEY = VALUE;` and a newline, indented to `level`.
    @inline(__always)
    private static func describeEntry(_ entry: PlistDictionary.Entry, level: Int, into out: inout [UInt8]) {
        var key = entry.key
        key.withUTF8 { appendEntryStart($0, level: level, &out) }
        describe(entry.value, level: level, into: &out)
        appendEntryEnd(&out)
    }

    // The pieces of a block, which `XMLReader.text` writes as it reads too.

    /// A dictionary's or array's start at `level`: indented, its bracket and a line break.
    @inline(__always)
    static func open(_ bracket: UInt8, level: Int, _ out: inout [UInt8]) {
        indent(level, &out)
        out.append(bracket)
        out.append(UInt8(ascii: "\n"))
    }

    /// Its end: a line break after an array's elements, then indented, its bracket.
    @inline(__always)
    static func close(_ bracket: UInt8, afterElements: Bool = false, level: Int, _ out: inout [UInt8]) {
        if afterElements { out.append(UInt8(ascii: "\n")) }
        indent(level, &out)
        out.append(bracket)
    }

    /// An entry's `KEY = `, indented to `level`.
    @inline(__always)
    static func appendEntryStart(_ key: UnsafeBufferPointer<UInt8>, level: Int, _ out: inout [UInt8]) {
        indent(level, &out)
        appendQuoted(key, &out)
        // Byte by byte: a literal's `.utf8` appended goes through the generic path.
        out.append(UInt8(ascii: " "))
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: " "))
    }

    /// An entry's end, after its value.
    @inline(__always)
    static func appendEntryEnd(_ out: inout [UInt8]) {
        out.append(UInt8(ascii: ";"))
        out.append(UInt8(ascii: "\n"))
    }

    /// Before an array's element at `level`: a comma and a line break after another one,
    /// then the indentation.
    @inline(__always)
    static func appendElementStart(first: Bool, level: Int, _ out: inout [UInt8]) {
        if !first {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\n"))
        }
        indent(level, &out)
    }

    @inline(__always)
    static func indent(_ level: Int, _ out: inout [UInt8]) { out.append(UInt8(ascii: " "), times: 4 * level) }

    /// What each byte asks of the text it is in: 0, nothing (an ASCII letter or digit,
    /// which print bare); 1, quotes; 3, quotes and a backslash before it (`"`, `\\`, line
    /// feed, tab). The classes of a text's bytes or-ed together say what it needs.
    private static let byteNeeds: [UInt8] = (0..<256).map { b in
        if (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) { return 0 }
        return b == 0x22 || b == 0x5C || b == 0x0A || b == 0x09 ? 3 : 1
    }

    /// Bare when every byte is an ASCII letter or digit; otherwise in double quotes
    /// with `\"`, `\\`, `\n` and `\t` escaped. Non-ASCII stays UTF-8.
    static func appendQuoted(_ text: String, _ out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted($0, &out) }
    }

    /// `appendQuoted` of text's UTF-8 bytes.
    static func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        do {
            // One pass, no branch per byte: most keys and strings need nothing escaped.
            let needs = byteNeeds.withUnsafeBufferPointer { table in
                var needs: UInt8 = bytes.isEmpty ? 1 : 0
                for b in bytes { needs |= table[Int(b)] }
                return needs
            }
            if needs == 0 { out.appendBytes(bytes); return }
            out.append(UInt8(ascii: "\""))
            if needs == 1 {
                out.appendBytes(bytes)
                out.append(UInt8(ascii: "\""))
                return
            }
            // Runs with nothing to escape are copied whole.
            var run = 0
            for (i, b) in bytes.enumerated() {
                let escaped: UInt8
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped = b
                case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                default: continue
                }
                out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run..<i]))
                out.append(UInt8(ascii: "\\"))
                out.append(escaped)
                run = i + 1
            }
            out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run...]))
            out.append(UInt8(ascii: "\""))
        }
    }
}
