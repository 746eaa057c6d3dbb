/// Eight bytes read as one word, for the scans that run once per byte of a big domain's
/// text (markup in XML, bytes JSON escapes, ASCII, a tag's whole name): the first byte
/// the lowest, on every machine.
enum ByteWords {
    /// The eight bytes of `bytes` at `offset`; nil within eight of the end.
    @inline(__always)
    static func load(_ bytes: Span<UInt8>, at offset: Int) -> UInt64? {
        offset + 8 <= bytes.count ? bytes.word(at: offset) : nil
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

    /// The index of the first byte from `start` on that `matches` (or the end), eight
    /// bytes at a time: `candidates` flags the high bit of each byte of a word that may
    /// match, exact at its lowest flagged byte (as `below` and `equal` are). When it flags
    /// only bytes that match (`exact`), that byte is the answer; otherwise (a test of
    /// control bytes flags tabs too) the word's bytes are looked at from there.
    @inline(__always)
    static func first(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, exact: Bool = true,
        candidates: (UInt64) -> UInt64, matching matches: (UInt8) -> Bool
    ) -> Int {
        var i = start
        while let word = load(bytes.span, at: i) {
            let found = candidates(word)
            if found != 0 {
                var j = i + firstByte(found)
                if exact { return j }
                repeat {
                    if matches(bytes[j]) { return j }
                    j += 1
                } while j < i + 8
            }
            i += 8
        }
        while i < bytes.count, !matches(bytes[i]) { i += 1 }
        return i
    }

    /// Whether every byte of `bytes` is ASCII, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, high: UInt64 = 0
        while let word = load(bytes.span, at: i) {
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
