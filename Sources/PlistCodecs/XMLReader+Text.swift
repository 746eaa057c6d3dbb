import PlistModel

extension XMLReader {
    /// What `text` writes: compact JSON as `JSONWriter.encode(_:pretty:chunk:to:)` writes
    /// it, or the text `read D` prints (`DefaultsPrinter.render`).
    package enum TextForm { case json, defaults }

    /// The XML property list `input` as `form`, byte for byte what the writer of that form
    /// writes for its values, written as the text is read (`XMLText`): no values are built
    /// but the scalars, one at a time, so a big domain's text costs its file and the answer,
    /// not a tree of every value (a third of the time went to building and freeing one). A
    /// big document is read on two threads through `inParallel` (`XMLWalk.read`).
    ///
    /// Nil when the values' way must write it: the root is no dictionary, or (for `read D`)
    /// an empty one; a dictionary's keys are not in strictly ascending byte order (a key
    /// twice, whose last value would count, or out of the order the text is in); in JSON, a
    /// key starts with `$` (a one-key dictionary JSON would wrap in `$dict`); the second
    /// half could not be read. Throws what reading the document throws, though not always
    /// the first error the values' way would report: a caller reports that one.
    package static func text(
        _ input: [UInt8], as form: TextForm, inParallel: PropertyList.InParallel? = nil, halvesFrom: Int = halvesFrom
    ) throws(PlistError) -> [UInt8]? {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) -> [UInt8]? in
            let read = try XMLWalk.read(buffer, inParallel: inParallel, halvesFrom: halvesFrom) { from in
                XMLText(form: form, capacity: buffer.count - from)
            } root: {
                $0.kind == .dict && (form == .json || !$0.selfClosing)
            }
            guard let consumer = read?.consumer else { return nil }
            // Moved out, not copied: a second reference would copy it all on the append below.
            _ = consume read
            var out = consumer.out
            _ = consume consumer
            // `{`, a line break and `}`: no entry, so no domain for `read D` to print.
            if form == .defaults, out.count == 3 { return nil }
            out.append(UInt8(ascii: "\n"))
            return out
        }
    }
}

/// Writes the values as they are read, as the form's writer writes them: its pieces are
/// the writer's own (`JSONWriter`, `DefaultsPrinter`), so the two never differ.
struct XMLText: XMLConsumer {
    let form: XMLReader.TextForm
    var out: [UInt8] = []

    init(form: XMLReader.TextForm, capacity: Int) {
        self.form = form
        out.reserveCapacity(capacity)
    }

    /// The first and last key written, nil before the first: where they are in the text
    /// (or decoded, their own), not copies.
    typealias Dict = (first: XMLReader.Text, last: XMLReader.Text)?
    /// The elements written.
    typealias List = Int
    /// The second half's text, and its first and last key.
    typealias Half = (text: [UInt8], keys: Dict)

    mutating func openDict(_ r: XMLReader) -> Dict {
        open(UInt8(ascii: "{"), UInt8(ascii: "{"), r)
        return nil
    }

