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
    package static func binary(
        _ input: [UInt8], inParallel: PropertyList.InParallel? = nil, halvesFrom: Int = halvesFrom
    ) throws(PlistError) -> [UInt8]? {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) -> [UInt8]? in
            try binaryPlist(buffer, inParallel: inParallel, halvesFrom: halvesFrom, owner: nil, mapped: nil)?.bytes
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
        inParallel: PropertyList.InParallel? = nil, halvesFrom: Int = halvesFrom
    ) throws(PlistError) -> XMLBinaryPlist? {
        try binaryPlist(bytes, inParallel: inParallel, halvesFrom: halvesFrom, owner: owner, mapped: dropPages)
    }

    private static func binaryPlist(
        _ buffer: UnsafeBufferPointer<UInt8>, inParallel: PropertyList.InParallel?, halvesFrom: Int,
        owner: AnyObject?, mapped dropPages: (@Sendable () -> Void)?
    ) throws(PlistError) -> XMLBinaryPlist? {
        // Every value takes 6 bytes of text or more (`<key/>`), so under 2 GiB its objects
        // and references are numbered within `Int32`, and its offsets fit a node.
        guard buffer.count < XMLNodes.maximumText else { return nil }
        let read = try XMLWalk.read(buffer, inParallel: inParallel, halvesFrom: halvesFrom) { from in
            XMLNodeReading(nodes: XMLNodes(capacity: (buffer.count - from) / 24), progress: dropPages)
        } root: {
            $0.kind == .dict
        }
        guard let consumer = read?.consumer else { return nil }
        // Moved out, not copied: numbering changes the nodes (`XMLBinaryPlist.init`).
        _ = consume read
        let nodes = consumer.nodes
        _ = consume consumer
        dropPages?()
        guard nodes.count <= XMLNodes.maximumNumbered else { return nil }
        return XMLBinaryPlist(nodes, text: buffer, owner: owner, dropPages: dropPages)
    }
}

/// Reads the values into one small node each (`XMLNodes`), for `XMLReader.binary`; leaves
/// the document to the values' way as `binary` says.
struct XMLNodeReading: XMLConsumer {
    var nodes: XMLNodes
    /// Told every `progressEntries` entries of a dictionary: set only for a mapped file
    /// (`binaryPlist(mapped:owner:dropPages:)`), whose pages read so far it gives back, and
    /// whose non-ASCII strings it copies.
    let progress: (@Sendable () -> Void)?
    static let progressEntries = 16_384

    /// The dictionary's node (-1 for the second half's root, which has none), its count,
    /// and its last key's node (-1 for none).
    typealias Dict = (index: Int, count: Int, lastKey: Int)
    typealias List = (index: Int, count: Int)
    /// The second half's nodes, and its root's count and last key there.
    typealias Half = (nodes: XMLNodes, count: Int, lastKey: Int)

    mutating func openDict(_ r: XMLReader) -> Dict { (nodes.open(.dict), 0, -1) }

    mutating func key(_ text: XMLReader.Text, in dict: inout Dict, _ r: XMLReader) throws(PlistError) -> Void? {
        if let progress, dict.count % Self.progressEntries == Self.progressEntries - 1 { progress() }
        // `{CF$UID = n}` is how a UID is kept, and the writer writes it back as one.
        let uid = r.withBytes(text) { $0.count == 6 && $0.elementsEqual(BinaryReader.uidKey.utf8) }
        let key = nodes.count
        guard !uid, try addString(text, r), dict.lastKey < 0 || nodes.precedes(dict.lastKey, key, text: r.bytes)
        else { return nil }
        dict.lastKey = key
        dict.count += 1
        return ()
    }

    func add(_ key: Void, _ value: Void, to dict: inout Dict) {}

    mutating func closeDict(_ dict: Dict, _ r: XMLReader) -> Void? {
        nodes.close(dict.index, count: dict.count) ? () : nil
    }

    mutating func openList(_ r: XMLReader) -> List { (nodes.open(.array), 0) }
    func nextElement(in list: inout List, _ r: XMLReader) { list.count += 1 }
    func add(_ value: Void, to list: inout List) {}
    mutating func closeList(_ list: List, _ r: XMLReader) -> Void? {
        nodes.close(list.index, count: list.count) ? () : nil
    }

    mutating func string(_ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> Void? {
        try addString(text, r) ? () : nil
    }

    mutating func scalar(_ kind: XMLReader.Kind, _ text: XMLReader.Text, _ r: XMLReader) throws(PlistError)
        -> Void?
    {
        // Bools, numbers, dates and data as the values' way reads them (and refuses them).
        switch try r.scalar(kind, text) {
        case .bool(let b): nodes.add(.bool, b ? 1 : 0)
        case .int(let i): nodes.add(i.isUnsigned ? .unsigned : .int, i.bitPattern)
        case .double(let d): nodes.add(.real, d.bitPattern)
        case .date(let d): nodes.add(.date, d.secondsSince2001.bitPattern)
        case .data(let bytes): return bytes.withUnsafeBufferPointer { nodes.addData($0) } ? () : nil
        default: return nil
        }
        return ()
    }

    /// A string's node, checked as UTF-8: where it lies in the text, or its decoded bytes.
    /// An ASCII string (nearly every one) is looked at once, for the check and its kind.
    private mutating func addString(_ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> Bool {
        let ascii = r.withBytes(text, ByteWords.isASCII)
        if !ascii { try r.validate(text) }
        switch text {
        case .slice(let range):
            // A mapping's non-ASCII string, copied (see `binaryPlist(mapped:owner:dropPages:)`).
            let offset = ascii || progress == nil ? range.lowerBound : nil
            return nodes.addString(UnsafeBufferPointer(rebasing: r.bytes[range]), at: offset, ascii: ascii)
        case .decoded(let owned): return owned.withUnsafeBufferPointer { nodes.addString($0, at: nil, ascii: ascii) }
        }
    }

    func openHalf(_ r: XMLReader) -> Dict { (-1, 0, -1) }

    func half(_ dict: Dict) -> Half? { (nodes, dict.count, dict.lastKey) }

    /// The other half's nodes after these: its first node is its first key.
    mutating func join(_ half: Half, to dict: inout Dict, _ r: XMLReader) -> Bool {
        let first = nodes.count
        guard nodes.append(half.nodes) else { return false }
        if dict.lastKey >= 0, half.count > 0 {
            guard nodes.precedes(dict.lastKey, first, text: r.bytes) else { return false }
        }
        dict.count += half.count
        if half.lastKey >= 0 { dict.lastKey = first + half.lastKey }
        return true
    }
}
