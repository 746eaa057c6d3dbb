import PlistModel

/// One object of a binary property list as it is written: every writer (`BinaryWriter`
/// from values, `XMLNodes` straight from XML text, `BinaryEditor` for a new value) sizes
/// and stores its objects through this, so there is one encoding of each kind.
/// A string's or data's bytes are only borrowed: the object is made and stored at once.
enum BinaryObject {
    case bool(Bool)
    case integer(PlistInteger)
    /// A 32-bit real's bits.
    case float(UInt32)
    /// A double's bits (`.real`) or a date's (`.date`).
    case eight(BPlistMarker, UInt64)
    /// A string from its UTF-8 bytes, and whether they are all ASCII (written as they
    /// are; any other string is written as UTF-16).
    case string(UnsafeBufferPointer<UInt8>, ascii: Bool)
    case data(UnsafeBufferPointer<UInt8>)
    case uid(UInt64)
    /// An array's or dictionary's header: `count` elements or entries, whose references
    /// the writer stores after it (`BinaryWriter.storeBigEndian`).
    case collection(BPlistMarker, count: Int)

    /// How many bytes `store` writes (a collection's references left out).
    @inline(__always)
    var size: Int {
        switch self {
        case .bool: 1
        case .integer(let i): BinaryWriter.integerSize(i)
        case .float: 5
        case .eight: 9
        case .string(let utf8, let ascii):
            ascii
                ? BinaryWriter.headerSize(count: utf8.count) + utf8.count
                : Self.utf16Size(String(decoding: utf8, as: UTF8.self).utf16.count)
        case .data(let bytes): BinaryWriter.headerSize(count: bytes.count) + bytes.count
        case .uid(let n): 1 + Self.uidWidth(n)
        case .collection(_, let count): BinaryWriter.headerSize(count: count)
        }
    }

    /// Writes the object at `p`; returns how many bytes (`size`).
    @inline(__always)
    func store(at p: UnsafeMutablePointer<UInt8>) -> Int {
        switch self {
        case .bool(let b):
            p[0] = b ? BPlistMarker.trueByte : BPlistMarker.falseByte
            return 1
        case .integer(let i): return BinaryWriter.storeInteger(i, at: p)
        case .float(let bits):
            p[0] = BPlistMarker.real.byte(2)
            BinaryWriter.storeBigEndian(UInt64(bits), width: 4, at: p + 1)
            return 5
        case .eight(let marker, let bits):
            p[0] = marker.byte(3)
            BinaryWriter.storeBigEndian(bits, width: 8, at: p + 1)
            return 9
        case .string(let utf8, ascii: true): return Self.store(.asciiString, utf8, at: p)
        case .string(let utf8, ascii: false):
            let s = String(decoding: utf8, as: UTF8.self)
            var at = p + BinaryWriter.storeHeader(.utf16String, count: s.utf16.count, at: p)
            for unit in s.utf16 {
                BinaryWriter.storeBigEndian(UInt64(unit), width: 2, at: at)
                at += 2
            }
            return at - p
        case .data(let bytes): return Self.store(.data, bytes, at: p)
        case .uid(let n):
            let width = Self.uidWidth(n)
            p[0] = BPlistMarker.uid.byte(UInt8(width - 1))
            BinaryWriter.storeBigEndian(n, width: width, at: p + 1)
            return 1 + width
        case .collection(let marker, let count): return BinaryWriter.storeHeader(marker, count: count, at: p)
        }
    }

    /// Appends the object to `out`.
    @inline(__always)
    func append(to out: inout [UInt8]) {
        out.append(addingCapacity: size) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in count += store(at: buffer.baseAddress! + count) }
        }
    }

    /// A string of `units` UTF-16 code units: its header and two bytes a unit.
    private static func utf16Size(_ units: Int) -> Int { BinaryWriter.headerSize(count: units) + 2 * units }

    /// A UID's bytes: 1, 2, 4 or 8.
    private static func uidWidth(_ n: UInt64) -> Int {
        let width = BinaryWriter.width(n)
        return width <= 1 ? 1 : width <= 2 ? 2 : width <= 4 ? 4 : 8
    }

    /// A header and the bytes after it.
    @inline(__always)
    private static func store(
        _ marker: BPlistMarker, _ bytes: UnsafeBufferPointer<UInt8>, at p: UnsafeMutablePointer<UInt8>
    )
        -> Int
    {
        let n = BinaryWriter.storeHeader(marker, count: bytes.count, at: p)
        if let base = bytes.baseAddress { (p + n).initialize(from: base, count: bytes.count) }
        return n + bytes.count
    }
}

extension BinaryWriter {
    /// A whole binary property list handed to `sink` in pieces of at most `chunk` bytes (an
    /// object bigger than that, alone): the header, `count` objects in order (object `o`
    /// takes `size(o)` bytes, which `store(o, p)` writes at `p`), the offset table, the
    /// trailer. No offset is kept, 8 bytes an object: each object is sized again for the
    /// table. Every binary writer writes through this: `encode`, `XMLBinaryPlist`, `BinaryEditor`.
    static func write(
        count: Int, refSize: Int, root: Int, chunk: Int, size: (Int) -> Int,
        store: (Int, UnsafeMutablePointer<UInt8>) -> Void, to sink: (ArraySlice<UInt8>) throws -> Void
    ) rethrows {
        let room = max(chunk, 64)
        var out = [UInt8](repeating: 0, count: room)
        var used = header.count
        out.replaceSubrange(0..<used, with: header)
        func flush() throws {
            if used > 0 { try sink(out[0..<used]) }
            used = 0
        }
        // Where the last object starts, and where the table does, once written.
        var end = header.count, last = end
        var o = 0
        while o < count {
            var alone = false
            out.withUnsafeMutableBufferPointer { piece in
                while o < count {
                    let n = size(o)
                    guard n <= room - used else {
                        alone = n > room
                        return
                    }
                    store(o, piece.baseAddress! + used)
                    used += n
                    (last, end) = (end, end + n)
                    o += 1
                }
            }
            try flush()
            if alone {
                var one = [UInt8](repeating: 0, count: size(o))
                one.withUnsafeMutableBufferPointer { store(o, $0.baseAddress!) }
                try sink(one[...])
                (last, end) = (end, end + one.count)
                o += 1
            }
        }
        let offsetSize = width(UInt64(last))
        var offset = header.count
        o = 0
        while o < count {
            out.withUnsafeMutableBufferPointer { piece in
                while o < count, used + offsetSize <= room {
                    storeBigEndian(UInt64(offset), width: offsetSize, at: piece.baseAddress! + used)
                    used += offsetSize
                    offset += size(o)
                    o += 1
                }
            }
            if o < count { try flush() }
        }
        if used + 32 > room { try flush() }
        // The trailer: 6 unused bytes, the two widths, the object count, the root, the table's offset.
        out.withUnsafeMutableBufferPointer { piece in
            let p = piece.baseAddress! + used
            p.initialize(repeating: 0, count: 6)
            (p[6], p[7]) = (UInt8(offsetSize), UInt8(refSize))
            storeBigEndian(UInt64(count), width: 8, at: p + 8)
            storeBigEndian(UInt64(root), width: 8, at: p + 16)
            storeBigEndian(UInt64(end), width: 8, at: p + 24)
        }
        used += 32
        try flush()
    }
}
