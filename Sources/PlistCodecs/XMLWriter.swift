import PlistModel
/// Writes an XML property list byte for byte as Apple's writer lays it out: the DTD
/// header, a tab a level, sorted keys, `<array/>` and `<dict/>` for empty containers,
/// base64 lines of `76 - 8·min(level, 8)` characters.
package enum XMLWriter {
    static let header = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">\n
        """.utf8)

    package static func encode(_ value: PlistValue, capacity: Int = 4096) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(contentsOf: header)
        write(value, level: 0, into: &out, flush: keep)
        put("</plist>\n", &out)
        return out
    }

    /// Encodes `value` and hands the bytes to `sink` in pieces of about `chunk` bytes, cut
    /// between the root's entries: a big domain is never held twice in memory, once as
    /// values and once as text. A document smaller than `chunk` reaches `sink` in one call.
    ///
    /// `entryBounds`, for a dictionary, is told where its entries lie: the offset of the
    /// first entry's start, then of each entry's end.
    package static func encode(
        _ value: PlistValue, chunk: Int, entryBounds: ((Int) -> Void)? = nil,
        to sink: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunk, 1 << 16) + 4096)
        out.append(contentsOf: header)
        var sunk = 0
        try write(value, level: 0, into: &out) { buffer in
            entryBounds?(sunk + buffer.count)
            guard buffer.count >= chunk else { return }
            try sink(buffer[...])
            sunk += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        put("</plist>\n", &out)
        try sink(out[...])
    }

    /// A control character in `text` that XML 1.0 cannot hold at all, not even as a
    /// character reference (all of U+0000–U+001F but tab, line feed and carriage
    /// return): a file with one is refused by every other reader.
    static func unwritableCharacter(inText text: String) -> UInt8? {
        var text = text
        // Over the bytes themselves: the UTF-8 view's generic search cost a sixth of an export.
        return text.withUTF8 { bytes in
            let i = firstUnwritable(in: bytes)
            return i < bytes.count ? bytes[i] : nil
        }
    }

    /// A byte of a character XML 1.0 cannot hold (see `unwritableCharacter(inText:)`).
    @inline(__always)
    static func isUnwritable(_ b: UInt8) -> Bool { b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D }

    /// Whether `bytes` hold such a byte, eight at a time: only a word with a byte below
    /// 0x20 (a tab, a line break, or worse) is looked at byte by byte. Every string of a
    /// binary domain written as XML, and of a JSON import, is checked so.
    @inline(__always)
    static func hasUnwritable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstUnwritable(in: bytes) < bytes.count
    }

    /// The index of the first such byte in `bytes` (or their end).
    @inline(__always)
    static func firstUnwritable(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        ByteWords.first(
            in: bytes, from: 0, exact: false, candidates: { ByteWords.below($0, 0x20) }, matching: isUnwritable)
    }

    /// The `flush` of nested values and of whole-document encoding: the buffer grows.
    private static func keep(_: inout [UInt8]) {}

    /// `flush` is offered the buffer after each entry of the root.
    static func write(
        _ value: PlistValue, level: Int, into out: inout [UInt8],
        flush: (inout [UInt8]) throws -> Void
    ) rethrows {
        switch value {
        case .bool(let b): writeBool(b, level: level, into: &out)
        case .int(let i): writeInteger(i, level: level, into: &out)
        case .float(let f): writeReal(RealText.shortest(f), level: level, into: &out)
        case .double(let d): writeReal(RealText.shortest(d), level: level, into: &out)
        case .string(var s): s.withUTF8 { writeString($0, level: level, into: &out) }
        case .date(let d): writeDate(level: level, into: &out) { XMLDate.append(d, to: &$0) }
        case .data(let bytes):
            writeData(level: level, into: &out) { Base64.encodeLines(bytes, lineLength: $0, indent: $1, into: &$2) }
        case .array(let elements):
            guard open(.array, empty: elements.isEmpty, level: level, into: &out) else { return }
            for e in elements { write(e, level: level + 1, into: &out, flush: keep) }
            close(.array, level: level, into: &out)
        case .dict(let dict):
            let entries = dict.sortedEntries
            guard open(.dict, empty: entries.isEmpty, level: level, into: &out) else { return }
            // Offered before the first entry too: `encode(_:chunk:entryBounds:to:)` marks it.
            try flush(&out)
            for entry in entries {
                writeEntry(key: entry.key, value: entry.value, level: level + 1, into: &out)
                try flush(&out)
            }
            close(.dict, level: level, into: &out)
        }
    }

    // MARK: Each kind's element
    // The one encoding of each: the values' way (`write`) and the ways straight from a
    // binary file's objects (`BinaryReader.writeXML`) and from JSON (`JSONToXML`) all write
    // through these.

    /// `<true/>` or `<false/>` at `level`.
    @inline(__always)
    static func writeBool(_ b: Bool, level: Int, into out: inout [UInt8]) {
        tabs(level, &out)
        put(b ? "<true/>\n" : "<false/>\n", &out)
    }

    @inline(__always)
    static func writeInteger(_ i: PlistInteger, level: Int, into out: inout [UInt8]) {
        element("<integer>", "</integer>\n", level: level, into: &out) { i.appendDecimal(to: &$0) }
    }

    /// A real, from its shortest text (`RealText`).
    static func writeReal(_ text: String, level: Int, into out: inout [UInt8]) {
        var text = text
        element("<real>", "</real>\n", level: level, into: &out) { out in text.withUTF8 { out.appendBytes($0) } }
    }

    /// A string from its UTF-8 bytes, escaped.
    @inline(__always)
    static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, level: Int, into out: inout [UInt8]) {
        element("<string>", "</string>\n", level: level, into: &out) { appendEscaped(utf8, &$0) }
    }

    /// A dictionary entry's key line, from its UTF-8 bytes, escaped.
    @inline(__always)
    static func writeKey(_ utf8: UnsafeBufferPointer<UInt8>, level: Int, into out: inout [UInt8]) {
        element("<key>", "</key>\n", level: level, into: &out) { appendEscaped(utf8, &$0) }
    }

    /// `<date>`, the text `text` appends (`XMLDate`'s form), and `</date>`.
    @inline(__always)
    static func writeDate(level: Int, into out: inout [UInt8], text: (inout [UInt8]) -> Void) {
        element("<date>", "</date>\n", level: level, into: &out, text)
    }

    /// One line at `level`: `open`, what `body` appends, and `close`.
    @inline(__always)
    private static func element(
        _ open: StaticString, _ close: StaticString, level: Int, into out: inout [UInt8],
        _ body: (inout [UInt8]) -> Void
    ) {
        tabs(level, &out)
        put(open, &out)
        body(&out)
        put(close, &out)
    }

    /// `<data>`, the base64 lines `lines` appends (told their length and indent), and
    /// `</data>`, at `level`.
    @inline(__always)
    static func writeData(level: Int, into out: inout [UInt8], lines: (Int, Int, inout [UInt8]) -> Void) {
        tabs(level, &out)
        put("<data>\n", &out)
        let lineLevel = min(level, 8)
        lines(76 - 8 * lineLevel, lineLevel, &out)
        tabs(level, &out)
        put("</data>\n", &out)
    }

    enum Collection { case array, dict }

    /// A collection's opening line at `level`, or its whole element when `empty`
    /// (`<array/>`, `<dict/>`): whether its contents and `close` follow.
    @inline(__always)
    static func open(_ kind: Collection, empty: Bool, level: Int, into out: inout [UInt8]) -> Bool {
        tabs(level, &out)
        switch (kind, empty) {
        case (.array, true): put("<array/>\n", &out)
        case (.array, false): put("<array>\n", &out)
        case (.dict, true): put("<dict/>\n", &out)
        case (.dict, false): put("<dict>\n", &out)
        }
        return !empty
    }

    @inline(__always)
    static func close(_ kind: Collection, level: Int, into out: inout [UInt8]) {
        tabs(level, &out)
        put(kind == .array ? "</array>\n" : "</dict>\n", &out)
    }

    /// One dictionary entry at `level`: its key's line, then its value's, as a whole
    /// dictionary's encoding holds it. A domain's file changed in one key is its old bytes
    /// with this spliced in between the entries around it (`FileMemo`).
    package static func writeEntry(key: String, value: PlistValue, level: Int, into out: inout [UInt8]) {
        var key = key
        key.withUTF8 { writeKey($0, level: level, into: &out) }
        write(value, level: level, into: &out, flush: keep)
    }

    /// Appends literal text; faster than a `String`'s UTF-8 view, which matters a
    /// hundred thousand times over in a big domain.
    @inline(__always)
    static func put(_ text: StaticString, _ out: inout [UInt8]) {
        out.appendBytes(text)
    }

    @inline(__always)
    static func tabs(_ n: Int, _ out: inout [UInt8]) { out.append(UInt8(ascii: "\t"), times: n) }

    /// Escapes only `&`, `<` and `>`, as Apple does. Runs without `&`, `<` or `>` are found eight
    /// bytes at a time and copied whole: a byte-by-byte pass was a tenth of an import.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        var run = 0
        while true {
            let i = firstEscaped(in: bytes, from: run)
            out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run..<i]))
            guard i < bytes.count else { return }
            switch bytes[i] {
            case UInt8(ascii: "&"): put("&amp;", &out)
            case UInt8(ascii: "<"): put("&lt;", &out)
            default: put("&gt;", &out)
            }
            run = i + 1
        }
    }

    /// The first `&`, `<` or `>` in `bytes` from `start` on (or their end).
    @inline(__always)
    static func firstEscaped(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWords.first(in: bytes, from: start) {
            ByteWords.equal($0, UInt8(ascii: "&")) | ByteWords.equal($0, UInt8(ascii: "<"))
                | ByteWords.equal($0, UInt8(ascii: ">"))
        } matching: {
            $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
        }
    }
}

extension [UInt8] {
    /// `byte` `n` times, stored at once: a `repeatElement` (the slow, generic way in) per
    /// line cost 3% of printing a big domain.
    @inline(__always)
    mutating func append(_ byte: UInt8, times n: Int) {
        guard n > 0 else { return }
        // A memset: the output span's own `append(repeating:count:)` stores byte by byte.
        append(addingCapacity: n) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
                (buffer.baseAddress! + count).initialize(repeating: byte, count: n)
                count += n
            }
        }
    }
}
