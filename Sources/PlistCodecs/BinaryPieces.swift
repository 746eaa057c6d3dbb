/// Reads one top-level value of a binary plist from a few small pieces of the file rather
/// than all of it: the trailer, then for each object the value needs, its offset-table
/// entry and its bytes, each put where it lies in a buffer the size of the file whose
/// other pages are never touched (so never paid for). `BinaryReader` then reads the value
/// from that buffer as it would from the whole file, with all of its checks: a piece this
/// gathering missed reads as zeros, which no check passes.
package enum BinaryPieces {
    /// The most objects, and bytes, one value is gathered for; a bigger value is read
    /// with the whole file.
    static let maximumObjects = 4096, maximumBytes = 1 << 20

    /// `PropertyList.value(at:key:binary:)` for a file that `read` gives pieces of (`count`
    /// bytes from `offset`), gathered into `buffer`: zeros, the file's size (memory the
    /// system hands out untouched, as `calloc` does for a big block, costs nothing until a
    /// piece lands in it). Nil when the value is too big to gather, or a piece cannot be read.
    package static func value(
        at place: KeyPlace, key: String, into buffer: UnsafeMutableRawBufferPointer,
        read: (_ offset: Int, _ count: Int) -> [UInt8]
    ) -> KeyPlace.Found? {
        let size = buffer.count
        guard size >= 8 + 1 + 32 else { return nil }
        var gathered = 0
        func fetch(_ offset: Int, _ count: Int) -> [UInt8]? {
            let count = min(count, size - offset)
            guard offset >= 0, count > 0, gathered + count <= maximumBytes else { return nil }
            let bytes = read(offset, count)
            guard bytes.count == count else { return nil }
            gathered += count
            bytes.withUnsafeBytes {
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: count)
            }
            return bytes
        }
        guard fetch(0, 8) != nil, let trailer = fetch(size - 32, 32) else { return nil }
        func number(_ bytes: [UInt8], _ at: Int, _ width: Int) -> Int? {
            guard at >= 0, width <= 8, at + width <= bytes.count else { return nil }
            let n = BinaryReader.bigEndian(bytes, at, width)
            return n < UInt64(size) * 4 ? Int(n) : nil
        }
        let (offsetSize, refSize) = (Int(trailer[6]), Int(trailer[7]))
        guard (1...8).contains(offsetSize), (1...8).contains(refSize), let count = number(trailer, 8, 8),
            let table = number(trailer, 24, 8), table < size
        else { return nil }
        var pending = [Int(place.from), Int(place.to)]
        var seen = Set<Int>()
        while let object = pending.popLast() {
            guard object < count, seen.insert(object).inserted else { continue }
            guard seen.count <= maximumObjects, let entry = fetch(table + object * offsetSize, offsetSize),
                let start = number(entry, 0, offsetSize), start >= 8, start < table,
                let head = fetch(start, min(16, table - start))
            else { return nil }
            guard let (length, body) = extent(head) else { return nil }
            let marker = head[0] >> 4
            let bodyBytes: Int
            switch marker {
            case 0x4, 0x5: bodyBytes = length
            case 0x6: bodyBytes = length * 2
            case 0xA, 0xC: bodyBytes = length * refSize
            case 0xD: bodyBytes = length * 2 * refSize
            default: bodyBytes = length
            }
            let end = body + bodyBytes
            guard end <= table - start else { return nil }
            if end > head.count {
                guard let rest = fetch(start + head.count, end - head.count) else { return nil }
                if marker == 0xA || marker == 0xC || marker == 0xD {
                    let refs = head + rest
                    for i in 0..<(bodyBytes / refSize) {
                        guard let ref = number(refs, body + i * refSize, refSize) else { return nil }
                        pending.append(ref)
                    }
                }
            } else if marker == 0xA || marker == 0xC || marker == 0xD {
                for i in 0..<(bodyBytes / refSize) {
                    guard let ref = number(head, body + i * refSize, refSize) else { return nil }
                    pending.append(ref)
                }
            }
        }
        return PropertyList.value(at: place, key: key, binary: UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self)))
    }

    /// An object's length (elements, bytes or units, by kind) and where its body starts,
    /// from its first bytes; for a scalar, the bytes after its marker.
    private static func extent(_ head: [UInt8]) -> (Int, Int)? {
        let (kind, low) = (head[0] >> 4, Int(head[0] & 0xF))
        switch kind {
        case 0x0: return (0, 1)
        case 0x1, 0x2: return (1 << low, 1)
        case 0x3: return (8, 1)
        case 0x8: return (low + 1, 1)
        default:
            guard low == 0xF else { return (low, 1) }
            guard head.count >= 2, head[1] >> 4 == 0x1 else { return nil }
            let width = 1 << Int(head[1] & 0xF)
            guard width <= 8, 2 + width <= head.count else { return nil }
            let n = BinaryReader.bigEndian(head, 2, width)
            guard n < 1 << 32 else { return nil }
            return (Int(n), 2 + width)
        }
    }
}
