/// GVariant's serialised form, read: the bytes a GVDB file (a compiled schema, a dconf
/// database) holds for each value. Every offset and size is checked against the bytes
/// given; a value that does not fit its type is refused, never guessed.
enum VariantBytes {
    /// A serialised `v`: the value, a NUL, then its type string.
    static func boxed(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(DesktopError) -> Variant {
        guard let nul = bytes.lastIndex(of: 0) else { throw .corrupt("a variant without its type") }
        let typeText = Array(bytes[(nul + 1)...])
        var i = 0
        guard let type = VariantType.parse(typeText, &i, depth: depth), i == typeText.count else {
            throw .corrupt("a variant of an unknown type")
        }
        return try value(bytes[bytes.startIndex..<nul], as: type, depth: depth)
    }

    /// A value of `type` that is exactly `bytes`.
    static func value(_ bytes: ArraySlice<UInt8>, as type: VariantType, depth: Int = 0) throws(DesktopError) -> Variant
    {
        guard depth < VariantType.maximumDepth else { throw .corrupt("values nested too deep") }
        if let size = type.fixedSize, bytes.count != size {
            throw .corrupt("a \(type.text) of \(bytes.count) bytes")
        }
        switch type {
        case .basic(let c): return try basic(bytes, c)
        case .variant: return .boxed(try boxed(bytes, depth: depth + 1))
        case .maybe(let element):
            if bytes.isEmpty { return .maybe(element, nil) }
            if let size = element.fixedSize {
                guard bytes.count == size else { throw .corrupt("a maybe of the wrong size") }
                return .maybe(element, try value(bytes, as: element, depth: depth + 1))
            }
            guard bytes.last == 0 else { throw .corrupt("a maybe without its closing byte") }
            return .maybe(element, try value(bytes.dropLast(), as: element, depth: depth + 1))
        case .array(let element):
            var items: [Variant] = []
            for piece in try arrayPieces(bytes, element) {
                items.append(try value(piece, as: element, depth: depth + 1))
            }
            return .array(element, items)
        case .tuple(let members):
            return .tuple(
                try tuplePieces(bytes, members).enumerated().map { (n, piece) throws(DesktopError) in
                    try value(piece, as: members[n], depth: depth + 1)
                })
        case .entry(let key, let valueType):
            let pieces = try tuplePieces(bytes, [key, valueType])
            return .entry(
                try value(pieces[0], as: key, depth: depth + 1), try value(pieces[1], as: valueType, depth: depth + 1))
        }
    }

    private static func basic(_ bytes: ArraySlice<UInt8>, _ c: UInt8) throws(DesktopError) -> Variant {
        switch c {
        case UInt8(ascii: "b"):
            guard bytes.first! <= 1 else { throw .corrupt("a boolean that is neither 0 nor 1") }
            return .bool(bytes.first! == 1)
        case UInt8(ascii: "y"), UInt8(ascii: "q"), UInt8(ascii: "u"), UInt8(ascii: "t"):
            return .unsigned(little(bytes), c)
        case UInt8(ascii: "n"): return .signed(Int64(Int16(truncatingIfNeeded: little(bytes))), c)
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .signed(Int64(Int32(truncatingIfNeeded: little(bytes))), c)
        case UInt8(ascii: "x"): return .signed(Int64(bitPattern: little(bytes)), c)
        case UInt8(ascii: "d"): return .double(Double(bitPattern: little(bytes)))
        default:
            guard bytes.last == 0, !bytes.dropLast().contains(0) else { throw .corrupt("a string without its end") }
            let text = Array(bytes.dropLast())
            guard String(validating: text, as: UTF8.self) != nil else { throw .corrupt("a string that is not UTF-8") }
            return .string(text, c)
        }
    }

    /// A little-endian number of 1 to 8 bytes.
    static func little(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var n: UInt64 = 0
        for (shift, byte) in bytes.enumerated() { n |= UInt64(byte) << (8 * shift) }
        return n
    }

    /// How wide a container's framing offsets are: the fewest bytes that hold its size.
    private static func offsetSize(_ total: Int) -> Int {
        total <= 0xFF ? 1 : total <= 0xFFFF ? 2 : total <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func offset(_ bytes: ArraySlice<UInt8>, at relative: Int, size: Int) throws(DesktopError) -> Int {
        let start = bytes.startIndex + relative
        guard relative >= 0, relative + size <= bytes.count else { throw .corrupt("a framing offset out of bounds") }
        let n = little(bytes[start..<(start + size)])
        guard n <= UInt64(bytes.count) else { throw .corrupt("a framing offset past its container") }
        return Int(n)
    }

    private static func arrayPieces(_ bytes: ArraySlice<UInt8>, _ element: VariantType) throws(DesktopError)
        -> [ArraySlice<UInt8>]
    {
        if bytes.isEmpty { return [] }
        let base = bytes.startIndex
        if let size = element.fixedSize {
            guard bytes.count % size == 0 else { throw .corrupt("an array cut mid-element") }
            return stride(from: 0, to: bytes.count, by: size).map { bytes[(base + $0)..<(base + $0 + size)] }
        }
        let width = offsetSize(bytes.count)
        let tableStart = try offset(bytes, at: bytes.count - width, size: width)
        guard tableStart <= bytes.count - width, (bytes.count - tableStart) % width == 0 else {
            throw .corrupt("an array's offsets do not fit it")
        }
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for n in 0..<((bytes.count - tableStart) / width) {
            let end = try offset(bytes, at: tableStart + n * width, size: width)
            start = VariantType.aligned(start, element.alignment)
            guard start <= end, end <= tableStart else { throw .corrupt("an array's element out of order") }
            pieces.append(bytes[(base + start)..<(base + end)])
            start = end
        }
        return pieces
    }

    private static func tuplePieces(_ bytes: ArraySlice<UInt8>, _ members: [VariantType]) throws(DesktopError)
        -> [ArraySlice<UInt8>]
    {
        let base = bytes.startIndex
        let width = offsetSize(bytes.count)
        var pieces: [ArraySlice<UInt8>] = []
        var position = 0, offsetsRead = 0
        for (n, member) in members.enumerated() {
            position = VariantType.aligned(position, member.alignment)
            let end: Int
            if let size = member.fixedSize {
                end = position + size
            } else if n == members.count - 1 {
                end = bytes.count - width * offsetsRead
            } else {
                offsetsRead += 1
                end = try offset(bytes, at: bytes.count - width * offsetsRead, size: width)
            }
            guard position <= end, end <= bytes.count - width * offsetsRead else {
                throw .corrupt("a tuple's member out of bounds")
            }
            pieces.append(bytes[(base + position)..<(base + end)])
            position = end
        }
        return pieces
    }
}
