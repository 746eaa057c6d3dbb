import PlistModel

/// The values of an XML property list as `XMLReader.binary` reads them: one 16-byte node
/// each, in the order of the text (a container before its contents, a dictionary's key
/// before its value), scalars hashed as they are read so that numbering only probes.
struct XMLNodes {
    /// `ascii` and `unicode` are strings, told apart as they are read: the binary writes
    /// them differently, and text that is one is never the other.
    enum Kind: UInt32 { case ascii, unicode, data, bool, int, unsigned, real, date, array, dict }

    struct Node {
        /// A number's, date's or bool's bits; where a string or data lies (in the text, or
        /// in `decoded` with `inDecoded` set); for a container, the index past its last
        /// node while reading, then where its references start once numbered.
        var payload: UInt64
        /// The scalar's hash, its slot in the numbering's table.
        var hash: UInt32
        /// The kind in the top four bits, and the byte or element count.
        var info: UInt32

        var kind: Kind { Kind(rawValue: info >> 28)! }
        var count: Int { Int(info & XMLNodes.maximumCount) }
    }

    static let maximumCount: UInt32 = (1 << 28) - 1
    /// The most values a document written straight may hold (see `Numbering`).
    static let maximumNumbered = Numbering.maximumCount
    static let inDecoded: UInt64 = 1 << 63

    private(set) var nodes: [Node] = []
    /// Decoded strings (those with references, CDATA or comments) and data, end to end.
    private var decoded: [UInt8] = []

    init(capacity: Int) { nodes.reserveCapacity(capacity) }

    var count: Int { nodes.count }

    // MARK: Reading

    mutating func add(_ kind: Kind, _ bits: UInt64) {
        var h = BinaryWriter.hashStart
        BinaryWriter.mix(&h, UInt64(kind.rawValue))
        BinaryWriter.mix(&h, bits)
        nodes.append(Node(payload: bits, hash: UInt32(truncatingIfNeeded: h), info: kind.rawValue << 28))
    }

    /// A string, `at` its offset in the text, or copied into `decoded` when nil; `ascii`
    /// is whether all its bytes are.
    mutating func addString(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int?, ascii: Bool) -> Bool {
        addBytes(ascii ? .ascii : .unicode, bytes, at: offset)
    }

    mutating func addData(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { addBytes(.data, bytes, at: nil) }

    private mutating func addBytes(_ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int?) -> Bool {
        guard bytes.count <= Self.maximumCount else { return false }
        var h = BinaryWriter.hashStart
        BinaryWriter.mix(&h, UInt64(kind.rawValue))
        BinaryWriter.mix(&h, UnsafeRawBufferPointer(bytes))
        var payload: UInt64
        if let offset {
            payload = UInt64(offset)
        } else {
            payload = UInt64(decoded.count) | Self.inDecoded
            decoded.appendBytes(bytes)
        }
        nodes.append(
            Node(payload: payload, hash: UInt32(truncatingIfNeeded: h), info: kind.rawValue << 28 | UInt32(bytes.count))
        )
        return true
    }

    /// A container's node, its count and end set by `close`.
    mutating func open(_ kind: Kind) -> Int {
        nodes.append(Node(payload: 0, hash: 0, info: kind.rawValue << 28))
        return nodes.count - 1
    }

    mutating func close(_ index: Int, count: Int) -> Bool {
        guard count <= Self.maximumCount else { return false }
        nodes[index].info |= UInt32(count)
        nodes[index].payload = UInt64(nodes.count)
        return true
    }

    /// The nodes another reader read (the root's second half), after these.
    mutating func append(_ other: XMLNodes) {
        let base = UInt64(nodes.count), decodedBase = UInt64(decoded.count)
        nodes.reserveCapacity(nodes.count + other.nodes.count)
        for var node in other.nodes {
            switch node.kind {
            case .array, .dict: node.payload += base
            case .ascii, .unicode, .data: if node.payload & Self.inDecoded != 0 { node.payload += decodedBase }
            default: break
            }
            nodes.append(node)
        }
        decoded.append(contentsOf: other.decoded)
    }

    /// Whether key `a`'s bytes sort strictly before key `b`'s.
    func precedes(_ a: Int, _ b: Int, text: UnsafeBufferPointer<UInt8>) -> Bool {
        decoded.withUnsafeBufferPointer { decoded in
            let bytes = Bytes(text: text, decoded: decoded)
            return bytesPrecede(bytes.of(nodes[a]), bytes.of(nodes[b]))
        }
    }

    /// Where strings and data lie: in the text, or decoded (while reading, only as long as
    /// `decoded` is not appended to).
    struct Bytes {
        let text: UnsafeBufferPointer<UInt8>
        let decoded: UnsafeBufferPointer<UInt8>

        @inline(__always)
        func of(_ node: Node) -> UnsafeBufferPointer<UInt8> {
            let start = Int(node.payload & ~XMLNodes.inDecoded)
            let from = node.payload & XMLNodes.inDecoded == 0 ? text : decoded
            return UnsafeBufferPointer(start: from.baseAddress.map { $0 + start }, count: node.count)
        }
    }
}

// MARK: Writing

/// An XML property list read into nodes and numbered (`XMLReader.binaryPlist`), ready to be
/// written as a binary one in pieces: the answer is never held whole, nor where each of its
/// objects lies. It holds the text's bytes as they were given: `owner` keeps them alive.
package final class XMLBinaryPlist {
    private var nodes: XMLNodes
    private let numbering: XMLNodes.Numbering
    private let text: UnsafeBufferPointer<UInt8>
    private let owner: AnyObject?
    private let dropPages: (@Sendable () -> Void)?

    init(
        _ nodes: consuming XMLNodes, text: UnsafeBufferPointer<UInt8>, owner: AnyObject?,
        dropPages: (@Sendable () -> Void)?
    ) {
        // Moved, not copied: numbering changes the nodes, and a second reference to them
        // would copy all of them first.
        self.nodes = consume nodes
        numbering = self.nodes.numbered(text: text, dropPages: dropPages)
        (self.text, self.owner, self.dropPages) = (text, owner, dropPages)
    }

    /// The binary property list, byte for byte what `BinaryWriter.encode` writes for the
    /// values, handed to `sink` in pieces of at most `chunk` bytes (an object bigger than
    /// that, alone).
    package func write(chunk: Int = 1 << 18, to sink: (ArraySlice<UInt8>) throws -> Void) rethrows {
        try nodes.write(numbering, text: text, chunk: chunk, dropPages: dropPages, to: sink)
    }

    /// All of it, in one array.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write { out.append(contentsOf: $0) }
        return out
    }
}

