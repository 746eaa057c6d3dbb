import PlistModel

extension XMLReader {
    /// The compact JSON of the XML property list `input`, byte for byte what
    /// `JSONWriter.encode(_:pretty:chunk:to:)` writes for its values, written as the text
    /// is read: no values are built but the scalars, one at a time, so a big domain's JSON
    /// costs its text and its file, not a tree of every value (a third of the time went to
    /// building and freeing one). A big document is read on two threads through
    /// `inParallel`, in halves as `read` reads one.
    ///
    /// Nil when the values' way must write it: the root is no dictionary; a dictionary's
    /// keys are not in strictly ascending byte order (a key twice, whose last value would
    /// count); a key starts with `$` (a one-key dictionary JSON would wrap in `$dict`); the
    /// second half could not be read. Throws what reading the document throws, though not
    /// always the first error the values' way would report: a caller reports that one.
    package static func json(_ input: [UInt8], inParallel: PropertyList.InParallel? = nil) throws(PlistError)
        -> [UInt8]?
    {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) -> [UInt8]? in
            var reader = XMLReader(buffer, wanted: nil)
            if let inParallel, buffer.count >= 1 << 20, let split = entryLine(in: buffer, after: buffer.count / 2) {
                let shared = SharedText(buffer)
                let join = inParallel {
                    var other = XMLReader(shared.buffer, wanted: nil)
                    other.pos = split
                    other.depth = 1
                    var out: [UInt8] = []
                    out.reserveCapacity((shared.buffer.count - split) / 2)
                    var keys: (first: String, last: String)?
                    do throws(PlistError) {
                        let whole = try other.writeJSONEntries(into: &out, keys: &keys)
                        return .success(
                            SecondHalf(entries: PlistDictionary(), end: other.pos, json: whole ? out : nil, keys: keys))
                    } catch {
                        return .failure(error)
                    }
                }
                // Joined on every way out: the other reader reads this buffer.
                defer { _ = join() }
                reader.stopAt = split
                reader.secondHalf = join
                return try reader.jsonDocument(size: buffer.count)
            }
            return try reader.jsonDocument(size: buffer.count)
        }
    }

    private mutating func jsonDocument(size: Int) throws(PlistError) -> [UInt8]? {
        let (tag, wrapped) = try rootTag()
        guard tag.kind == .dict else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(size / 2)
        guard try writeJSON(tag, into: &out) else { return nil }
        try end(wrapped: wrapped)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Writes the value whose tag was just read as `JSONWriter.write` writes it, compact;
    /// false when the document must be left to the values' way (see `json`).
    private mutating func writeJSON(_ tag: Tag, into out: inout [UInt8]) throws(PlistError) -> Bool {
        switch tag.kind {
        case .dict:
            out.append(UInt8(ascii: "{"))
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                var keys: (first: String, last: String)?
                guard try writeJSONEntries(into: &out, keys: &keys) else { return false }
                if stoppedAt, let join = secondHalf {
                    // This reader stopped where the other began, at an entry of the root:
                    // the other's entries follow, and it read the root's end.
                    stoppedAt = false
                    guard case .success(let half) = join(), let json = half.json else { return false }
                    if let theirs = half.keys {
                        guard keys.map({ byteOrderPrecedes($0.last, theirs.first) }) ?? true else { return false }
                        if keys != nil { out.append(UInt8(ascii: ",")) }
                        out.append(contentsOf: json)
                    }
                    pos = half.end
                }
            }
            out.append(UInt8(ascii: "}"))
        case .array:
            out.append(UInt8(ascii: "["))
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                var first = true
                while let element = try nextElement() {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    guard try writeJSON(element, into: &out) else { return false }
                }
            }
            out.append(UInt8(ascii: "]"))
        default:
            JSONWriter.write(try value(tag), nil, into: &out)
        }
        return true
    }

    /// A dictionary's entries, up to its end (or the root's up to `stopAt`), as `"key":value`
    /// separated by commas; `keys` is the first and last key written.
    private mutating func writeJSONEntries(into out: inout [UInt8], keys: inout (first: String, last: String)?)
        throws(PlistError) -> Bool
    {
        while let (keyText, _, valueTag) = try nextEntry() {
            let key = try string(keyText)
            guard key.utf8.first != UInt8(ascii: "$"), keys.map({ byteOrderPrecedes($0.last, key) }) ?? true else {
                return false
            }
            if keys != nil { out.append(UInt8(ascii: ",")) }
            keys = (keys?.first ?? key, key)
            JSONWriter.appendString(key, &out)
            out.append(UInt8(ascii: ":"))
            guard try writeJSON(valueTag, into: &out) else { return false }
        }
        return true
    }
}
