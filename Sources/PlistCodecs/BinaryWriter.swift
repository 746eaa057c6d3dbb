import PlistModel
/// Writes a binary property list in two passes, as Apple's writer does: first number
/// the objects (strings and scalars written once however often they occur), then emit
/// them with the smallest reference and offset widths that fit.
///
/// The output depends only on the value, so an unchanged domain rewrites to the same bytes.
package struct BinaryWriter {
    /// A scalar's identity for de-duplication: its type and exact bits (strings by
    /// their UTF-8 bytes, not by Swift's canonical equivalence).
    private enum ScalarKey {
        case bool(Bool), int(PlistInteger), float(UInt32), double(UInt64), date(UInt64)
        case string(String), data([UInt8]), uid(UInt64)

        /// The keyed hash (`SipHash13`) of the bits, and of bytes as SipHash's message: the
        /// table compares every candidate in full, so a collision costs a probe, never a
        /// wrong object, and without the seed no file can make its scalars collide. The type
        /// is left out (a round a scalar): values of other types that share their bits or
        /// bytes (a string and data, an integer and a date) are a few at most, never a flood.
        /// (Local functions capturing the hash checked each access to it at run time: a
        /// twentieth of an export.)
        func hash(_ seed: SipHash13.Seed) -> UInt64 {
            var h = SipHash13(seed)
            switch self {
            case .bool(let b): h.combine(b ? 1 : 0)
            case .int(let i): h.combine(i.bitPattern)
            case .float(let f): h.combine(UInt64(f))
            case .double(let d): h.combine(d)
            case .date(let d): h.combine(d)
            case .string(var s): s.withUTF8 { h.combine(UnsafeRawBufferPointer($0)) }
            case .data(let d): d.withUnsafeBytes { h.combine($0) }
            case .uid(let n): h.combine(n)
            }
            return h.finalize()
        }

        /// Whether `object` is the scalar this key stands for.
        func names(_ object: Object) -> Bool {
            switch (self, object) {
            case (.uid(let n), .uid(let m)): n == m
            case (.bool(let b), .scalar(.bool(let c))): b == c
            case (.int(let i), .scalar(.int(let j))): i == j
            case (.float(let f), .scalar(.float(let g))): f == g.bitPattern
            case (.double(let d), .scalar(.double(let e))): d == e.bitPattern
            case (.date(let d), .scalar(.date(let e))): d == e.secondsSince2001.bitPattern
            case (.string(let s), .scalar(.string(let t))): sameKey(s, t)
            case (.data(let d), .scalar(.data(let e))): d == e
            default: false
            }
        }
    }

    /// The scalars numbered so far, by `ScalarKey.hash`: open addressing over object
    /// numbers, sized once for every value (Swift's `Dictionary`, through `Hasher` and
    /// growing by doubling, was most of an export's time).
    private struct ScalarTable {
        var slots: [Int32] = []
        var tags: [UInt32] = []
        var mask = 0
        /// How many slots are taken.
        var filled = 0

        /// Whether another scalar would fill more than two thirds of the slots.
        var isFull: Bool { (filled + 1) * 3 > (mask + 1) * 2 }

        /// Slots for `count` scalars, at most two thirds of them filled: a big domain's
        /// table is half what a half-empty one took, and every page of it was touched.
        mutating func reserve(_ count: Int) {
            var size = 16
            while size * 2 < count * 3 { size <<= 1 }
            slots = [Int32](repeating: -1, count: size)
            tags = [UInt32](repeating: 0, count: size)
            mask = size - 1
        }

        /// The object `key` names, or where to put it: the slot to fill.
        func find(_ key: ScalarKey, hash: UInt64, in objects: [Object]) -> (found: Int?, slot: Int) {
            var i = Int(truncatingIfNeeded: hash) & mask
            let tag = UInt32(truncatingIfNeeded: hash >> 32)
            while slots[i] >= 0 {
                if tags[i] == tag, key.names(objects[Int(slots[i])]) { return (Int(slots[i]), i) }
                i = (i + 1) & mask
            }
            return (nil, i)
        }
    }

    private enum Object {
        case scalar(PlistValue)
        case uid(UInt64)
        case array([Int])
        case dict(keys: [Int], values: [Int])
    }

    private var objects: [Object] = []
    private var scalars = ScalarTable()
    /// The process's, read once here rather than through its global at every scalar.
    private let seed = SipHash13.Seed.process
    /// How many slots numbering looked at past each scalar's own, all told
    /// (`probes(numbering:)`).
    private var probes = 0

    package static func encode(_ value: PlistValue, capacity: Int = 4096) -> [UInt8] {
        var writer = BinaryWriter()
        // Room for every object up front: growing the table by doubling rehashed it all.
        let count = Self.valueCount(value)
        writer.objects.reserveCapacity(count)
        writer.scalars.reserve(count)
        _ = writer.number(value)
        writer.scalars = ScalarTable()  // only numbering needs it
        return writer.emit(capacity: capacity)
    }

    /// How many values `value` holds, itself and every key included: the most objects
    /// numbering can make of it.
    static func valueCount(_ value: PlistValue) -> Int {
        switch value {
        case .array(let elements): return elements.reduce(1) { $0 + valueCount($1) }
        case .dict(let dict): return dict.entries.reduce(1) { $0 + 1 + valueCount($1.value) }
        default: return 1
        }
    }

    /// How many slots past their own numbering `value` looked at for its scalars: about one
    /// a scalar, or the square of their count when they share a slot. For the flood tests,
    /// which count work rather than time it.
    package static func probes(numbering value: PlistValue) -> Int {
        var writer = BinaryWriter()
        writer.scalars.reserve(valueCount(value))
        _ = writer.number(value)
        return writer.probes
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
            let keys = entries.map { scalar(.string($0.key), .scalar(.string($0.key))) }
            let values = entries.map { number($0.value) }
            objects[index] = .dict(keys: keys, values: values)
            return index
        default: return scalar(Self.key(of: value), .scalar(value))
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
        if scalars.slots.isEmpty { scalars.reserve(64) }
        let hash = key.hash(seed)
        let (found, slot) = scalars.find(key, hash: hash, in: objects)
        probes &+= (slot &- Int(truncatingIfNeeded: hash)) & scalars.mask
        if let found { return found }
        objects.append(object)
        scalars.slots[slot] = Int32(objects.count - 1)
        scalars.tags[slot] = UInt32(truncatingIfNeeded: hash >> 32)
        scalars.filled += 1
        // A writer sized for fewer (BinaryEditor numbers a value at a time) grows here.
        if scalars.isFull { rehash() }
        return objects.count - 1
    }

    /// The table at twice the size, every scalar numbered so far put back.
    private mutating func rehash() {
        var bigger = ScalarTable()
        bigger.reserve(objects.count * 2)
        for (index, object) in objects.enumerated() {
            let key: ScalarKey
            switch object {
            case .uid(let n): key = .uid(n)
            case .scalar(let value): key = Self.key(of: value)
            case .array, .dict: continue
            }
            let hash = key.hash(seed)
            let slot = bigger.find(key, hash: hash, in: objects).slot
            bigger.slots[slot] = Int32(index)
            bigger.tags[slot] = UInt32(truncatingIfNeeded: hash >> 32)
            bigger.filled += 1
        }
        scalars = bigger
    }

    /// A scalar's key (collections have none).
    private static func key(of value: PlistValue) -> ScalarKey {
        switch value {
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .float(let f): .float(f.bitPattern)
        case .double(let d): .double(d.bitPattern)
        case .date(let d): .date(d.secondsSince2001.bitPattern)
        case .string(let s): .string(s)
        case .data(let d): .data(d)
        case .array, .dict: .uid(0)
        }
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
        case .scalar(let value): Self.append(value, to: &out)
        case .uid(let n): BinaryObject.uid(n).append(to: &out)
        case .array(let refs):
            BinaryObject.collection(.array, count: refs.count).append(to: &out)
            for r in refs { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
        case .dict(let keys, let values):
            BinaryObject.collection(.dictionary, count: keys.count).append(to: &out)
            for r in keys { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
            for r in values { Self.appendBigEndian(UInt64(base + r), width: refSize, to: &out) }
        }
    }

    /// The offset table, in the smallest width that holds the last offset, and the
    /// trailer (`storeTrailer`).
    static func appendOffsetTable<Offset: BinaryInteger>(
        _ offsets: [Offset], refSize: Int, root: Int, base: Int = 0,
        to out: inout [UInt8]
    ) {
        let tableOffset = base + out.count
        let offsetSize = width(UInt64(offsets.last ?? 0))
        out.reserveCapacity(out.count + offsets.count * offsetSize + 32)
        for offset in offsets { appendBigEndian(UInt64(offset), width: offsetSize, to: &out) }
        out.append(addingCapacity: 32) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
                storeTrailer(
                    offsetSize: offsetSize, refSize: refSize, count: offsets.count, root: root,
                    tableOffset: tableOffset, at: buffer.baseAddress! + count)
                count += 32
            }
        }
    }

    /// The 32-byte trailer: 6 unused bytes, the two widths, the object count, the root,
    /// the offset table's offset.
    static func storeTrailer(
        offsetSize: Int, refSize: Int, count: Int, root: Int, tableOffset: Int, at p: UnsafeMutablePointer<UInt8>
    ) {
        p.initialize(repeating: 0, count: 6)
        p[6] = UInt8(offsetSize)
        p[7] = UInt8(refSize)
        storeBigEndian(UInt64(count), width: 8, at: p + 8)
        storeBigEndian(UInt64(root), width: 8, at: p + 16)
        storeBigEndian(UInt64(tableOffset), width: 8, at: p + 24)
    }

    /// A scalar's object, appended.
    private static func append(_ value: PlistValue, to out: inout [UInt8]) {
        switch value {
        case .bool(let b): BinaryObject.bool(b).append(to: &out)
        case .int(let i): BinaryObject.integer(i).append(to: &out)
        case .float(let f): BinaryObject.float(f.bitPattern).append(to: &out)
        case .double(let d): BinaryObject.eight(.real, d.bitPattern).append(to: &out)
        case .date(let d): BinaryObject.eight(.date, d.secondsSince2001.bitPattern).append(to: &out)
        case .data(let bytes): bytes.withUnsafeBufferPointer { BinaryObject.data($0).append(to: &out) }
        // ASCII, nearly every string, is seen eight bytes at a time and copied whole.
        case .string(var s): s.withUTF8 { BinaryObject.string($0, ascii: ByteWords.isASCII($0)).append(to: &out) }
        case .array, .dict: break
        }
    }

    // The encodings every object is made of, stored at a pointer (`BinaryObject`).

    /// How many bytes `storeInteger` writes for `i`.
    @inline(__always)
    static func integerSize(_ i: PlistInteger) -> Int {
        if i.isUnsigned { return 17 }
        if i.isNegative { return 9 }
        let width = width(i.bitPattern)
        return 1 + (width <= 1 ? 1 : width <= 2 ? 2 : width <= 4 ? 4 : 8)
    }

    /// Writes `i` at `p`; returns how many bytes.
    @inline(__always)
    static func storeInteger(_ i: PlistInteger, at p: UnsafeMutablePointer<UInt8>) -> Int {
        let size = integerSize(i)
        if i.isUnsigned {
            p[0] = BPlistMarker.integer.byte(4)
            (p + 1).initialize(repeating: 0, count: 8)
            storeBigEndian(i.bitPattern, width: 8, at: p + 9)
        } else {
            p[0] = BPlistMarker.integer.byte(UInt8((size - 1).trailingZeroBitCount))
            storeBigEndian(i.bitPattern, width: size - 1, at: p + 1)
        }
        return size
    }

    /// How many bytes `storeHeader` writes for `count`.
    @inline(__always)
    static func headerSize(count: Int) -> Int {
        count < Int(BPlistMarker.extendedCount) ? 1 : 1 + integerSize(PlistInteger(Int64(count)))
    }

    /// Writes a header at `p`; returns how many bytes.
    @inline(__always)
    static func storeHeader(_ marker: BPlistMarker, count: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
        guard count >= Int(BPlistMarker.extendedCount) else {
            p[0] = marker.byte(UInt8(count))
            return 1
        }
        p[0] = marker.byte(BPlistMarker.extendedCount)
        return 1 + storeInteger(PlistInteger(Int64(count)), at: p + 1)
    }

    /// The low `width` bytes of `value`, most significant first, at `p`.
    @inline(__always)
    static func storeBigEndian(_ value: UInt64, width: Int, at p: UnsafeMutablePointer<UInt8>) {
        var value = value
        var i = width
        while i > 0 {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
    }

    /// Bytes needed for `value` (at least one).
    static func width(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    /// The low `width` bytes of `value`, most significant first, appended at once (a byte
    /// at a time, each reference and offset of a big domain cost an append per byte).
    static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) {
            out.appendBytes(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[(8 - width)...]))
        }
    }
}