extension XMLNodes {
    /// The nodes numbered as `BinaryWriter` numbers the values they stand for: depth
    /// first (a container before its contents, a dictionary's keys before its values), each
    /// scalar once. Numbering goes through pointers: the arrays' checks were a third of it.
    /// `dropPages` (a mapped text's) is told every `XMLReader.progressEntries` objects
    /// numbered, and once done.
    fileprivate mutating func numbered(text: UnsafeBufferPointer<UInt8>, dropPages: (@Sendable () -> Void)?)
        -> Numbering
    {
        var numbering = Numbering(count: nodes.count)
        numbering.dropPages = dropPages
        decoded.withUnsafeBufferPointer { decoded in
            nodes.withUnsafeMutableBufferPointer { nodes in
                _ = numbering.number(0, nodes.baseAddress!, Bytes(text: text, decoded: decoded))
            }
        }
        numbering.freeSlots()
        dropPages?()
        return numbering
    }

    /// The numbered objects written in order, in pieces of at most `chunk` bytes: each
    /// object sized and stored into the piece, then the offset table, each object sized
    /// again, and the trailer. Nothing sized is kept: the sizes are worked out once more
    /// for the table (a string's by its bytes), rather than held, 8 bytes an object.
    fileprivate func write(
        _ numbering: borrowing Numbering, text: UnsafeBufferPointer<UInt8>, chunk: Int,
        dropPages: (@Sendable () -> Void)?, to sink: (ArraySlice<UInt8>) throws -> Void
    ) rethrows {
        let (objects, references, objectCount) = (numbering.objects, numbering.references, numbering.objectCount)
        let refSize = BinaryWriter.width(UInt64(objectCount - 1))
        try decoded.withUnsafeBufferPointer { decoded in
            try nodes.withUnsafeBufferPointer { nodes in
                let bytes = Bytes(text: text, decoded: decoded)
                func node(_ o: Int) -> Node { nodes[Int(objects[o])] }
                func size(_ o: Int) -> Int { XMLNodes.size(node(o), refSize: refSize, bytes) }
                var end = BinaryWriter.header.count, last = end
                for o in 0..<objectCount {
                    last = end
                    end += size(o)
                }
                let offsetSize = BinaryWriter.width(UInt64(last))
                let room = max(chunk, 64)
                var out = [UInt8](repeating: 0, count: room)
                var used = 0
                func flush() throws {
                    if used > 0 { try sink(out[0..<used]) }
                    used = 0
                }
                for byte in BinaryWriter.header {
                    out[used] = byte
                    used += 1
                }
                // The objects, as many to a piece as fit; one bigger than a piece, alone.
                var o = 0
                while o < objectCount {
                    var alone = false
                    out.withUnsafeMutableBufferPointer { piece in
                        while o < objectCount {
                            let n = size(o)
                            guard n <= room - used else {
                                alone = n > room
                                return
                            }
                            if let dropPages, o % XMLReader.progressEntries == 0 { dropPages() }
                            XMLNodes.store(
                                node(o), at: piece.baseAddress! + used, refSize: refSize, references: references, bytes)
                            used += n
                            o += 1
                        }
                    }
                    try flush()
                    if alone {
                        var one = [UInt8](repeating: 0, count: size(o))
                        one.withUnsafeMutableBufferPointer { one in
                            XMLNodes.store(
                                node(o), at: one.baseAddress!, refSize: refSize, references: references, bytes)
                        }
                        try sink(one[...])
                        o += 1
                    }
                }
                // The offset table, each object sized again, then the trailer.
                var offset = BinaryWriter.header.count
                o = 0
                while o < objectCount {
                    out.withUnsafeMutableBufferPointer { piece in
                        while o < objectCount, used + offsetSize <= room {
                            BinaryWriter.storeBigEndian(
                                UInt64(offset), width: offsetSize, at: piece.baseAddress! + used)
                            used += offsetSize
                            offset += size(o)
                            o += 1
                        }
                    }
                    if o < objectCount { try flush() }
                }
                if used + 32 > room { try flush() }
                out.withUnsafeMutableBufferPointer { piece in
                    BinaryWriter.storeTrailer(
                        offsetSize: offsetSize, refSize: refSize, count: objectCount, root: 0, tableOffset: end,
                        at: piece.baseAddress! + used)
                }
                used += 32
                try flush()
            }
        }
    }

