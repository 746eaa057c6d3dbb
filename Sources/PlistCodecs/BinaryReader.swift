import PlistModel
/// Reads a binary property list (`bplist00`).
///
/// Every size in the file is untrusted: the trailer, each offset, each count and each
/// reference is checked against the input, with overflow-checked arithmetic, before it
/// is used. Cycles are refused, and a shared object counts once per use toward a total,
/// so a small file cannot expand into an enormous tree.
package struct BinaryReader {
    /// `bplist0` and any eighth byte, as Foundation reads it: the version's second digit
    /// has never changed the format (`bplist1x`, a different format, is refused).
    package static func hasHeader(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= 8 && bytes.prefix(7).elementsEqual("bplist0".utf8)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private let offsetSize: Int
    let refSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    /// Per object: 0 not yet read, 1 on the path from the root (seeing it again is a
    /// cycle), 2 read. A byte each, so the table costs far less than the file.
    private var state: [UInt8]
    /// Per object read: how many values it stands for, so a shared object counts in
    /// full each time it is used and a small file cannot stand for a huge tree.
    private var sizes: [UInt32]
    /// Arrays and dictionaries already built, by object: a shared collection is built
    /// once and counted per use (arrays are copy-on-write, so a reuse costs nothing).
    /// Strings and scalars are cheaper to decode again than to keep.
    private var builtCollections: [Int: PlistValue] = [:]
    private var produced = 0
    /// `checkedForXML`'s `progress`, due when `produced` reaches `nextProgress`.
    private var progress: (() -> Void)?
    private var nextProgress = Int.max
    var depth = 0
    /// In lookup mode, the one top-level key wanted.
    private let wanted: String?
    /// False while a value nobody asked for is read: checked in full, built not at all.
    var materializing: Bool
    private var found: PlistValue?
    /// In lookup mode, when asked for: the key and value objects of each top-level key,
    /// each key hashed by `placeSeed`.
    private var places: [KeyPlace]?
    private var placeSeed = SipHash13.Seed(k0: 0, k1: 0)
    /// In `checkedForXML`'s mode: whether the XML can still be written straight from the
    /// bytes (every dictionary's keys ASCII and strictly ascending, no string XML refuses).
    private var checkingXML = false
    private var xmlReady = true

    /// No document may stand for more values than this (shared objects counted per use).
    package static let maximumValues = 1 << 24

    /// A UID has no case of its own: it is kept as `{CF$UID = n}`, the form Apple's XML
    /// writer gives it, and the binary writer turns that form back into a UID.
    package static let uidKey = "CF$UID"

    package static func read(_ input: [UInt8]) throws(PlistError) -> PlistValue {
        try lookupWithLayout(input.span, key: nil).root
    }

    /// The value of one top-level key; the whole file is checked, only that value built.
    /// `root` is built in full only when it is no dictionary.
    package static func lookup(_ input: [UInt8], key: String) throws(PlistError) -> (
        root: PlistValue, found: PlistValue?
    ) {
        let (root, found, _) = try lookupWithLayout(input.span, key: key)
        return (root, found)
    }

    /// Where things are in a binary plist that passed the reader whole: its widths, object
    /// count and offset table, and its root. Only the reader makes one, after checking
    /// every offset, reference and length, so `BinaryEditor`, which trusts them, is built
    /// from one of these and never from bytes alone.
    package struct Layout {
        let offsetSize: Int
        let refSize: Int
        let objectCount: Int
        let offsetTable: Int
        let rootIndex: Int
        /// The size of the file it was made from: the other fields hold for that size only.
        let fileSize: Int
        fileprivate init(_ reader: BinaryReader) {
            (offsetSize, refSize, objectCount, offsetTable, rootIndex) =
                (reader.offsetSize, reader.refSize, reader.objectCount, reader.offsetTable, reader.rootIndex)
            fileSize = reader.bytes.count
        }
    }

    /// The file's layout when its XML can be written straight from its bytes, object by
    /// object, with no values built (`XMLWriter.encode(binary:chunk:to:)`): the whole file
    /// checked as `read` checks it, its root a dictionary, every dictionary's keys ASCII
    /// and in strictly ascending byte order (the order the XML is written in, and no key
    /// twice), and no string holding a character XML cannot hold. Nil when any of that
    /// fails, and `read` must build the values; throws what `read` throws.
    ///
    /// `progress` is called after each `progressStep` values checked, for a caller whose
    /// bytes are a mapped file to give back the pages looked at (`MappedFile.dropPages`).
    package static func checkedForXML(
        _ buffer: UnsafeBufferPointer<UInt8>, progress: (() -> Void)? = nil
    ) throws(PlistError) -> Layout? {
        var reader = try BinaryReader(buffer, wanted: nil)
        guard BPlistMarker(byte: buffer[try reader.offset(of: reader.rootIndex)]) == .dictionary else { return nil }
        reader.materializing = false
        reader.checkingXML = true
        if let progress {
            reader.progress = progress
            reader.nextProgress = progressStep
        }
        _ = try reader.object(reader.rootIndex)
        return reader.xmlReady ? Layout(reader) : nil
    }

    package static func checkedForXML(_ input: [UInt8]) throws(PlistError) -> Layout? {
        try input.withUnsafeBufferPointer { buffer throws(PlistError) in try checkedForXML(buffer) }
    }

    /// How many values `checkedForXML` checks between calls of its `progress`: a flat
    /// dictionary's keys and values lie in two runs of the file, so this is about 2 × 128 KiB
    /// of a typical file looked at between two.
    package static let progressStep = 1 << 14

    /// `lookup`, with the objects of the top-level keys (`PropertyList.lookupPlaces`).
    static func lookupPlaces(_ input: [UInt8], key: String, seed: SipHash13.Seed) throws(PlistError) -> (
        root: PlistValue, found: PlistValue?, places: [KeyPlace]?
    ) {
        try input.withUnsafeBufferPointer { buffer throws(PlistError) in
            var reader = try BinaryReader(buffer, wanted: key)
            if reader.objectCount < Int(UInt32.max) { reader.places = [] }
            reader.placeSeed = seed
            let root = try reader.document()
            return (root, reader.found, reader.places)
        }
    }

    /// See `PropertyList.value(at:key:binary:)`.
    static func value(at place: KeyPlace, key: String, file: UnsafeBufferPointer<UInt8>) -> KeyPlace.Found {
        do throws(PlistError) {
            var reader = try BinaryReader(file, wanted: nil)
            guard Int(place.from) < reader.objectCount, Int(place.to) < reader.objectCount else { return .broken }
            // As deep as the file's own reading had it: inside the root dictionary.
            reader.depth = 1
            guard case .string(let found) = try reader.object(Int(place.from)).value else { return .broken }
            guard sameKey(found, key) else { return .otherKey }
            return .value(try reader.object(Int(place.to)).value)
        } catch {
            return .broken
        }
    }

    /// `lookup` (`read` with no key) with the layout it checked; `progress` as `checkedForXML`'s.
    package static func lookupWithLayout(_ input: Span<UInt8>, key: String?, progress: (() -> Void)? = nil)
        throws(PlistError) -> (root: PlistValue, found: PlistValue?, layout: Layout)
    {
        try input.withUnsafeBufferPointer { buffer throws(PlistError) in
            var reader = try BinaryReader(buffer, wanted: key)
            if let progress { (reader.progress, reader.nextProgress) = (progress, progressStep) }
            let root = try reader.document()
            return (root, reader.found, Layout(reader))
        }
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, wanted: String?) throws(PlistError) {
        self.bytes = bytes
        self.wanted = wanted
        materializing = wanted == nil
        // Header, at least one object byte, and the 32-byte trailer.
        guard bytes.count >= 8 + 1 + 32 else { throw PlistError.binary(.tooShort, offset: 0) }
        guard Self.hasHeader(bytes) else {
            throw PlistError.binary(.notBplist00, offset: 0)
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        // Widths outside 1...8 would make every later read meaningless.
        guard (1...8).contains(offsetSize) else {
            throw PlistError.binary(.offsetSize(offsetSize), offset: trailer + 6)
        }
        guard (1...8).contains(refSize) else { throw PlistError.binary(.referenceSize(refSize), offset: trailer + 7) }
        let count = Self.bigEndian(bytes, trailer + 8, 8)
        let top = Self.bigEndian(bytes, trailer + 16, 8)
        let table = Self.bigEndian(bytes, trailer + 24, 8)
        // The offset table must lie between the header and the trailer, whole.
        let (tableBytes, o1) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        let (tableEnd, o2) = table.addingReportingOverflow(tableBytes)
        guard count >= 1 else { throw PlistError.binary(.noObjects, offset: trailer + 8) }
        guard !o1, !o2, table >= 9, tableEnd <= UInt64(trailer) else {
            throw PlistError.binary(.offsetTableOutsideFile(objects: count, table: table), offset: trailer + 8)
        }
        // The root must be one of the objects.
        guard top < count else {
            throw PlistError.binary(.topObjectMissing(top: top, objects: count), offset: trailer + 16)
        }
        objectCount = Int(count)
        offsetTable = Int(table)
        state = Array(repeating: 0, count: objectCount)
        sizes = Array(repeating: 0, count: objectCount)
        rootIndex = Int(top)
    }

    let rootIndex: Int

    /// A reader of a file `checkedForXML` passed, from its layout (the trailer is not read
    /// again), keeping nothing per object: `writeXML` walks the file and builds only its
    /// scalars. Throws when `bytes` is not as long as the file that was checked.
    init(checked bytes: UnsafeBufferPointer<UInt8>, layout: Layout) throws(PlistError) {
        guard bytes.count == layout.fileSize else { throw PlistError.binary(.tooShort, offset: bytes.count) }
        self.bytes = bytes
        (offsetSize, refSize, objectCount, offsetTable, rootIndex) =
            (layout.offsetSize, layout.refSize, layout.objectCount, layout.offsetTable, layout.rootIndex)
        (state, sizes, wanted, materializing) = ([], [], nil, true)
    }

    private mutating func document() throws(PlistError) -> PlistValue {
        // A root that is no dictionary is built, so the caller can name its type.
        if wanted != nil, BPlistMarker(byte: bytes[try offset(of: rootIndex)]) != .dictionary { materializing = true }
        return try object(rootIndex).value
    }

    /// `width` bytes from `at` as a big-endian number; the caller has checked they exist.
    static func bigEndian<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ at: Int, _ width: Int) -> UInt64
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var v: UInt64 = 0
        for i in 0..<width { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    /// `bigEndian` over the reader's own bytes, a load for the usual widths: this is most of
    /// walking a big file (every offset and every reference). The caller has checked that
    /// the bytes lie in the file, as for the general one.
    @inline(__always)
    static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ width: Int) -> UInt64 {
        let p = UnsafeRawPointer(bytes.baseAddress!) + at
        switch width {
        case 1: return UInt64(p.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: p.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: p.loadUnaligned(as: UInt32.self)))
        case 8: return UInt64(bigEndian: p.loadUnaligned(as: UInt64.self))
        default:
            var v: UInt64 = 0
            for i in 0..<width { v = v << 8 | UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
            return v
        }
    }

    /// The start of object `index`, checked to lie among the objects.
    // This and the other small readers of the file are inlined: called from a mutating
    // method, a non-mutating one was handed a copy of the whole reader (160 bytes) each
    // time, a quarter of checking a big file.
    @inline(__always)
    func offset(of index: Int) throws(PlistError) -> Int {
        let at = offsetTable + index * offsetSize
        let offset = Self.bigEndian(bytes, at, offsetSize)
        guard offset >= 8, offset < UInt64(offsetTable) else {
            throw PlistError.binary(.objectOutsideObjectArea(index: index, offset: offset), offset: at)
        }
        return Int(offset)
    }

    private mutating func object(_ index: Int) throws(PlistError) -> (value: PlistValue, size: Int) {
        switch state[index] {
        case 1:
            throw PlistError.binary(.objectContainsItself(index), offset: try offset(of: index))
        case 2 where !materializing:
            // Already checked: count what it stands for without walking it again.
            let size = Int(sizes[index])
            let at = try offset(of: index)
            try count(size, at: at)
            // A stand-in of the same kind: a dictionary still checks its keys are strings.
            let marker = BPlistMarker(byte: bytes[at])
            return (marker == .asciiString || marker == .utf16String ? .string("") : .bool(false), size)
        case 2:
            if let built = builtCollections[index] {
                let size = Int(sizes[index])
                try count(size, at: try offset(of: index))
                return (built, size)
            }
        default:
            break
        }
        state[index] = 1
        let start = try offset(of: index)
        let marker = bytes[start]
        let kind = BPlistMarker(byte: marker)
        let result =
            try kind == .array || kind == .dictionary
            ? collection(at: start, marker: marker) : decode(at: start, marker: marker)
        state[index] = 2
        sizes[index] = UInt32(min(result.size, Self.maximumValues))
        if materializing {
            switch result.value {
            case .array, .dict: builtCollections[index] = result.value
            default: break
            }
        }
        return result
    }

    @inline(__always)
    mutating func count(_ n: Int, at offset: Int) throws(PlistError) {
        produced += n
        guard produced <= Self.maximumValues else {
            throw PlistError.binary(.tooManyValues(limit: Self.maximumValues), offset: offset)
        }
        if produced >= nextProgress { reportProgress() }
    }

    /// Out of line: `count` is inlined into every case of `decode`, which recurses.
    @inline(never)
    private mutating func reportProgress() {
        nextProgress = produced + Self.progressStep
        progress?()
    }

    /// `need` bytes from `at` must lie before the offset table.
    @inline(__always)
    func require(_ at: Int, _ need: Int) throws(PlistError) {
        let (end, overflow) = at.addingReportingOverflow(need)
        guard !overflow, need >= 0, end <= offsetTable else {
            throw PlistError.binary(.objectPastEnd, offset: at)
        }
    }

    /// The object at `start`, whose first byte was read as `marker` (read once: a mapped
    /// file's bytes may change under a writer of XML that has read it).
    mutating func decode(at start: Int, marker: UInt8) throws(PlistError) -> (value: PlistValue, size: Int) {
        let low = Int(BPlistMarker.low(marker))
        switch BPlistMarker(byte: marker) {
        case .simple:
            switch marker {
            case BPlistMarker.falseByte: try count(1, at: start); return (.bool(false), 1)
            case BPlistMarker.trueByte: try count(1, at: start); return (.bool(true), 1)
            default: throw PlistError.binary(.unsupportedMarker(marker), offset: start)
            }
        case .integer:
            try count(1, at: start)
            return (.int(try integer(at: start)), 1)
        case .real:
            try count(1, at: start)
            switch low {
            case 2:
                try require(start + 1, 4)
                return (.float(Float(bitPattern: UInt32(Self.bigEndian(bytes, start + 1, 4)))), 1)
            case 3:
                try require(start + 1, 8)
                return (.double(Double(bitPattern: Self.bigEndian(bytes, start + 1, 8))), 1)
            default: throw PlistError.binary(.realWidth(1 << low), offset: start)
            }
        case .date:
            guard marker == BPlistMarker.date.byte(3) else {
                throw PlistError.binary(.unsupportedMarker(marker), offset: start)
            }
            try require(start + 1, 8)
            try count(1, at: start)
            let seconds = Double(bitPattern: Self.bigEndian(bytes, start + 1, 8))
            guard PlistDate.representable.contains(seconds) else {
                throw PlistError.binary(.dateOutOfRange, offset: start)
            }
            return (.date(PlistDate(secondsSince2001: seconds)), 1)
        case .data:
            let (length, body) = try lengthAndBody(start, low)
            try require(body, length)
            try count(1, at: start)
            return (.data(materializing ? Array(bytes[body..<(body + length)]) : []), 1)
        case .asciiString:
            let (length, body) = try lengthAndBody(start, low)
            try require(body, length)
            try count(1, at: start)
            let slice = UnsafeBufferPointer(rebasing: bytes[body..<(body + length)])
            guard ByteWords.isASCII(slice) else { throw PlistError.binary(.nonASCIIString, offset: start) }
            if checkingXML, xmlReady, XMLWriter.hasUnwritable(slice) { xmlReady = false }
            return (.string(materializing ? String(decoding: slice, as: UTF8.self) : ""), 1)
        case .utf16String:
            let (units, body) = try lengthAndBody(start, low)
            let (length, overflow) = units.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PlistError.binary(.stringLengthOverflows, offset: start) }
            try require(body, length)
            try count(1, at: start)
            guard let text = utf16(body, units, build: materializing) else {
                throw PlistError.binary(.invalidUTF16, offset: start)
            }
            if checkingXML, xmlReady {
                for i in 0..<units where bytes[body + 2 * i] == 0 && XMLWriter.isUnwritable(bytes[body + 2 * i + 1]) {
                    xmlReady = false
                }
            }
            return (.string(text), 1)
        case .uid:
            try require(start + 1, low + 1)
            try count(1, at: start)
            let uid = Self.bigEndian(bytes, start + 1, low + 1)
            return (.dict([Self.uidKey: .int(PlistInteger(unsigned: uid))]), 1)
        case .array, .dictionary:
            return try collection(at: start, marker: marker)
        case .unused7, .unused9, .orderedSet, .set, .unusedE, .unusedF:
            throw PlistError.binary(.unsupportedMarker(marker), offset: start)
        }
    }

    /// An array or dictionary, its elements read by `object`. Apart from `decode`, whose
    /// frame holds every scalar's case: a debug build's nesting to `maximumNestingDepth`
    /// must fit a thread's stack.
    private mutating func collection(at start: Int, marker: UInt8) throws(PlistError) -> (
        value: PlistValue, size: Int
    ) {
        let low = Int(BPlistMarker.low(marker))
        switch BPlistMarker(byte: marker) {
        case .array:
            let (n, body) = try lengthAndBody(start, low)
            let refs = try references(body, n)
            try enter(start)
            defer { depth -= 1 }
            var elements: [PlistValue] = []
            elements.reserveCapacity(n)
            var size = 1
            try count(1, at: start)
            for i in 0..<n {
                let (value, s) = try object(try reference(refs, i))
                if materializing { elements.append(value) }
                size += s
            }
            return (.array(elements), size)
        case .dictionary:
            let (n, body) = try lengthAndBody(start, low)
            let (twice, overflow) = n.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PlistError.binary(.collectionSizeOverflows, offset: start) }
            let refs = try references(body, twice)
            try enter(start)
            defer { depth -= 1 }
            var dict = PlistDictionary()
            dict.reserveCapacity(n)
            var size = 1
            try count(1, at: start)
            let lookingUp = wanted != nil && depth == 1
            var previousKey: UnsafeBufferPointer<UInt8>?
            for i in 0..<n {
                if lookingUp { materializing = true }
                let keyObject = try reference(refs, i)
                guard case .string(let key) = try object(keyObject).value else {
                    throw PlistError.binary(.keyIsNotAString, offset: start)
                }
                if checkingXML, xmlReady {
                    let key = try asciiBytes(ofObject: keyObject)
                    // Byte order, the order of `PlistDictionary.sortedEntries`.
                    if let key, previousKey.map({ bytesPrecede($0.span, key.span) }) ?? true {
                        previousKey = key
                    } else {
                        xmlReady = false
                    }
                }
                let match = lookingUp && sameKey(key, wanted!)
                if lookingUp { materializing = match }
                let valueObject = try reference(refs, n + i)
                let (value, s) = try object(valueObject)
                if match { found = value }
                if lookingUp, places != nil {
                    places!.append(
                        KeyPlace(
                            hash: KeyPlace.hash(of: key, seed: placeSeed), from: UInt32(keyObject),
                            to: UInt32(valueObject),
                            valueFrom: 0,
                            valueTo: 0))
                }
                if materializing && !lookingUp { dict.append(key: key, value: value) }
                if lookingUp { materializing = false }
                size += s + 1
            }
            return (.dict(dict), size)
        default:
            preconditionFailure("not a collection")
        }
    }

    /// The bytes of an ASCII string object, nil for any other object.
    @inline(__always)
    func asciiBytes(ofObject index: Int) throws(PlistError) -> UnsafeBufferPointer<UInt8>? {
        let start = try offset(of: index)
        let marker = bytes[start]
        guard BPlistMarker(byte: marker) == .asciiString else { return nil }
        let (length, body) = try lengthAndBody(start, Int(BPlistMarker.low(marker)))
        try require(body, length)
        return UnsafeBufferPointer(rebasing: bytes[body..<(body + length)])
    }

    mutating func enter(_ offset: Int) throws(PlistError) {
        depth += 1
        guard depth <= maximumNestingDepth else {
            throw PlistError.binary(.tooDeep(limit: maximumNestingDepth), offset: offset)
        }
    }

    /// The element count of a marker: its low nibble, or the integer object after it.
    @inline(__always)
    func lengthAndBody(_ start: Int, _ low: Int) throws(PlistError) -> (Int, Int) {
        if low != Int(BPlistMarker.extendedCount) { return (low, start + 1) }
        try require(start + 1, 1)
        let intMarker = bytes[start + 1]
        guard BPlistMarker(byte: intMarker) == .integer else {
            throw PlistError.binary(.badLengthMarker, offset: start + 1)
        }
        guard BPlistMarker.low(intMarker) <= 3 else {
            throw PlistError.binary(.integerWidth(1 << Int(BPlistMarker.low(intMarker))), offset: start + 1)
        }
        let value = try integer(at: start + 1)
        guard let n = value.int64, n >= 0, n <= Int64(offsetTable) else {
            throw PlistError.binary(.lengthPastFile(value), offset: start + 1)
        }
        return (Int(n), start + 2 + (1 << Int(BPlistMarker.low(intMarker))))
    }

    @inline(__always)
    private func integer(at start: Int) throws(PlistError) -> PlistInteger {
        let width = 1 << Int(BPlistMarker.low(bytes[start]))
        guard width <= 16 else { throw PlistError.binary(.integerWidth(width), offset: start) }
        try require(start + 1, width)
        switch width {
        case 1, 2, 4: return PlistInteger(Int64(Self.bigEndian(bytes, start + 1, width)))
        case 8: return PlistInteger(Int64(bitPattern: Self.bigEndian(bytes, start + 1, 8)))
        default:
            // 16 bytes: Apple writes values above Int64.max with a zero high half.
            let high = Self.bigEndian(bytes, start + 1, 8)
            let low = Self.bigEndian(bytes, start + 9, 8)
            if high == 0 { return PlistInteger(unsigned: low) }
            if high == UInt64.max, low >= 1 << 63 { return PlistInteger(Int64(bitPattern: low)) }
            throw PlistError.binary(.integerBeyond64Bits, offset: start)
        }
    }

    /// `n` references starting at `at`, checked to lie in the file.
    @inline(__always)
    func references(_ at: Int, _ n: Int) throws(PlistError) -> Int {
        let (length, overflow) = n.multipliedReportingOverflow(by: refSize)
        guard !overflow else { throw PlistError.binary(.collectionSizeOverflows, offset: at) }
        try require(at, length)
        return at
    }

    @inline(__always)
    func reference(_ base: Int, _ i: Int) throws(PlistError) -> Int {
        let at = base + i * refSize
        let index = Self.bigEndian(bytes, at, refSize)
        guard index < UInt64(objectCount) else {
            throw PlistError.binary(.referenceOutOfRange(index, objects: objectCount), offset: at)
        }
        return Int(index)
    }

    /// The UTF-16BE string at `at`, or "" when `build` is false; nil when it is invalid.
    private func utf16(_ at: Int, _ units: Int, build: Bool) -> String? {
        var decoder = UTF16()
        var scalars = String.UnicodeScalarView()
        var i = 0
        var iterator = AnyIterator<UInt16> {
            guard i < units else { return nil }
            defer { i += 1 }
            return UInt16(bytes[at + 2 * i]) << 8 | UInt16(bytes[at + 2 * i + 1])
        }
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): if build { scalars.append(s) }
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }
}

/// Two lower-case hex digits.
func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
