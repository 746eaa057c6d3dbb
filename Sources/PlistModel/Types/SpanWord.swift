extension Span where Element == UInt8 {
    /// The eight bytes from `i` on as one little-endian word, range-checked. The load is
    /// "unsafe" only for types some bit patterns of which are invalid, which no `UInt64`
    /// is; assembling the word from eight checked bytes was not always made one load, and
    /// cost a twentieth of reading a big XML domain.
    @inlinable @inline(__always)
    package func word(at i: Int) -> UInt64 {
        UInt64(littleEndian: bytes.unsafeLoadUnaligned(fromByteOffset: i, as: UInt64.self))
    }
}