    /// The objects of a binary property list: for each, the node it is written from, and
    /// the containers' references end to end (neither more than there are nodes).
    fileprivate struct Numbering: ~Copyable {
        let objects: UnsafeMutablePointer<Int32>
        var objectCount = 0
        let references: UnsafeMutablePointer<Int32>
        var referenceCount = 0
        /// The scalars numbered so far: open addressing by a node's hash, each slot the
        /// hash's top byte (high 8 bits) and the object's number plus one (low 24 bits, zero
        /// when empty): 4 bytes a slot, not 8, and a match by the top byte is rarely false.
        var slots: UnsafeMutablePointer<UInt32>?
        let mask: Int
        /// A mapped text's, told every `XMLReader.progressEntries` objects numbered: a
        /// repeated string is compared with its first, anywhere in the text.
        var dropPages: (@Sendable () -> Void)?

        /// The most nodes a numbering takes: their numbers plus one fit a slot's 24 bits.
        static let maximumCount = (1 << 24) - 2

        /// Room for `count` nodes (at most `maximumCount`): the table never more than two
        /// thirds full.
        init(count: Int) {
            var size = 16
            while size * 2 < count * 3 { size <<= 1 }
            slots = .allocate(capacity: size)
            slots!.initialize(repeating: 0, count: size)
            mask = size - 1
            objects = .allocate(capacity: max(count, 1))
            references = .allocate(capacity: max(count, 1))
        }

        deinit {
            slots?.deallocate()
            objects.deallocate()
            references.deallocate()
        }

        /// Only numbering needs the table.
        mutating func freeSlots() {
            slots?.deallocate()
            slots = nil
        }

        /// Numbers node `i` and what it holds; returns its object's number. A container's
        /// node is given where its references start (its end is no longer needed: its
        /// parent walked past it before numbering it).
        mutating func number(_ i: Int, _ nodes: UnsafeMutablePointer<Node>, _ bytes: Bytes) -> Int32 {
            let node = nodes[i]
            guard node.kind == .array || node.kind == .dict else { return scalar(i, nodes, bytes) }
            let me = Int32(objectCount)
            objects[objectCount] = Int32(i)
            objectCount += 1
            let count = node.count, start = referenceCount
            var values = start
            var j = i + 1
            if node.kind == .dict {
                // The keys first, each then its value's node, numbered below.
                values += count
                referenceCount += 2 * count
                for e in 0..<count {
                    references[start + e] = scalar(j, nodes, bytes)
                    references[values + e] = Int32(j + 1)
                    j = XMLNodes.end(of: j + 1, nodes)
                }
            } else {
                referenceCount += count
                for e in 0..<count {
                    references[start + e] = Int32(j)
                    j = XMLNodes.end(of: j, nodes)
                }
            }
            for r in values..<(values + count) { references[r] = number(Int(references[r]), nodes, bytes) }
            nodes[i].payload = UInt64(start)
            return me
        }

        /// The number of the scalar node `i` stands for: an earlier one's, or the next.
        private mutating func scalar(_ i: Int, _ nodes: UnsafeMutablePointer<Node>, _ bytes: Bytes) -> Int32 {
            let node = nodes[i], slots = slots!
            let tag = node.hash & 0xFF00_0000
            var s = Int(node.hash) & mask
            while slots[s] != 0 {
                if slots[s] & 0xFF00_0000 == tag {
                    let object = Int32(slots[s] & 0x00FF_FFFF) - 1
                    if XMLNodes.same(nodes[Int(objects[Int(object)])], node, bytes) { return object }
                }
                s = (s + 1) & mask
            }
            objects[objectCount] = Int32(i)
            objectCount += 1
            slots[s] = tag | UInt32(objectCount)
            if let dropPages, objectCount % XMLReader.progressEntries == 0 { dropPages() }
            return Int32(objectCount - 1)
        }
    }

