import PlistModel
/// Writes values in the project's JSON mapping (man page, JSON MAPPING): dictionaries,
/// arrays, strings and booleans as plain JSON; an integer as its exact decimal literal;
/// a real always with `.` or an exponent, in its shortest round-trip digits. What JSON
/// cannot say is a one-key object with a reserved key: `{"$date":"…Z"}`,
/// `{"$data":"<base64>"}`, `{"$real":"nan"}`, and `{"$dict":{…}}` around a dictionary
/// that would otherwise read as one of those. Nothing is lost on the way back.
///
///     String(decoding: JSONWriter.encode(.dict(["n": .double(1)])), as: UTF8.self)   //=> "{\"n\":1.0}"
public enum JSONWriter {
    /// Compact (one line, no spaces) or pretty (two spaces a level, as `jq` prints).
    /// Dictionary keys keep the domain's order.
    public static func encode(_ value: PlistValue, pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, pretty ? 0 : nil, into: &out)
        return out
    }

    /// Appends `value`, compact, to `out`: a line made of several values made once. With
    /// `widths`, a 32-bit real is `{"$float":"0.3"}`, which `JSONReader` reads back as
    /// one (the journal's lines, from which `undo` gives a value back as it was).
    package static func append(_ value: PlistValue, to out: inout [UInt8], widths: Bool = false) {
        write(value, nil, into: &out, widths: widths)
    }

    /// Encodes `value` and hands the bytes to `sink` in pieces of about `chunk` bytes,
    /// cut between the root's entries, ending with a newline: a big domain is never
    /// held twice in memory, once as values and once as text.
    public static func encode(
        _ value: PlistValue, pretty: Bool, chunk: Int,
        to sink: ([UInt8]) throws -> Void
    ) rethrows {
        guard case .dict(let dict) = value, case let entries = dict.uniqueEntries, !entries.isEmpty,
            !isTagShaped(entries)
        else {
            try sink(encode(value, pretty: pretty) + [UInt8(ascii: "\n")])
            return
        }
        let level: Int? = pretty ? 0 : nil
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(min(chunk, 1 << 16) + 4096)
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { newline(1, &out) }
            appendKey(entry.key, level, &out)
            write(entry.value, level.map { $0 + 1 }, into: &out)
            if out.count >= chunk {
                try sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if pretty { newline(0, &out) }
        out += [UInt8(ascii: "}"), UInt8(ascii: "\n")]
        try sink(out)
    }

    /// A dictionary that would read back as a tag (`$gvariant`'s reads as itself), so it is written in `$dict`.
    static func isTagShaped(_ entries: [PlistDictionary.Entry]) -> Bool {
        entries.count == 1 && isTagKey(entries[0].key.utf8) && !PlistDictionary.isGVariantTag(entries[0])
    }

    /// Whether a key is spelled as the tags are, `$…` (which `XMLReader.text` leaves).
    static func isTagKey(_ key: some Collection<UInt8>) -> Bool { key.first == UInt8(ascii: "$") }

    /// What a path that steps into `value`'s JSON tag finds there, as `jq` would: a
    /// date's `$date` text, data's `$data` base64, a NaN's `$real`, a wrapped
    /// dictionary's `$dict`. Nil when `value` has no such tag.
    public static func tagContents(_ value: PlistValue, _ tag: String) -> PlistValue? {
        guard tag.utf8.first == UInt8(ascii: "$") else { return nil }
        // The value's JSON read back as plain JSON, tags untouched: the one member is the tag.
        guard case .dict(let raw)? = try? JSONReader.read(encode(value), tags: false), raw.entries.count == 1,
            raw.entries[0].key == tag
        else { return nil }
        return raw.entries[0].value
    }

    /// `level` is nil for compact output.
    static func write(_ value: PlistValue, _ level: Int?, into out: inout [UInt8], widths: Bool = false) {
        switch value {
        // Texts appended through `withUTF8`, never made into arrays first: an array per
        // scalar was a third of an export.
        case .bool(let b): appendText(b ? "true" : "false", &out)
        case .int(let i): i.appendDecimal(to: &out)
        case .double(let d): appendReal(d.description, d, level, &out)
        case .float(let f) where widths:
            tagged("$float", level, &out) { out in appendString(f.description, &out) }
        case .float(let f): appendReal(f.description, Double(f), level, &out)
        case .string(let s): appendString(s, &out)
        case .data(let bytes):
            tagged("$data", level, &out) { out in
                out.append(UInt8(ascii: "\""))
                Base64.encode(bytes, into: &out)
                out.append(UInt8(ascii: "\""))
            }
        case .date(let date):
            tagged("$date", level, &out) { out in
                // Outside what RFC 3339 can name, the seconds since 2001 keep the value.
                if let text = RFC3339.text(date) {
                    appendString(text, &out)
                } else {
                    appendReal(date.secondsSince2001.description, date.secondsSince2001, level.map { $0 + 1 }, &out)
                }
            }
        case .array(let items):
            appendCollection(UInt8(ascii: "["), UInt8(ascii: "]"), items.count, level, &out) { i, out in
                write(items[i], level.map { $0 + 1 }, into: &out, widths: widths)
            }
        case .dict(let dict):
            let entries = dict.uniqueEntries
            if isTagShaped(entries) {
                tagged("$dict", level, &out) { out in writeObject(entries, level.map { $0 + 1 }, &out, widths: widths) }
            } else {
                writeObject(entries, level, &out, widths: widths)
            }
        }
    }

    /// A desired state, pretty: an object of domains, each `null` (absent) or an object of
    /// keys, each a value or `null` (absent), which no `PlistValue` can say.
    package static func encodeDesired(_ domains: [(name: String, keys: [(key: String, value: PlistValue?)]?)])
        -> [UInt8]
    {
        var out: [UInt8] = []
        appendCollection(UInt8(ascii: "{"), UInt8(ascii: "}"), domains.count, 0, &out) { i, out in
            appendString(domains[i].name, &out)
            out.append(contentsOf: ": ".utf8)
            guard let keys = domains[i].keys else { return appendText("null", &out) }
            appendCollection(UInt8(ascii: "{"), UInt8(ascii: "}"), keys.count, 1, &out) { j, out in
                appendString(keys[j].key, &out)
                out.append(contentsOf: ": ".utf8)
                if let value = keys[j].value { write(value, 2, into: &out) } else { appendText("null", &out) }
            }
        }
        return out
    }

    private static func writeObject(
        _ entries: [PlistDictionary.Entry], _ level: Int?, _ out: inout [UInt8], widths: Bool = false
    ) {
        appendCollection(UInt8(ascii: "{"), UInt8(ascii: "}"), entries.count, level, &out) { i, out in
            appendKey(entries[i].key, level, &out)
            write(entries[i].value, level.map { $0 + 1 }, into: &out, widths: widths)
        }
    }

    /// Compact JSON's `{"$data":"…"}` of base64 `text` that is already what `write` would
    /// put there (`Base64.appendCanonical`), copied without its white space; false, with
    /// nothing appended, for any other text.
    static func appendData(base64 text: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) -> Bool {
        let start = out.count
        var copied = false
        tagged("$data", nil, &out) { out in
            out.append(UInt8(ascii: "\""))
            copied = Base64.appendCanonical(text, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if !copied { out.removeSubrange(start...) }
        return copied
    }

    /// Compact JSON's `{"$date":"…"}` of a date's text as XML writes it, which is its RFC
    /// 3339 text too (`XMLDate.isCanonical`, checked by the caller), copied.
    static func appendDate(canonical text: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        tagged("$date", nil, &out) { out in appendString(text, &out) }
    }

    /// A finite real as its shortest digits (Swift's `description` always has `.` or
    /// `e`); NaN and the infinities as `{"$real":"nan"|"inf"|"-inf"}`.
    private static func appendReal(_ text: String, _ value: Double, _ level: Int?, _ out: inout [UInt8]) {
        if value.isFinite { appendText(text, &out); return }
        tagged("$real", level, &out) { out in appendString(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf", &out) }
    }

    /// `{"$tag": body}`; the body is written one level deeper.
    private static func tagged(_ tag: String, _ level: Int?, _ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        appendCollection(UInt8(ascii: "{"), UInt8(ascii: "}"), 1, level, &out) { _, out in
            appendKey(tag, level, &out)
            body(&out)
        }
    }

    private static func appendCollection(
        _ open: UInt8, _ close: UInt8, _ count: Int, _ level: Int?,
        _ out: inout [UInt8], _ element: (Int, inout [UInt8]) -> Void
    ) {
        // Bytes, not `Character`s: a `Character`'s `asciiValue` cost 2% of an export.
        out.append(open)
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if let level { newline(level + 1, &out) }
            element(i, &out)
        }
        if let level, count > 0 { newline(level, &out) }
        out.append(close)
    }

    private static func newline(_ level: Int, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(UInt8(ascii: " "), times: 2 * level)
    }

    /// Text known to need no escaping (a number, a literal), as its UTF-8 bytes.
    @inline(__always)
    private static func appendText(_ text: String, _ out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.appendBytes($0) }
    }

    /// Whether JSON escapes `byte`: `"`, `\\` and the C0 controls.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The first byte from `start` on that JSON escapes (or the end), eight bytes at a
    /// time: most text has none (a byte-by-byte scan was 8% of an export).
    @inline(__always)
    static func firstEscaped(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWords.first(in: bytes, from: start) {
            ByteWords.below($0, 0x20) | ByteWords.equal($0, UInt8(ascii: "\""))
                | ByteWords.equal($0, UInt8(ascii: "\\"))
        } matching: {
            needsEscape($0)
        }
    }

    /// An object's `"key":`, and a space when pretty (`level` not nil).
    @inline(__always)
    static func appendKey(_ key: UnsafeBufferPointer<UInt8>, _ level: Int?, _ out: inout [UInt8]) {
        appendString(key, &out)
        out.append(UInt8(ascii: ":"))
        if level != nil { out.append(UInt8(ascii: " ")) }
    }

    @inline(__always)
    private static func appendKey(_ key: String, _ level: Int?, _ out: inout [UInt8]) {
        var key = key
        key.withUTF8 { appendKey($0, level, &out) }
    }

    /// UTF-8 as is; `"`, `\` and the C0 controls escaped, as RFC 8259 requires. Runs
    /// without any are copied whole.
    static func appendString(_ s: String, _ out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString($0, &out) }
    }

    /// `appendString` of text's UTF-8 bytes.
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs with nothing to escape, most text whole, are copied at once.
        var run = 0
        while true {
            let i = firstEscaped(in: bytes, from: run)
            out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run..<i]))
            guard i < bytes.count else { break }
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
            run = i + 1
        }
        out.append(UInt8(ascii: "\""))
    }
}
