import PlistModel
/// Writes a binary property list in two passes, as Apple's writer does: first number
/// the objects (strings and scalars written once however often they occur), then emit
/// them with the smallest reference and offset widths that fit.
///
/// The output depends only on the value, so an unchanged domain rewrites to the same bytes.
package struct BinaryWriter {
    /// A scalar's identity for de-duplication: its type and exact bits (strings by
    /// their UTF-8 bytes, not by Swift's canonical equivalence).
    private enum ScalarKey: Hashable {
        case bool(Bool), int(PlistInteger), float(UInt32), double(UInt64), date(UInt64)
        case string([UInt8]), data([UInt8]), uid(UInt64)
    }

    private enum Object {
        case scalar(PlistValue)
        case uid(UInt64)
        case array([Int])
        case dict(keys: [Int], values: [Int])
    }

    private var objects: [Object] = []
    private var scalars: [ScalarKey: Int] = [:]

    package static func encode(_ value: PlistValue, capacity: Int = 4096) -> [UInt8] {
        var writer = BinaryWriter()
        _ = writer.number(value)
        writer.scalars = [:]  // only numbering needs it
        return writer.emit(capacity: capacity)
    }

    /// How many objects numbering has made so far.
    var objectCount: Int { objects.count }

    // MARK: Pass 1: number the objects, depth first, the container before its contents.

    /// Numbers `value` and what it holds; returns its object index.
    mutating func number(_ value: PlistValue) -> Int {
        switch value {
        case .array(let elements):
            let index = reserve()
            objects[index] = .array(elements.map { number($0) })
            return index
        case .dict(let dict):
            if let uid = Self.uid(dict) { return scalar(.uid(uid), .uid(uid)) }
            let index = reserve()
            let entries = dict.sortedEntries
            let keys = entries.map { number(.string($0.key)) }
            let values = entries.map { number($0.value) }
            objects[index] = .dict(keys: keys, values: values)
            return index
        case .bool(let b): return scalar(.bool(b), .scalar(value))
        case .int(let i): return scalar(.int(i), .scalar(value))
        case .float(let f): return scalar(.float(f.bitPattern), .scalar(value))
        case .double(let d): return scalar(.double(d.bitPattern), .scalar(value))
        case .date(let d): return scalar(.date(d.secondsSince2001.bitPattern), .scalar(value))
        case .string(let s): return scalar(.string(Array(s.utf8)), .scalar(value))
        case .data(let d): return scalar(.data(d), .scalar(value))
        }
    }

    /// `{CF$UID = n}` is how a UID read from a binary plist is kept; write it back as one.
    private static func uid(_ dict: PlistDictionary) -> UInt64? {
        guard dict.entries.count == 1, dict.entries[0].key == BinaryReader.uidKey,
            case .int(let n) = dict.entries[0].value, !n.isNegative
        else { return nil }
        return n.bitPattern
    }

    private mutating func reserve() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    private mutating func scalar(_ key: ScalarKey, _ object: Object) -> Int {
        if let index = scalars[key] { return index }
        objects.append(object)
        scalars[key] = objects.count - 1
        return objects.count - 1
    }

    // MARK: Pass 2: emit.

    private func emit(capacity: Int) -> [UInt8] {
        let refSize = Self.width(UInt64(objects.count - 1))
        var out: [UInt8] = []
        out.reserveCapacity(max(capacity, 64 + objects.count * 4))
        out.append(contentsOf: Self.header)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for index in objects.indices {
            offsets.append(out.count)
            appendObject(index, refSize: refSize, base: 0, to: &out)
        }
        Self.appendOffsetTable(offsets, refSize: refSize, root: 0, to: &out)
        return out
    }

    static let header = Array("bplist00".utf8)

    /// Object `index`, its references shifted by `base` (where these objects start in a
    /// document that holds others before them) and written `refSize` bytes wide.
    func appendObject(_ index: Int, refSize: Int, base: Int, to out: inout [UInt8]) {
        switch objects[index] {
        case .scalar(let value): Self.appendScalar(value, to: &out)
        case .uid(let n): Self.appendUID(n, to: &out)
        case .array(let refs):
            Self.appendHeader(.array, count: refs.count, to: &out)
            for r in refs { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
        case .dict(let keys, let values):
            Self.appendHeader(.dictionary, count: keys.count, to: &out)
            for r in keys { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
            for r in values { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
        }
    }

    /// The offset table, in the smallest width that holds the last offset, and the
    /// trailer: 6 unused bytes, the two widths, the object count, the root, the table's offset.
    static func appendOffsetTable<Offset: BinaryInteger>(
        _ offsets: [Offset], refSize: Int, root: Int, base: Int = 0,
        to out: inout [UInt8]
    ) {
        let tableOffset = base + out.count
        let offsetSize = width(UInt64(offsets.last ?? 0))
        out.reserveCapacity(out.count + offsets.count * offsetSize + 32)
        for offset in offsets { appendBigEndian(UInt64(offset), width: offsetSize, to: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        appendBigEndian(UInt64(offsets.count), width: 8, to: &out)
        appendBigEndian(UInt64(root), width: 8, to: &out)
        appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
    }

    private static func appendUID(_ n: UInt64, to out: inout [UInt8]) {
        let width = width(n)
        let size = width <= 1 ? 1 : width <= 2 ? 2 : width <= 4 ? 4 : 8
        out.append(BPlistMarker.uid.byte(UInt8(size - 1)))
        appendBigEndian(n, width: size, to: &out)
    }

    private static func appendScalar(_ value: PlistValue, to out: inout [UInt8]) {
        switch value {
        case .bool(let b): out.append(b ? BPlistMarker.trueByte : BPlistMarker.falseByte)
        case .int(let i): appendInteger(i, to: &out)
        case .float(let f):
            out.append(BPlistMarker.real.byte(2))
            appendBigEndian(UInt64(f.bitPattern), width: 4, to: &out)
        case .double(let d):
            out.append(BPlistMarker.real.byte(3))
            appendBigEndian(d.bitPattern, width: 8, to: &out)
        case .date(let d):
            out.append(BPlistMarker.date.byte(3))
            appendBigEndian(d.secondsSince2001.bitPattern, width: 8, to: &out)
        case .data(let bytes):
            appendHeader(.data, count: bytes.count, to: &out)
            out.append(contentsOf: bytes)
        case .string(let s):
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                appendHeader(.asciiString, count: s.utf8.count, to: &out)
                out.append(contentsOf: s.utf8)
            } else {
                appendHeader(.utf16String, count: s.utf16.count, to: &out)
                for unit in s.utf16 { appendBigEndian(UInt64(unit), width: 2, to: &out) }
            }
        case .array, .dict: break
        }
    }

    /// Non-negative values in the smallest of 1, 2, 4 or 8 bytes; negatives in 8; values
    /// above `Int64.max` in 16 with a zero high half.
    private static func appendInteger(_ i: PlistInteger, to out: inout [UInt8]) {
        if i.isUnsigned {
            out.append(BPlistMarker.integer.byte(4))
            appendBigEndian(0, width: 8, to: &out)
            appendBigEndian(i.bitPattern, width: 8, to: &out)
            return
        }
        let width = i.isNegative ? 8 : width(i.bitPattern)
        let size = width <= 1 ? 1 : width <= 2 ? 2 : width <= 4 ? 4 : 8
        out.append(BPlistMarker.integer.byte(UInt8(size.trailingZeroBitCount)))
        appendBigEndian(i.bitPattern, width: size, to: &out)
    }

    /// A collection's, data's or string's first byte, and its count when it does not fit
    /// the low nibble.
    static func appendHeader(_ marker: BPlistMarker, count: Int, to out: inout [UInt8]) {
        if count < Int(BPlistMarker.extendedCount) {
            out.append(marker.byte(UInt8(count)))
        } else {
            out.append(marker.byte(BPlistMarker.extendedCount))
            appendInteger(PlistInteger(Int64(count)), to: &out)
        }
    }

    /// Bytes needed for `value` (at least one).
    static func width(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}
