import PlistModel

/// The high nibble of a binary plist object's first byte: what kind of object it is.
/// The low nibble is the object's size or count; `extendedCount` there means the count
/// follows as an integer object. The reader, the writer and the editor name kinds only
/// through this.
package enum BPlistMarker: UInt8 {
    // All sixteen nibbles, in order, so a byte's kind is its high nibble as it is, with
    // no table and no optional (a failable conversion made a one-key binary write 4%
    // dearer). The reader refuses the kinds no property list holds.

    /// `false` (0x08) and `true` (0x09); null (0x00) and fill (0x0F) are refused.
    case simple = 0x0
    /// 1, 2, 4 or 8 bytes big-endian (two's complement); 16 for values above Int64.max.
    case integer = 0x1
    /// A 4- or 8-byte IEEE 754 number.
    case real = 0x2
    /// An 8-byte real: seconds since 2001-01-01 UTC (the low nibble is always 3).
    case date = 0x3
    case data = 0x4
    case asciiString = 0x5
    /// UTF-16 big-endian; the count is in code units.
    case utf16String = 0x6
    case unused7 = 0x7
    /// A keyed archive's object reference, read as `{CF$UID = n}`.
    case uid = 0x8
    case unused9 = 0x9
    case array = 0xA
    /// Sets, in CoreFoundation's format and never written by it: refused.
    case orderedSet = 0xB
    case set = 0xC
    case dictionary = 0xD
    case unusedE = 0xE
    case unusedF = 0xF

    /// The kind of the object whose first byte is `byte`.
    @inline(__always)
    package init(byte: UInt8) { self = unsafeBitCast(byte >> 4, to: BPlistMarker.self) }

    /// The first byte of an object of this kind with `low` in its low nibble.
    @inline(__always)
    package func byte(_ low: UInt8) -> UInt8 { rawValue << 4 | low }

    /// The low nibble of an object's first byte: its size or count.
    @inline(__always)
    package static func low(_ byte: UInt8) -> UInt8 { byte & 0x0F }

    /// The low nibble that says the count follows as an integer object.
    package static let extendedCount: UInt8 = 0x0F
    package static let falseByte: UInt8 = 0x08, trueByte: UInt8 = 0x09

    /// An object's length from its first bytes at `start` (elements, entries, bytes or
    /// UTF-16 units by its kind; for another scalar, the bytes after its marker) and where
    /// its body starts. Nil when the bytes end first, or the count is no integer of at most
    /// 8 bytes below 2³².
    static func extent<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at start: Int) -> (length: Int, body: Int)?
    where Bytes.Index == Int {
        let low = Int(low(bytes[start]))
        switch BPlistMarker(byte: bytes[start]) {
        case .simple: return (0, start + 1)
        case .integer, .real: return (1 << low, start + 1)
        case .date: return (8, start + 1)
        case .uid: return (low + 1, start + 1)
        default:
            guard low == extendedCount else { return (low, start + 1) }
            guard start + 1 < bytes.count, BPlistMarker(byte: bytes[start + 1]) == .integer else { return nil }
            let width = 1 << Int(Self.low(bytes[start + 1]))
            guard width <= 8, start + 2 + width <= bytes.count else { return nil }
            let n = BinaryReader.bigEndian(bytes, start + 2, width)
            guard n < 1 << 32 else { return nil }
            return (Int(n), start + 2 + width)
        }
    }

    /// How many bytes the body of an object of this kind and `length` takes, references
    /// `refSize` bytes wide.
    func bodySize(_ length: Int, refSize: Int) -> Int {
        switch self {
        case .utf16String: 2 * length
        case .array, .set: length * refSize
        case .dictionary: 2 * length * refSize
        default: length
        }
    }
}
