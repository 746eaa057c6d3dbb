import PlistModel

extension XMLReader {
    /// What `text` writes: compact JSON as `JSONWriter.encode(_:pretty:chunk:to:)` writes
    /// it, or the text `read D` prints (`DefaultsPrinter.render`).
    package enum TextForm { case json, defaults }

    /// The XML property list `input` as `form`, byte for byte what the writer of that form
    /// writes for its values, written as the text is read: no values are built but the
    /// scalars, one at a time, so a big domain's text costs its file and the answer, not a
    /// tree of every value (a third of the time went to building and freeing one). A big
    /// document is read on two threads through `inParallel`, in halves as `read` reads one.
    ///
    /// Nil when the values' way must write it: the root is no dictionary, or (for `read D`)
    /// an empty one; a dictionary's keys are not in strictly ascending byte order (a key
    /// twice, whose last value would count, or out of the order the text is in); in JSON, a
    /// key starts with `$` (a one-key dictionary JSON would wrap in `$dict`); the second
    /// half could not be read. Throws what reading the document throws, though not always
    /// the first error the values' way would report: a caller reports that one.
    package static func text(_ input: [UInt8], as form: TextForm, inParallel: PropertyList.InParallel? = nil)
        throws(PlistError) -> [UInt8]?
    {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) -> [UInt8]? in
            var reader = XMLReader(buffer, wanted: nil)
            guard let inParallel, buffer.count >= 1 << 20, let split = entryLine(in: buffer, after: buffer.count / 2)
            else { return try reader.textDocument(as: form, size: buffer.count) }
            let shared = SharedText(buffer)
            let join = inParallel {
                var other = XMLReader(shared.buffer, wanted: nil)
                other.pos = split
                other.depth = 1
                var out: [UInt8] = []
                out.reserveCapacity(shared.buffer.count - split)
                var keys: (first: Text, last: Text)?
                do throws(PlistError) {
                    let whole = try other.writeEntries(as: form, level: 1, into: &out, keys: &keys)
                    return .success(
                        SecondHalf(entries: PlistDictionary(), end: other.pos, text: whole ? out : nil, keys: keys))
                } catch {
                    return .failure(error)
                }
            }
            // Joined on every way out: the other reader reads this buffer.
            defer { _ = join() }
            reader.stopAt = split
            reader.secondHalf = join
            return try reader.textDocument(as: form, size: buffer.count)
        }
    }

    private mutating func textDocument(as form: TextForm, size: Int) throws(PlistError) -> [UInt8]? {
        let (tag, wrapped) = try rootTag()
        guard tag.kind == .dict, form == .json || !tag.selfClosing else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        guard try write(tag, as: form, level: 0, into: &out) else { return nil }
        try end(wrapped: wrapped)
        // `{`, a line break and `}`: no entry, so no domain for `read D` to print.
        if form == .defaults, out.count == 3 { return nil }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Writes the value whose tag was just read as the form's writer writes it, at `level`
    /// (as `DefaultsPrinter.describe` indents); false when the document must be left to the
    /// values' way (see `text`).
    private mutating func write(_ tag: Tag, as form: TextForm, level: Int, into out: inout [UInt8])
        throws(PlistError) -> Bool
    {
        switch tag.kind {
        case .dict:
            Self.open(form, json: UInt8(ascii: "{"), text: UInt8(ascii: "{"), level: level, into: &out)
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                var keys: (first: Text, last: Text)?
                guard try writeEntries(as: form, level: level + 1, into: &out, keys: &keys) else { return false }
                if stoppedAt, let join = secondHalf {
                    // This reader stopped where the other began, at an entry of the root:
                    // the other's entries follow, and it read the root's end.
                    stoppedAt = false
                    guard case .success(let half) = join(), let text = half.text else { return false }
                    if let theirs = half.keys {
                        // Both halves' keys are in the one buffer (or decoded, their own).
                        if let ours = keys?.last {
                            guard withBytes(ours, { l in withBytes(theirs.first) { bytesPrecede(l, $0) } }) else {
                                return false
                            }
                        }
                        if keys != nil, form == .json { out.append(UInt8(ascii: ",")) }
                        out.append(contentsOf: text)
                    }
                    pos = half.end
                }
            }
            if form == .defaults { DefaultsPrinter.indent(level, &out) }
            out.append(UInt8(ascii: "}"))
        case .array:
            Self.open(form, json: UInt8(ascii: "["), text: UInt8(ascii: "("), level: level, into: &out)
            var count = 0
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                while let element = try nextElement() {
                    if count > 0 {
                        out.append(UInt8(ascii: ","))
                        if form == .defaults { out.append(UInt8(ascii: "\n")) }
                    }
                    if form == .defaults { DefaultsPrinter.indent(level + 1, &out) }
                    count += 1
                    guard try write(element, as: form, level: level + 1, into: &out) else { return false }
                }
            }
            if form == .defaults {
                if count > 0 { out.append(UInt8(ascii: "\n")) }
                DefaultsPrinter.indent(level, &out)
            }
            out.append(UInt8(ascii: form == .json ? "]" : ")"))
        case .string where !tag.selfClosing:
            // From the text's bytes, checked as UTF-8: no `String` made of each.
            let text = try text()
            try closeTag(.string)
            try validate(text)
            withBytes(text) { bytes in
                if form == .json {
                    JSONWriter.appendString(bytes, &out)
                } else {
                    DefaultsPrinter.appendQuoted(bytes, &out)
                }
            }
        case .data where form == .json && !tag.selfClosing:
            // Base64 as JSON writes it is copied; any other is decoded (or refused) as usual.
            let text = try text()
            try closeTag(.data)
            if !Self.withBytes(text, in: bytes, { JSONWriter.appendData(base64: $0, &out) }) {
                JSONWriter.write(try scalar(.data, text), nil, into: &out)
            }
        case .date where form == .json && !tag.selfClosing:
            // A date as XML writes it is its RFC 3339 text too: copied.
            let text = try text()
            try closeTag(.date)
            let copied = Self.withBytes(text, in: bytes) { date in
                guard XMLDate.isCanonical(date) else { return false }
                JSONWriter.appendDate(canonical: date, &out)
                return true
            }
            if !copied { JSONWriter.write(try scalar(.date, text), nil, into: &out) }
        default:
            let value = try value(tag)
            if form == .json {
                JSONWriter.write(value, nil, into: &out)
            } else {
                DefaultsPrinter.describe(value, level: level, into: &out)
            }
        }
        return true
    }

    /// A collection's start: its bracket in JSON; in `read D`'s text, indented, its bracket
    /// and a line break.
    private static func open(_ form: TextForm, json: UInt8, text: UInt8, level: Int, into out: inout [UInt8]) {
        guard form == .defaults else { return out.append(json) }
        DefaultsPrinter.indent(level, &out)
        out.append(text)
        out.append(UInt8(ascii: "\n"))
    }

    /// A dictionary's entries at `level`, up to its end (or the root's up to `stopAt`);
    /// `keys` is the first and last key written.
    private mutating func writeEntries(
        as form: TextForm, level: Int, into out: inout [UInt8], keys: inout (first: Text, last: Text)?
    ) throws(PlistError) -> Bool {
        while let (keyText, _, valueTag) = try nextEntry() {
            // The key's bytes, checked as UTF-8 but made into no `String`.
            try validate(keyText)
            let last = keys?.last, buffer = bytes
            let inOrder = Self.withBytes(keyText, in: buffer) { key in
                guard form == .defaults || key.first != UInt8(ascii: "$") else { return false }
                if let last {
                    guard Self.withBytes(last, in: buffer, { bytesPrecede($0, key) }) else { return false }
                }
                if form == .json {
                    if keys != nil { out.append(UInt8(ascii: ",")) }
                    JSONWriter.appendString(key, &out)
                    out.append(UInt8(ascii: ":"))
                } else {
                    DefaultsPrinter.indent(level, &out)
                    DefaultsPrinter.appendQuoted(key, &out)
                    // Byte by byte: an array literal here was an allocation per entry.
                    out.append(UInt8(ascii: " "))
                    out.append(UInt8(ascii: "="))
                    out.append(UInt8(ascii: " "))
                }
                return true
            }
            guard inOrder else { return false }
            // Where the key is, not a copy of it.
            if keys == nil { keys = (keyText, keyText) } else { keys!.last = keyText }
            guard try write(valueTag, as: form, level: level, into: &out) else { return false }
            if form == .defaults {
                out.append(UInt8(ascii: ";"))
                out.append(UInt8(ascii: "\n"))
            }
        }
        return true
    }
}
