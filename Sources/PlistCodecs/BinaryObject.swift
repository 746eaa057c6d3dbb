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