    mutating func key(_ text: XMLReader.Text, in dict: inout Dict, _ r: XMLReader) throws(PlistError) -> Void? {
        // The key's bytes, checked as UTF-8 but made into no `String`.
        try r.validate(text)
        let inOrder = XMLReader.withBytes(text, in: r.bytes) { key in
            guard form == .defaults || !JSONWriter.isTagKey(key) else { return false }
            if let last = dict?.last {
                guard XMLReader.withBytes(last, in: r.bytes, { bytesPrecede($0.span, key.span) }) else { return false }
            }
            if form == .json {
                if dict != nil { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendKey(key, nil, &out)
            } else {
                DefaultsPrinter.appendEntryStart(key, level: r.depth, &out)
            }
            return true
        }
        guard inOrder else { return nil }
        if dict == nil { dict = (text, text) } else { dict!.last = text }
        return ()
    }

    mutating func add(_ key: Void, _ value: Void, to dict: inout Dict) {
        if form == .defaults { DefaultsPrinter.appendEntryEnd(&out) }
    }

    mutating func closeDict(_ dict: Dict, _ r: XMLReader) -> Void? {
        close(UInt8(ascii: "}"), UInt8(ascii: "}"), r)
    }

    mutating func openList(_ r: XMLReader) -> Int {
        open(UInt8(ascii: "["), UInt8(ascii: "("), r)
        return 0
    }

    mutating func nextElement(in count: inout Int, _ r: XMLReader) {
        if form == .json {
            if count > 0 { out.append(UInt8(ascii: ",")) }
        } else {
            DefaultsPrinter.appendElementStart(first: count == 0, level: r.depth, &out)
        }
        count += 1
    }

    func add(_ value: Void, to list: inout Int) {}

    mutating func closeList(_ count: Int, _ r: XMLReader) -> Void? {
        close(UInt8(ascii: "]"), UInt8(ascii: ")"), afterElements: count > 0, r)
    }

    /// A block's start, with the bracket of the form.
    private mutating func open(_ json: UInt8, _ defaults: UInt8, _ r: XMLReader) {
        guard form == .defaults else { return out.append(json) }
        DefaultsPrinter.open(defaults, level: r.depth, &out)
    }

    private mutating func close(_ json: UInt8, _ defaults: UInt8, afterElements: Bool = false, _ r: XMLReader)
        -> Void?
    {
        if form == .json {
            out.append(json)
        } else {
            DefaultsPrinter.close(defaults, afterElements: afterElements, level: r.depth, &out)
        }
        return ()
    }

    mutating func string(_ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> Void? {
        // From the text's bytes, checked as UTF-8: no `String` made of each.
        try r.validate(text)
        XMLReader.withBytes(text, in: r.bytes) { bytes in
            if form == .json {
                JSONWriter.appendString(bytes, &out)
            } else {
                DefaultsPrinter.appendQuoted(bytes, &out)
            }
        }
        return ()
    }

    mutating func scalar(_ kind: XMLReader.Kind, _ text: XMLReader.Text, _ r: XMLReader) throws(PlistError)
        -> Void?
    {
        // Base64 as JSON writes it, and a date as XML writes it (its RFC 3339 text too),
        // are copied; any other is read (or refused) as the values' way reads it.
        let copied =
            form == .json && (kind == .data || kind == .date)
            && XMLReader.withBytes(text, in: r.bytes) { bytes in
                switch kind {
                case .data: return JSONWriter.appendData(base64: bytes, &out)
                case .date where XMLDate.isCanonical(bytes):
                    JSONWriter.appendDate(canonical: bytes, &out)
                    return true
                default: return false
                }
            }
        if !copied { write(try r.scalar(kind, text), level: r.depth) }
        return ()
    }

    /// A scalar, as the form's writer writes it.
    private mutating func write(_ value: PlistValue, level: Int) {
        if form == .json {
            JSONWriter.write(value, nil, into: &out)
        } else {
            DefaultsPrinter.describe(value, level: level, into: &out)
        }
    }

    func openHalf(_ r: XMLReader) -> Dict { nil }

    func half(_ dict: Dict) -> Half? { (out, dict) }

    mutating func join(_ half: Half, to dict: inout Dict, _ r: XMLReader) -> Bool {
        guard let theirs = half.keys else { return true }
        if let ours = dict?.last {
            // Both halves' keys are in the one buffer (or decoded, their own).
            let inOrder = XMLReader.withBytes(ours, in: r.bytes) { last in
                XMLReader.withBytes(theirs.first, in: r.bytes) { bytesPrecede(last.span, $0.span) }
            }
            guard inOrder else { return false }
            if form == .json { out.append(UInt8(ascii: ",")) }
        }
        out.append(contentsOf: half.text)
        dict = (dict?.first ?? theirs.first, theirs.last)
        return true
    }
}
