import PlistModel

extension XMLReader {
    /// The XML property list `input` as a binary one, byte for byte what `BinaryWriter`
    /// writes for its values, without building them: the text is read into one small
    /// node per value (`XMLNodes`), which are numbered in the writer's order and written.
    /// A big document is read on two threads, in halves as `read` reads one.
    ///
    /// Nil when the values' way must write it: the root is no dictionary; a dictionary's
    /// keys are not in strictly ascending byte order (a key twice, whose last value would
    /// count, or keys the writer would reorder); a key is `CF$UID` (a UID's spelling); the
    /// document is 2 GiB or more, holds more than 16,777,214 values, or a text or a count
    /// too long for a node; the second half could not be read. Throws what reading the
    /// document throws, though not always the first error the values' way would report: a
    /// caller reports that one.
    package static func binary(_ input: [UInt8], inParallel: PropertyList.InParallel? = nil)
        throws(PlistError) -> [UInt8]?
    {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) -> [UInt8]? in
            try binaryPlist(buffer, inParallel: inParallel, owner: nil, mapped: nil)?.bytes
        }
    }

    /// `binary` of a mapped file's bytes, UTF-8 as they are (`TextDecoding.isUTF8AsIs`),
    /// read and numbered, to be written in pieces (`XMLBinaryPlist.write`), never whole.
    /// `owner` keeps the bytes alive as long as the answer. Its pages are given back
    /// (`dropPages`) as they are read, numbered and written. Another program may change the
    /// bytes meanwhile (a truncation is the mapping's to catch): what is read is checked as
    /// it is read, and a string that is not ASCII, whose size is worked out from its bytes
    /// each time it is written, is copied as it is read, so a change makes at worst a wrong
    /// file, never a write out of bounds.
    package static func binaryPlist(
        mapped bytes: UnsafeBufferPointer<UInt8>, owner: AnyObject?, dropPages: @escaping @Sendable () -> Void,
        inParallel: PropertyList.InParallel? = nil
    ) throws(PlistError) -> XMLBinaryPlist? {
        try binaryPlist(bytes, inParallel: inParallel, owner: owner, mapped: dropPages)
    }

    private static func binaryPlist(
        _ buffer: UnsafeBufferPointer<UInt8>, inParallel: PropertyList.InParallel?, owner: AnyObject?,
        mapped dropPages: (@Sendable () -> Void)?
    ) throws(PlistError) -> XMLBinaryPlist? {
        // Every value takes 6 bytes of text or more (`<key/>`), so under 2 GiB its objects
        // and references are numbered within `Int32`, and its offsets fit a node.
        guard buffer.count < XMLNodes.maximumText else { return nil }
        do {
            var reader = XMLReader(buffer, wanted: nil)
            reader.progress = dropPages
            var nodes = XMLNodes(capacity: buffer.count / 24)
            var join: (() -> Result<SecondHalf, PlistError>)?
            // Joined on every way out, and only then or where the first half ends (this
            // function's scope, not the `if`'s, which would join before reading): the
            // other reader reads this buffer.
            defer { _ = join?() }
            if let inParallel, buffer.count >= 1 << 20, let split = entryLine(in: buffer, after: buffer.count / 2) {
                let shared = SharedText(buffer)
                // Made here, not on the other thread: that thread's allocations come from a
                // malloc heap of its own, whose freed top stays resident (it grows in 16 MB
                // steps, `growHeapsInBigSteps`); made here, it is given back once let go of.
                let room = Room(XMLNodes(capacity: (buffer.count - split) / 24))
                join = inParallel {
                    var other = XMLReader(shared.buffer, wanted: nil)
                    other.progress = dropPages
                    other.pos = split
                    other.depth = 1
                    // Taken out, so that it is the only reference and grows in place.
                    var half = room.nodes.take()!
                    do throws(PlistError) {
                        let read = try other.readEntries(into: &half)
                        return .success(
                            SecondHalf(entries: PlistDictionary(), end: other.pos, nodes: read.map { (half, $0.count) })
                        )
                    } catch {
                        return .failure(error)
                    }
                }
                reader.stopAt = split
                reader.secondHalf = join
            }
            let (tag, wrapped) = try reader.rootTag()
            guard tag.kind == .dict, try reader.readNode(tag, into: &nodes) else { return nil }
            try reader.end(wrapped: wrapped)
            // The other reader, joined where this one stopped (`readNode` let go of it), is let
            // go of here too: the thread holds its half's nodes, copied after these, until then.
            if join != nil, reader.secondHalf == nil { join = nil }
            dropPages?()
            guard nodes.count <= XMLNodes.maximumNumbered else { return nil }
            return XMLBinaryPlist(consume nodes, text: buffer, owner: owner, dropPages: dropPages)
        }
    }

    /// The second half's nodes, made by the first thread and taken by the second.
    private final class Room: @unchecked Sendable {
        var nodes: XMLNodes?
        init(_ nodes: XMLNodes) { self.nodes = nodes }
    }

    /// `BinaryReader.uidKey`'s bytes.
    private static let uidKey: StaticString = "CF$UID"

    /// Reads the value whose tag was just read into `nodes`; false when the document must
    /// be left to the values' way (see `binary`).
    private mutating func readNode(_ tag: Tag, into nodes: inout XMLNodes) throws(PlistError) -> Bool {
        switch tag.kind {
        case .dict:
            let index = nodes.open(.dict)
            var count = 0
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                guard let (read, lastKey) = try readEntries(into: &nodes) else { return false }
                count = read
                if stoppedAt, let join = secondHalf {
                    // This reader stopped where the other began, at an entry of the root:
                    // the other's entries follow (the first node theirs, their first key),
                    // and it read the root's end.
                    stoppedAt = false
                    // Joined once: let go of, so that its nodes, once copied, can be too.
                    secondHalf = nil
                    guard case .success(let half) = join(), let (theirs, added) = half.nodes else { return false }
                    let first = nodes.count
                    guard nodes.append(theirs) else { return false }
                    if lastKey >= 0, added > 0 {
                        guard nodes.precedes(lastKey, first, text: bytes) else { return false }
                    }
                    count += added
                    pos = half.end
                }
            }
            return nodes.close(index, count: count)
        case .array:
            let index = nodes.open(.array)
            var count = 0
            if !tag.selfClosing {
                try enter()
                defer { depth -= 1 }
                while let element = try nextElement() {
                    count += 1
                    guard try readNode(element, into: &nodes) else { return false }
                }
            }
            return nodes.close(index, count: count)
        case .string:
            guard !tag.selfClosing else {
                return nodes.addString(UnsafeBufferPointer(start: nil, count: 0), at: nil, ascii: true)
            }
            let text = try text()
            try closeTag(.string)
            return try addString(text, to: &nodes)
        case .true, .false:
            if !tag.selfClosing { try closeTag(tag.kind) }
            nodes.add(.bool, UInt64(tag.kind == .true ? 1 : 0))
        default:
            // Numbers, dates and data as the values' way reads them (and refuses them).
            switch try value(tag) {
            case .int(let i): nodes.add(i.isUnsigned ? .unsigned : .int, i.bitPattern)
            case .double(let d): nodes.add(.real, d.bitPattern)
            case .date(let d): nodes.add(.date, d.secondsSince2001.bitPattern)
            case .data(let bytes): return bytes.withUnsafeBufferPointer { nodes.addData($0) }
            default: return false
            }
        }
        return true
    }

    /// A dictionary's entries up to its end (or the root's up to `stopAt`), keys in
    /// strictly ascending byte order: their count and the last key's node (-1 for none),
    /// or nil (see `binary`).
    private mutating func readEntries(into nodes: inout XMLNodes) throws(PlistError) -> (count: Int, lastKey: Int)? {
        var count = 0
        var lastKey = -1
        while let (keyText, _, valueTag) = try nextEntry() {
            if let progress, count % XMLReader.progressEntries == XMLReader.progressEntries - 1 { progress() }
            // `{CF$UID = n}` is how a UID is kept, and the writer writes it back as one.
            guard
                !withBytes(
                    keyText,
                    {
                        $0.count == 6 && bytesEqual($0, UnsafeBufferPointer(start: Self.uidKey.utf8Start, count: 6))
                    })
            else { return nil }
            let key = nodes.count
            guard try addString(keyText, to: &nodes), lastKey < 0 || nodes.precedes(lastKey, key, text: bytes) else {
                return nil
            }
            lastKey = key
            count += 1
            guard try readNode(valueTag, into: &nodes) else { return nil }
        }
        return (count, lastKey)
    }

    /// A string's node, checked as UTF-8: where it lies in the text, or its decoded bytes.
    /// An ASCII string (nearly every one) is looked at once, for the check and its kind.
    private func addString(_ text: Text, to nodes: inout XMLNodes) throws(PlistError) -> Bool {
        let ascii = withBytes(text, ByteWords.isASCII)
        if !ascii { try validate(text) }
        switch text {
        case .slice(let range):
            // A mapping's non-ASCII string, copied (see `binaryPlist(mapped:owner:dropPages:)`).
            let offset = ascii || progress == nil ? range.lowerBound : nil
            return nodes.addString(UnsafeBufferPointer(rebasing: bytes[range]), at: offset, ascii: ascii)
        case .decoded(let owned): return owned.withUnsafeBufferPointer { nodes.addString($0, at: nil, ascii: ascii) }
        }
    }
}
