/// SipHash-1-3 (Aumasson and Bernstein; what Swift's `Hasher` and the tables of Rust and
/// Python use), a hash keyed by a secret 128-bit seed: the hash of the tables that hold
/// keys and strings from files anyone may have written (the binary writer's numbering,
/// `XMLNodes`', the key index). An unkeyed hash lets such a file pick keys that all land
/// in one slot, which makes a table's work grow with the square of its keys: 40,000 keys
/// that FNV-1a put in one slot made exporting a binary domain take 59 s instead of 0.06 s.
/// Without the seed, where a key lands cannot be worked out.
///
/// It takes 64-bit words, as SipHash takes its 8-byte blocks; bytes are SipHash's message
/// (`combine(_:)` of a buffer), so a hash of bytes alone is SipHash-1-3's of them.
package struct SipHash13 {
    private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64

    @inline(__always)
    package init(_ seed: Seed) {
        (v0, v1) = (seed.k0 ^ 0x736f_6d65_7073_6575, seed.k1 ^ 0x646f_7261_6e64_6f6d)
        (v2, v3) = (seed.k0 ^ 0x6c79_6765_6e65_7261, seed.k1 ^ 0x7465_6462_7974_6573)
    }

    /// One block.
    @inline(__always)
    package mutating func combine(_ word: UInt64) {
        v3 ^= word
        round()
        v0 ^= word
    }

    /// The bytes as SipHash's message: whole words little-endian, then the last 0–7 bytes
    /// with the count's low byte above them (so "a" and "a\0" differ). The last bytes are
    /// loaded in at most two overlapping loads, not one at a time: most keys end in some.
    @inline(__always)
    package mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        var i = 0
        while i + 8 <= count {
            combine(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        let rest = count - i
        var last = UInt64(truncatingIfNeeded: count) << 56
        if rest >= 4 {
            let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            last |= UInt64(low) | UInt64(high) << (8 * UInt64(rest - 4))
        } else if rest >= 2 {
            let low = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt16.self))
            let high = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self))
            last |= UInt64(low) | UInt64(high) << (8 * UInt64(rest - 2))
        } else if rest == 1 {
            last |= UInt64(bytes[i])
        }
        combine(last)
    }

    @inline(__always)
    package mutating func finalize() -> UInt64 {
        v2 ^= 0xff
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    @inline(__always)
    private mutating func round() {
        v0 &+= v1
        v1 = v1 << 13 | v1 >> 51
        v1 ^= v0
        v0 = v0 << 32 | v0 >> 32
        v2 &+= v3
        v3 = v3 << 16 | v3 >> 48
        v3 ^= v2
        v0 &+= v3
        v3 = v3 << 21 | v3 >> 43
        v3 ^= v0
        v2 &+= v1
        v1 = v1 << 17 | v1 >> 47
        v1 ^= v2
        v2 = v2 << 32 | v2 >> 32
    }

    /// SipHash-1-3 of `bytes` alone.
    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: Seed) -> UInt64 {
        var h = SipHash13(seed)
        h.combine(bytes)
        return h.finalize()
    }
}

extension SipHash13 {
    /// The secret a hash is keyed by: SipHash's 16-byte key, as its two little-endian
    /// halves (16 bytes, so a reader that may gather key places carries one cheaply).
    package struct Seed: Sendable, Equatable {
        package let k0: UInt64, k1: UInt64

        package init(k0: UInt64, k1: UInt64) { (self.k0, self.k1) = (k0, k1) }

        /// A new secret from the OS (`getrandom`, through the standard library's generator).
        package static func random() -> Seed {
            var generator = SystemRandomNumberGenerator()
            return Seed(k0: generator.next(), k1: generator.next())
        }

        /// This process's, drawn when first used: the in-memory tables' seed. Only a table
        /// that outlives the process (the key index) keeps a seed of its own, in its file.
        package static let process = random()
    }
}
