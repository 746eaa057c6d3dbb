/// Eight bytes read as one word, for the scans that run once per byte of a big domain's
/// text (markup in XML, bytes JSON escapes, ASCII, a tag's whole name): the first byte
/// the lowest, on every machine.
enum ByteWords {
    /// The eight bytes of `bytes` at `offset`; nil within eight of the end.
    @inline(__always)
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        return UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }

    /// `word` with the high bit of each byte below `n` (at most 128) set, and other
    /// bits clear, `(x - n·0x01…) & ~x & 0x80…`: exact for the lowest byte, as a borrow
    /// can only set a bit above a byte that is truly below `n`.
    @inline(__always)
    static func below(_ word: UInt64, _ n: UInt8) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(n)) & ~word & 0x8080_8080_8080_8080
    }

    /// `below` for the bytes of `word` that are `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), 1)
    }

    /// The index in its word of the byte whose high bit is the lowest set in `found`.
    @inline(__always)
    static func firstByte(_ found: UInt64) -> Int { found.trailingZeroBitCount / 8 }

    /// Whether every byte of `bytes` is ASCII, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, high: UInt64 = 0
        while let word = load(bytes, at: i) {
            high |= word
            i += 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
