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
            guard let (length, body) = BPlistMarker.extent(head, at: 0) else { return nil }
            let marker = BPlistMarker(byte: head[0])
            let end = body + marker.bodySize(length, refSize: refSize)
            guard end <= table - start else { return nil }
            var bytes = head
            if end > head.count {
                guard let rest = fetch(start + head.count, end - head.count) else { return nil }
                bytes += rest
            }
            guard marker == .array || marker == .set || marker == .dictionary else { continue }
            for i in 0..<((end - body) / refSize) {
                guard let ref = number(bytes, body + i * refSize, refSize) else { return nil }
                pending.append(ref)
            }
        }
        return PropertyList.value(at: place, key: key, binary: UnsafeBufferPointer(buffer.bindMemory(to: UInt8.self)))
    }
}
