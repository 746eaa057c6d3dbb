import PlistModel
/// Writes a binary property list in two passes, as Apple's writer does: first number
/// the objects (strings and scalars written once however often they occur), then emit
/// them with the smallest reference and offset widths that fit.
///
/// The output depends only on the value, so an unchanged domain rewrites to the same bytes.
package struct BinaryWriter: ~Copyable {
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

    private enum Object {
        case scalar(PlistValue)
        case uid(UInt64)
        /// An array's references, or a dictionary's: its keys', then its values'.
        case collection(BPlistMarker, [Int])
    }

    private var objects: [Object] = []
    /// The scalars numbered so far, by `ScalarKey.hash`.
    private var scalars = ScalarTable(numbers: 64, scalars: 64)

    package static func encode(_ value: PlistValue, capacity: Int = 4096) -> [UInt8] {
        var writer = numbering(value)
        writer.scalars = ScalarTable(numbers: 0, scalars: 0)  // only numbering needs it
        let refSize = width(UInt64(writer.objects.count - 1))
        var out: [UInt8] = []
        out.reserveCapacity(max(capacity, 64 + writer.objects.count * 4))
        write(
            count: writer.objects.count, refSize: refSize, root: 0, chunk: 1 << 14,
            size: { writer.size($0, refSize: refSize) }, store: { writer.store($0, refSize: refSize, base: 0, at: $1) }
        ) { out.append(contentsOf: $0) }
        return out
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
    package static func probes(numbering value: PlistValue) -> Int { numbering(value).scalars.probes }

    /// `value` numbered, with room for every object up front (doubling rehashed them all).
    private static func numbering(_ value: PlistValue) -> BinaryWriter {
        var writer = BinaryWriter()
        let count = valueCount(value)
        writer.objects.reserveCapacity(count)
        writer.scalars = ScalarTable(numbers: count, scalars: count)
        _ = writer.number(value)
        return writer
    }

    /// How many objects numbering has made so far.
    var objectCount: Int { objects.count }

    // MARK: Pass 1: number the objects, depth first, the container before its contents.

    /// Numbers `value` and what it holds; returns its object index.
    mutating func number(_ value: PlistValue) -> Int {
        switch value {
        case .array(let elements):
            let index = reserve()
            objects[index] = .collection(.array, elements.map { number($0) })
            return index
        case .dict(let dict):
            if let uid = Self.uid(dict) { return scalar(.uid(uid), .uid(uid)) }
            let index = reserve()
            let entries = dict.sortedEntries
            var refs = entries.map { scalar(.string($0.key), .scalar(.string($0.key))) }
            for entry in entries { refs.append(number(entry.value)) }
            objects[index] = .collection(.dictionary, refs)
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
        objects.append(.uid(0))
        return objects.count - 1
    }

    private mutating func scalar(_ key: ScalarKey, _ object: Object) -> Int {
        // A writer sized for fewer (BinaryEditor numbers a value at a time) grows here.
        if scalars.count == scalars.scalars || objects.count >= scalars.numbers { grow() }
        let next = objects.count
        let number = scalars.number(hash: key.hash(scalars.seed), next: next) { [objects] in key.names(objects[$0]) }
        if number == next { objects.append(object) }
        return number
    }

    /// The table at twice the size, every scalar numbered so far put back.
    private mutating func grow() {
        let size = max(64, 2 * objects.count)
        var bigger = ScalarTable(numbers: size, scalars: size)
        for (index, object) in objects.enumerated() {
            let key: ScalarKey
            switch object {
            case .uid(let n): key = .uid(n)
            case .scalar(let value): key = Self.key(of: value)
            case .collection: continue
            }
            _ = bigger.number(hash: key.hash(bigger.seed), next: index) { _ in false }
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

    // MARK: Pass 2: write (`write(count:…)`).

    static let header = Array("bplist00".utf8)

    /// Object `index`'s encoding and the references after it (a dictionary's keys, then its
    /// values), handed to `body`: a string's or data's bytes are only borrowed.
    private func withObject<R>(_ index: Int, _ body: (BinaryObject, [Int]) -> R) -> R {
        switch objects[index] {
        case .uid(let n): return body(.uid(n), [])
        case .collection(let marker, let refs):
            return body(.collection(marker, count: marker == .dictionary ? refs.count / 2 : refs.count), refs)
        case .scalar(.bool(let b)): return body(.bool(b), [])
        case .scalar(.int(let i)): return body(.integer(i), [])
        case .scalar(.float(let f)): return body(.float(f.bitPattern), [])
        case .scalar(.double(let d)): return body(.eight(.real, d.bitPattern), [])
        case .scalar(.date(let d)): return body(.eight(.date, d.secondsSince2001.bitPattern), [])
        case .scalar(.data(let bytes)): return bytes.withUnsafeBufferPointer { body(.data($0), []) }
        // ASCII, nearly every string, is seen eight bytes at a time and copied whole.
        case .scalar(.string(var s)): return s.withUTF8 { body(.string($0, ascii: ByteWords.isASCII($0)), []) }
        case .scalar(.array), .scalar(.dict): preconditionFailure("a collection numbered as a scalar")
        }
    }

    /// How many bytes object `index` takes, its references `refSize` bytes wide.
    func size(_ index: Int, refSize: Int) -> Int {
        withObject(index) { object, refs in object.size + refs.count * refSize }
    }

    /// Object `index` stored at `p`, its references shifted by `base` (where these objects
    /// start in a document that holds others before them) and `refSize` bytes wide.
    func store(_ index: Int, refSize: Int, base: Int, at p: UnsafeMutablePointer<UInt8>) {
        withObject(index) { object, refs in
            var at = p + object.store(at: p)
            for r in refs {
                Self.storeBigEndian(UInt64(base + r), width: refSize, at: at)
                at += refSize
            }
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
}
