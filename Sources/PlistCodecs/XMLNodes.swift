import PlistModel

/// The values of an XML property list as `XMLReader.binary` reads them: one 8-byte node
/// each, in the order of the text (a container before its contents, a dictionary's key
/// before its value). A node is small because a big document's nodes are most of what
/// exporting it holds: its scalars are hashed only as they are numbered, and a number or
/// date that does not fit 32 bits is kept beside the nodes, in `wide`.
struct XMLNodes {
    /// `ascii` and `unicode` are strings, told apart as they are read: the binary writes
    /// them differently, and text that is one is never the other. `small` is an integer
    /// from 0 to 2³² - 1, kept in its node; `int` any other below 2⁶³, `unsigned` one above.
    enum Kind: UInt32 { case ascii, unicode, data, bool, small, int, unsigned, real, date, array, dict }

    struct Node {
        /// A bool's or small integer's value; where another number's or a date's bits lie
        /// in `wide`; where a string or data lies (in the text, or in `decoded` with
        /// `inDecoded` set); for a container, the index past its last node while reading,
        /// then where its references start once numbered.
        var payload: UInt32
        /// The kind in the top four bits, and the byte or element count.
        var info: UInt32

        var kind: Kind { Kind(rawValue: info >> 28)! }
        var count: Int { Int(info & XMLNodes.maximumCount) }
    }

    static let maximumCount: UInt32 = (1 << 28) - 1
    /// The most values a document written straight may hold: past it, fewer than 8 bits
    /// of a `ScalarTable` slot would be left for the hash.
    static let maximumNumbered = (1 << 24) - 2
    /// A text this long or longer is not read into nodes: its offsets, and the flag beside
    /// them, fit 32 bits below it.
    static let maximumText = 1 << 31
    static let inDecoded: UInt32 = 1 << 31

    private(set) var nodes: [Node] = []
    /// Decoded strings (those with references, CDATA or comments) and data, end to end.
    private var decoded: [UInt8] = []
    /// The bits of the numbers and dates too wide for a node.
    private var wide: [UInt64] = []
    /// How many nodes are arrays or dictionaries: the rest are numbered through a table.
    private var containers = 0

    init(capacity: Int) { nodes.reserveCapacity(capacity) }

    var count: Int { nodes.count }

    // MARK: Reading

    /// A bool (bits 0 or 1), a number or a date.
    mutating func add(_ kind: Kind, _ bits: UInt64) {
        if kind == .bool || (kind == .int && bits >> 32 == 0) {
            nodes.append(Node(payload: UInt32(bits), info: (kind == .bool ? kind : .small).rawValue << 28))
        } else {
            nodes.append(Node(payload: UInt32(wide.count), info: kind.rawValue << 28))
            wide.append(bits)
        }
    }

    /// A string, `at` its offset in the text, or copied into `decoded` when nil; `ascii`
    /// is whether all its bytes are.
    mutating func addString(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int?, ascii: Bool) -> Bool {
        addBytes(ascii ? .ascii : .unicode, bytes, at: offset)
    }