    /// The index past node `i` and everything it holds, while numbering.
    @inline(__always)
    private static func end(of i: Int, _ nodes: UnsafeMutablePointer<Node>) -> Int {
        switch nodes[i].kind {
        case .array, .dict: Int(nodes[i].payload)
        default: i + 1
        }
    }

    /// Whether two scalar nodes stand for one object: one kind, and the same bits or
    /// bytes (strings compared as bytes, as the writer compares them).
    @inline(__always)
    private static func same(_ x: Node, _ y: Node, _ bytes: Bytes) -> Bool {
        guard x.info == y.info else { return false }
        switch x.kind {
        case .ascii, .unicode, .data: return bytesEqual(bytes.of(x), bytes.of(y))
        default: return x.payload == y.payload
        }
    }

    /// How many bytes a node's object takes.
    private static func size(_ node: Node, refSize: Int, _ bytes: Bytes) -> Int {
        switch node.kind {
        case .ascii, .data: return BinaryWriter.headerSize(count: node.count) + node.count
        case .unicode:
            let units = String(decoding: bytes.of(node), as: UTF8.self).utf16.count
            return BinaryWriter.headerSize(count: units) + 2 * units
        case .bool: return 1
        case .int: return BinaryWriter.integerSize(PlistInteger(Int64(bitPattern: node.payload)))
        case .unsigned: return BinaryWriter.integerSize(PlistInteger(unsigned: node.payload))
        case .real, .date: return 9
        case .array: return BinaryWriter.headerSize(count: node.count) + node.count * refSize
        case .dict: return BinaryWriter.headerSize(count: node.count) + 2 * node.count * refSize
        }
    }

    /// Writes a node's object at `p`, as `BinaryWriter` writes its value.
    private static func store(
        _ node: Node, at p: UnsafeMutablePointer<UInt8>, refSize: Int, references: UnsafeMutablePointer<Int32>,
        _ bytes: Bytes
    ) {
        switch node.kind {
        case .ascii, .data:
            let n = BinaryWriter.storeHeader(node.kind == .data ? .data : .asciiString, count: node.count, at: p)
            let from = bytes.of(node)
            if let base = from.baseAddress { (p + n).initialize(from: base, count: from.count) }
        case .unicode:
            let s = String(decoding: bytes.of(node), as: UTF8.self)
            var at = p + BinaryWriter.storeHeader(.utf16String, count: s.utf16.count, at: p)
            for unit in s.utf16 {
                BinaryWriter.storeBigEndian(UInt64(unit), width: 2, at: at)
                at += 2
            }
        case .bool: p[0] = node.payload != 0 ? BPlistMarker.trueByte : BPlistMarker.falseByte
        case .int: _ = BinaryWriter.storeInteger(PlistInteger(Int64(bitPattern: node.payload)), at: p)
        case .unsigned: _ = BinaryWriter.storeInteger(PlistInteger(unsigned: node.payload), at: p)
        case .real: BinaryWriter.storeEight(.real, node.payload, at: p)
        case .date: BinaryWriter.storeEight(.date, node.payload, at: p)
        case .array, .dict:
            let dict = node.kind == .dict
            var at = p + BinaryWriter.storeHeader(dict ? .dictionary : .array, count: node.count, at: p)
            let start = Int(node.payload)
            for r in start..<(start + (dict ? 2 : 1) * node.count) {
                BinaryWriter.storeBigEndian(UInt64(references[r]), width: refSize, at: at)
                at += refSize
            }
        }
    }
}
