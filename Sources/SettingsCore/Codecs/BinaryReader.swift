/// Reads a binary property list (`bplist00`).
///
/// Every size in the file is untrusted: the trailer, each offset, each count and each
/// reference is checked against the input, with overflow-checked arithmetic, before it
/// is used. Cycles are refused, and a shared object counts once per use toward a total,
/// so a small file cannot expand into an enormous tree.
struct BinaryReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    /// Objects on the path from the root to the one being read (cycle detection).
    private var onPath: [Bool]
    /// Each object decoded once, with the number of values it stands for.
    private var decoded: [(value: PlistValue, size: Int)?]
    private var produced = 0
    private var depth = 0

    /// No document may stand for more values than this (shared objects counted per use).
    static let maximumValues = 1 << 24

    /// A UID has no case of its own: it is kept as `{CF$UID = n}`, the form Apple's XML
    /// writer gives it, and the binary writer turns that form back into a UID.
    static let uidKey = "CF$UID"

    static func read(_ input: [UInt8]) throws(PlistError) -> PlistValue {
        let result: Result<PlistValue, PlistError> = input.withUnsafeBufferPointer { buffer in
            do throws(PlistError) {
                var reader = try BinaryReader(buffer)
                return .success(try reader.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlistError) {
        self.bytes = bytes
        // Header, at least one object byte, and the 32-byte trailer.
        guard bytes.count >= 8 + 1 + 32 else { throw PlistError.malformedBinary("file too short", offset: 0) }
        guard bytes[0..<8].elementsEqual("bplist00".utf8) else {
            throw PlistError.malformedBinary("not a bplist00 header", offset: 0)
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        // Widths outside 1...8 would make every later read meaningless.
        guard (1...8).contains(offsetSize) else { throw PlistError.malformedBinary("offset size \(offsetSize)", offset: trailer + 6) }
        guard (1...8).contains(refSize) else { throw PlistError.malformedBinary("reference size \(refSize)", offset: trailer + 7) }
        let count = Self.bigEndian(bytes, trailer + 8, 8)
        let top = Self.bigEndian(bytes, trailer + 16, 8)
        let table = Self.bigEndian(bytes, trailer + 24, 8)
        // The offset table must lie between the header and the trailer, whole.
        let (tableBytes, o1) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        let (tableEnd, o2) = table.addingReportingOverflow(tableBytes)
        guard count >= 1, !o1, !o2, table >= 9, tableEnd <= UInt64(trailer) else {
            throw PlistError.malformedBinary("object count \(count) or offset table at \(table) does not fit the file", offset: trailer + 8)
        }
        // The root must be one of the objects.
        guard top < count else { throw PlistError.malformedBinary("top object \(top) of \(count)", offset: trailer + 16) }
        objectCount = Int(count)
        offsetTable = Int(table)
        onPath = Array(repeating: false, count: objectCount)
        decoded = Array(repeating: nil, count: objectCount)
        rootIndex = Int(top)
    }

    private let rootIndex: Int

    private mutating func document() throws(PlistError) -> PlistValue {
        try object(rootIndex).value
    }

    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<width { v = v << 8 | UInt64(bytes[at + i]) }
        return v
    }

    /// The start of object `index`, checked to lie among the objects.
    private func offset(of index: Int) throws(PlistError) -> Int {
        let at = offsetTable + index * offsetSize
        let offset = Self.bigEndian(bytes, at, offsetSize)
        guard offset >= 8, offset < UInt64(offsetTable) else {
            throw PlistError.malformedBinary("object \(index) at offset \(offset) is outside the object area", offset: at)
        }
        return Int(offset)
    }

    private mutating func object(_ index: Int) throws(PlistError) -> (value: PlistValue, size: Int) {
        if let done = decoded[index] {
            try count(done.size, at: try offset(of: index))
            return done
        }
        guard !onPath[index] else { throw PlistError.malformedBinary("object \(index) contains itself", offset: try offset(of: index)) }
        onPath[index] = true
        defer { onPath[index] = false }
        let result = try decode(at: try offset(of: index))
        decoded[index] = result
        return result
    }

    private mutating func count(_ n: Int, at offset: Int) throws(PlistError) {
        produced += n
        guard produced <= Self.maximumValues else {
            throw PlistError.malformedBinary("more than \(Self.maximumValues) values (shared objects expand too far)", offset: offset)
        }
    }

    /// `need` bytes from `at` must lie before the offset table.
    private func require(_ at: Int, _ need: Int) throws(PlistError) {
        let (end, overflow) = at.addingReportingOverflow(need)
        guard !overflow, need >= 0, end <= offsetTable else {
            throw PlistError.malformedBinary("object runs past the end of the object area", offset: at)
        }
    }

    private mutating func decode(at start: Int) throws(PlistError) -> (value: PlistValue, size: Int) {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: try count(1, at: start); return (.bool(false), 1)
            case 0x09: try count(1, at: start); return (.bool(true), 1)
            default: throw PlistError.malformedBinary("unsupported object marker 0x\(hexByte(marker))", offset: start)
            }
        case 0x1:
            try count(1, at: start)
            return (.int(try integer(at: start)), 1)
        case 0x2:
            try count(1, at: start)
            switch low {
            case 2:
                try require(start + 1, 4)
                return (.float(Float(bitPattern: UInt32(Self.bigEndian(bytes, start + 1, 4)))), 1)
            case 3:
                try require(start + 1, 8)
                return (.double(Double(bitPattern: Self.bigEndian(bytes, start + 1, 8))), 1)
            default: throw PlistError.malformedBinary("real of \(1 << low) bytes", offset: start)
            }
        case 0x3:
            guard marker == 0x33 else { throw PlistError.malformedBinary("unsupported object marker 0x\(hexByte(marker))", offset: start) }
            try require(start + 1, 8)
            try count(1, at: start)
            let seconds = Double(bitPattern: Self.bigEndian(bytes, start + 1, 8))
            // Years 1 to 9999, the range every reader of dates can represent.
            guard seconds.isFinite, seconds >= -63_114_076_800, seconds < 252_423_993_600 else {
                throw PlistError.malformedBinary("date \(seconds) is out of range", offset: start)
            }
            return (.date(PlistDate(secondsSince2001: seconds)), 1)
        case 0x4:
            let (length, body) = try lengthAndBody(start, low)
            try require(body, length)
            try count(1, at: start)
            return (.data(Array(bytes[body..<(body + length)])), 1)
        case 0x5:
            let (length, body) = try lengthAndBody(start, low)
            try require(body, length)
            try count(1, at: start)
            let slice = UnsafeBufferPointer(rebasing: bytes[body..<(body + length)])
            guard slice.allSatisfy({ $0 < 0x80 }) else { throw PlistError.malformedBinary("ASCII string with a non-ASCII byte", offset: start) }
            return (.string(String(decoding: slice, as: UTF8.self)), 1)
        case 0x6:
            let (units, body) = try lengthAndBody(start, low)
            let (length, overflow) = units.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PlistError.malformedBinary("UTF-16 string length overflows", offset: start) }
            try require(body, length)
            try count(1, at: start)
            guard let text = utf16(body, units) else { throw PlistError.malformedBinary("invalid UTF-16 string", offset: start) }
            return (.string(text), 1)
        case 0x8:
            try require(start + 1, low + 1)
            try count(1, at: start)
            let uid = Self.bigEndian(bytes, start + 1, low + 1)
            return (.dict([Self.uidKey: .int(PlistInteger(unsigned: uid))]), 1)
        case 0xA:
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
                elements.append(value)
                size += s
            }
            return (.array(elements), size)
        case 0xD:
            let (n, body) = try lengthAndBody(start, low)
            let (twice, overflow) = n.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PlistError.malformedBinary("dictionary size overflows", offset: start) }
            let refs = try references(body, twice)
            try enter(start)
            defer { depth -= 1 }
            var dict = PlistDictionary()
            dict.reserveCapacity(n)
            var size = 1
            try count(1, at: start)
            for i in 0..<n {
                guard case .string(let key) = try object(try reference(refs, i)).value else {
                    throw PlistError.malformedBinary("dictionary key is not a string", offset: start)
                }
                let (value, s) = try object(try reference(refs, n + i))
                dict.append(key: key, value: value)
                size += s + 1
            }
            return (.dict(dict), size)
        default:
            throw PlistError.malformedBinary("unsupported object marker 0x\(hexByte(marker))", offset: start)
        }
    }

    private mutating func enter(_ offset: Int) throws(PlistError) {
        depth += 1
        guard depth <= maximumNestingDepth else {
            throw PlistError.malformedBinary("nested deeper than \(maximumNestingDepth) levels", offset: offset)
        }
    }

    /// The element count of a marker: its low nibble, or the integer object after it.
    private func lengthAndBody(_ start: Int, _ low: Int) throws(PlistError) -> (Int, Int) {
        if low != 0x0F { return (low, start + 1) }
        try require(start + 1, 1)
        let intMarker = bytes[start + 1]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw PlistError.malformedBinary("bad length marker", offset: start + 1)
        }
        let value = try integer(at: start + 1)
        guard let n = value.int64, n >= 0, n <= Int64(offsetTable) else {
            throw PlistError.malformedBinary("length \(value) does not fit the file", offset: start + 1)
        }
        return (Int(n), start + 2 + (1 << Int(intMarker & 0x0F)))
    }

    private func integer(at start: Int) throws(PlistError) -> PlistInteger {
        let width = 1 << Int(bytes[start] & 0x0F)
        guard width <= 16 else { throw PlistError.malformedBinary("integer of \(width) bytes", offset: start) }
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
            throw PlistError.malformedBinary("integer does not fit 64 bits", offset: start)
        }
    }

    /// `n` references starting at `at`, checked to lie in the file.
    private func references(_ at: Int, _ n: Int) throws(PlistError) -> Int {
        let (length, overflow) = n.multipliedReportingOverflow(by: refSize)
        guard !overflow else { throw PlistError.malformedBinary("collection size overflows", offset: at) }
        try require(at, length)
        return at
    }

    private func reference(_ base: Int, _ i: Int) throws(PlistError) -> Int {
        let at = base + i * refSize
        let index = Self.bigEndian(bytes, at, refSize)
        guard index < UInt64(objectCount) else {
            throw PlistError.malformedBinary("reference \(index) to one of \(objectCount) objects", offset: at)
        }
        return Int(index)
    }

    private func utf16(_ at: Int, _ units: Int) -> String? {
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
            case .scalarValue(let s): scalars.append(s)
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