    mutating func addData(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { addBytes(.data, bytes, at: nil) }

    private mutating func addBytes(_ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int?) -> Bool {
        guard bytes.count <= Self.maximumCount else { return false }
        let payload: UInt32
        if let offset {
            guard offset < Self.maximumText else { return false }
            payload = UInt32(offset)
        } else {
            guard decoded.count + bytes.count < Self.maximumText else { return false }
            payload = UInt32(decoded.count) | Self.inDecoded
            decoded.appendBytes(bytes)
        }
        nodes.append(Node(payload: payload, info: kind.rawValue << 28 | UInt32(bytes.count)))
        return true
    }

    /// A container's node, its count and end set by `close`.
    mutating func open(_ kind: Kind) -> Int {
        nodes.append(Node(payload: 0, info: kind.rawValue << 28))
        containers += 1
        return nodes.count - 1
    }

    mutating func close(_ index: Int, count: Int) -> Bool {
        guard count <= Self.maximumCount, nodes.count < Self.maximumText else { return false }
        nodes[index].info |= UInt32(count)
        nodes[index].payload = UInt32(nodes.count)
        return true
    }

    /// The nodes another reader read (the root's second half), after these; false when
    /// together they would not fit (see `maximumText`).
    mutating func append(_ other: XMLNodes) -> Bool {
        guard nodes.count + other.nodes.count < Self.maximumText,
            decoded.count + other.decoded.count < Self.maximumText
        else { return false }
        let base = UInt32(nodes.count), decodedBase = UInt32(decoded.count), wideBase = UInt32(wide.count)
        nodes.reserveCapacity(nodes.count + other.nodes.count)
        for var node in other.nodes {
            switch node.kind {
            case .array, .dict: node.payload += base
            case .ascii, .unicode, .data: if node.payload & Self.inDecoded != 0 { node.payload += decodedBase }
            case .int, .unsigned, .real, .date: node.payload += wideBase
            case .bool, .small: break
            }
            nodes.append(node)
        }
        decoded.append(contentsOf: other.decoded)
        wide.append(contentsOf: other.wide)
        containers += other.containers
        return true
    }

    /// Whether key `a`'s bytes sort strictly before key `b`'s.
    func precedes(_ a: Int, _ b: Int, text: UnsafeBufferPointer<UInt8>) -> Bool {
        decoded.withUnsafeBufferPointer { decoded in
            let bytes = Bytes(text: text, decoded: decoded, wide: UnsafeBufferPointer(start: nil, count: 0))
            return bytesPrecede(bytes.of(nodes[a]).span, bytes.of(nodes[b]).span)
        }
    }

    /// Where the nodes' strings, data and wide bits lie: in the text, `decoded` and `wide`
    /// (while reading, only as long as neither is appended to).
    struct Bytes {
        let text: UnsafeBufferPointer<UInt8>
        let decoded: UnsafeBufferPointer<UInt8>
        let wide: UnsafeBufferPointer<UInt64>

        /// A string's or data's bytes.
        @inline(__always)
        func of(_ node: Node) -> UnsafeBufferPointer<UInt8> {
            let start = Int(node.payload & ~XMLNodes.inDecoded)
            let from = node.payload & XMLNodes.inDecoded == 0 ? text : decoded
            return UnsafeBufferPointer(start: from.baseAddress.map { $0 + start }, count: node.count)
        }

        /// A bool's, number's or date's bits, as `XMLReader` read them.
        @inline(__always)
        func bits(_ node: Node) -> UInt64 {
            switch node.kind {
            case .bool, .small: UInt64(node.payload)
            default: wide[Int(node.payload)]
            }
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

    /// How many slots past their own numbering looked at for the scalars
    /// (`BinaryWriter.probes(numbering:)`): for the flood tests.
    package var probes: Int { numbering.probes }

    /// All of it, in one array.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        write { out.append(contentsOf: $0) }
        return out
    }
}

extension XMLNodes {
    /// How often (in scalars numbered or objects written) a mapped text's pages are given
    /// back: numbering reads every string, so its window of the text is this many values'.
    static let dropEvery = 4_096

    /// The nodes numbered as `BinaryWriter` numbers the values they stand for: depth
    /// first (a container before its contents, a dictionary's keys before its values), each
    /// scalar once. Numbering goes through pointers: the arrays' checks were a third of it.
    /// `dropPages` (a mapped text's) is told every `dropEvery` scalars, and once done.
    fileprivate mutating func numbered(text: UnsafeBufferPointer<UInt8>, dropPages: (@Sendable () -> Void)?)
        -> Numbering
    {
        var numbering = Numbering(count: nodes.count, scalars: nodes.count - containers)
        numbering.dropPages = dropPages
        decoded.withUnsafeBufferPointer { decoded in
            wide.withUnsafeBufferPointer { wide in
                nodes.withUnsafeMutableBufferPointer { nodes in
                    _ = numbering.number(0, nodes.baseAddress!, Bytes(text: text, decoded: decoded, wide: wide))
                }
            }
        }
        numbering.freeSlots()
        dropPages?()
        return numbering
    }

    /// The numbered objects written in order, in pieces of at most `chunk` bytes
    /// (`BinaryWriter.write(count:…)`), `dropPages` told every `dropEvery` objects.
    fileprivate func write(
        _ numbering: borrowing Numbering, text: UnsafeBufferPointer<UInt8>, chunk: Int,
        dropPages: (@Sendable () -> Void)?, to sink: (ArraySlice<UInt8>) throws -> Void
    ) rethrows {
        let (objects, references, count) = (numbering.objects, numbering.references, numbering.objectCount)
        let refSize = BinaryWriter.width(UInt64(count - 1))
        try decoded.withUnsafeBufferPointer { decoded in
            try wide.withUnsafeBufferPointer { wide in
                try nodes.withUnsafeBufferPointer { nodes in
                    let bytes = Bytes(text: text, decoded: decoded, wide: wide)
                    try BinaryWriter.write(
                        count: count, refSize: refSize, root: 0, chunk: chunk,
                        size: { XMLNodes.size(nodes[Int(objects[$0])], refSize: refSize, bytes) },
                        store: { o, p in
                            if let dropPages, o % XMLNodes.dropEvery == 0 { dropPages() }
                            XMLNodes.store(
                                nodes[Int(objects[o])], at: p, refSize: refSize, references: references, bytes)
                        }, to: sink)
                }
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
        /// The scalars numbered so far, then an empty table (`freeSlots`).
        var table: ScalarTable
        /// Scalars numbered, for `dropPages`.
        var scalars = 0
        /// Slots looked at past each scalar's own, all told (`XMLBinaryPlist.probes`).
        var probes = 0
        /// A mapped text's, told every `dropEvery` scalars numbered: a repeated string is
        /// compared with its first, anywhere in the text.
        var dropPages: (@Sendable () -> Void)?

        /// Room for `count` nodes (at most `maximumNumbered`), `scalars` of them hashed.
        init(count: Int, scalars: Int) {
            table = ScalarTable(numbers: count, scalars: scalars)
            objects = .allocate(capacity: max(count, 1))
            references = .allocate(capacity: max(count, 1))
        }

        deinit {
            objects.deallocate()
            references.deallocate()
        }

        /// Only numbering needs the table.
        mutating func freeSlots() {
            probes = table.probes
            table = ScalarTable(numbers: 0, scalars: 0)
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
            nodes[i].payload = UInt32(start)
            return me
        }

        /// The number of the scalar node `i` stands for: an earlier one's, or the next.
        private mutating func scalar(_ i: Int, _ nodes: UnsafeMutablePointer<Node>, _ bytes: Bytes) -> Int32 {
            let (node, objects) = (nodes[i], objects)
            scalars += 1
            if let dropPages, scalars % XMLNodes.dropEvery == 0 { dropPages() }
            let hash = XMLNodes.hash(node, bytes, table.seed)
            let number = table.number(hash: hash, next: objectCount) {
                XMLNodes.same(nodes[Int(objects[$0])], node, bytes)
            }
            if number == objectCount {
                objects[objectCount] = Int32(i)
                objectCount += 1
            }
            return Int32(number)
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

    /// A scalar's hash, worked out as it is numbered rather than kept: 4 bytes a node.
    /// Keyed (`SipHash13`), as the writer's is: a string's or data's bytes, or the bits.
    /// The kind is left out, as the writer leaves the type out: `same` compares it, and
    /// nodes of other kinds with the same bytes or bits are a few at most, never a flood.
    @inline(__always)
    private static func hash(_ node: Node, _ bytes: Bytes, _ seed: SipHash13.Seed) -> UInt64 {
        var h = SipHash13(seed)
        switch node.kind {
        case .ascii, .unicode, .data: h.combine(UnsafeRawBufferPointer(bytes.of(node)))
        default: h.combine(bytes.bits(node))
        }
        return h.finalize()
    }

    /// Whether two scalar nodes stand for one object: one kind, and the same bits or
    /// bytes (strings compared as bytes, as the writer compares them).
    @inline(__always)
    private static func same(_ x: Node, _ y: Node, _ bytes: Bytes) -> Bool {
        guard x.info == y.info else { return false }
        switch x.kind {
        case .ascii, .unicode, .data: return bytesEqual(bytes.of(x).span, bytes.of(y).span)
        case .bool, .small: return x.payload == y.payload
        default: return bytes.bits(x) == bytes.bits(y)
        }
    }

    /// The object a node is written as, as `BinaryWriter` writes the value it stands for.
    @inline(__always)
    private static func object(_ node: Node, _ bytes: Bytes) -> BinaryObject {
        switch node.kind {
        case .ascii, .unicode: .string(bytes.of(node), ascii: node.kind == .ascii)
        case .data: .data(bytes.of(node))
        case .bool: .bool(node.payload != 0)
        case .small, .int: .integer(PlistInteger(Int64(bitPattern: bytes.bits(node))))
        case .unsigned: .integer(PlistInteger(unsigned: bytes.bits(node)))
        case .real: .eight(.real, bytes.bits(node))
        case .date: .eight(.date, bytes.bits(node))
        case .array: .collection(.array, count: node.count)
        case .dict: .collection(.dictionary, count: node.count)
        }
    }

    /// How many references follow a node's object: a dictionary's keys and values.
    @inline(__always)
    private static func referenceCount(_ node: Node) -> Int {
        node.kind == .dict ? 2 * node.count : node.kind == .array ? node.count : 0
    }

    /// How many bytes a node's object takes, its references included.
    private static func size(_ node: Node, refSize: Int, _ bytes: Bytes) -> Int {
        object(node, bytes).size + referenceCount(node) * refSize
    }

    /// Writes a node's object at `p`, then a container's references.
    private static func store(
        _ node: Node, at p: UnsafeMutablePointer<UInt8>, refSize: Int, references: UnsafeMutablePointer<Int32>,
        _ bytes: Bytes
    ) {
        var at = p + object(node, bytes).store(at: p)
        let start = Int(node.payload)
        for r in start..<(start + referenceCount(node)) {
            BinaryWriter.storeBigEndian(UInt64(references[r]), width: refSize, at: at)
            at += refSize
        }
    }
}
