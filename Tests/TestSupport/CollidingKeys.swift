/// Keys made to collide under the unkeyed hashes the tables used before they were keyed
/// (issue 48): the flood an attacker plants in a domain file, and keys of the same count
/// and size drawn at random to compare with. Each hash is written out here as it was, so
/// a test can show that its keys do collide under it: a flood test that passed because
/// its keys never collided would prove nothing.
public enum CollidingKeys {
    /// The bytes keys are made of: printable ASCII without `<`, `>` and `&`, so every key
    /// is written in XML as it is (`<key>text</key>`, which the key index needs), and read
    /// and passed on a command line without quoting trouble.
    public static let alphabet: [UInt8] = (0x21..<0x7F).filter { !"<>&".utf8.contains(UInt8($0)) }.map { UInt8($0) }

    // MARK: The old hashes

    /// FNV-1a's offset basis and prime, as both old hashes used them.
    static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3

    /// One step of the binary writer's old hash (`BinaryWriter.mix`): FNV-1a a word at a
    /// time, the high bits folded down. Each step is a bijection of `h ^ word`.
    static func step(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let y = (h ^ word) &* prime
        return y ^ (y >> 29)
    }

    /// The binary writer's old hash of a string (`tag` 7, `ScalarKey.hash`) or of an XML
    /// node's (`tag` the node's kind, 0 for ASCII text, `XMLNodes.hash`): the tag, the bytes
    /// eight at a time (little-endian), the rest most significant first, and the count.
    public static func oldWriterHash(tag: UInt64, _ key: [UInt8]) -> UInt64 {
        var h = step(basis, tag)
        var i = 0
        while i + 8 <= key.count {
            h = step(h, word(key, at: i))
            i += 8
        }
        var last: UInt64 = 0
        while i < key.count {
            last = last << 8 | UInt64(key[i])
            i += 1
        }
        return step(step(h, last), UInt64(key.count))
    }

    /// The key index's old hash (`KeyPlace.hash`): FNV-1a, 64 bits, a byte at a time.
    public static func oldIndexHash(_ key: [UInt8]) -> UInt64 {
        key.reduce(basis) { ($0 ^ UInt64($1)) &* prime }
    }

    // MARK: Floods

    /// `count` distinct 48-byte keys in byte order with one old writer hash for `tag` (64 bits,
    /// so one slot and one tag in any table), made three 16-byte blocks at a time (Joux's
    /// multicollision): each block takes the hash from one state to one next state by
    /// any of `n` pairs of words, so `n³` keys share the end state. A pair is found by
    /// drawing its first word and working out the second (each step can be undone),
    /// kept when the second is printable too: one draw in about 3,900.
    public static func writerFlood(tag: UInt64, count: Int, using rng: inout some RandomNumberGenerator) -> [[UInt8]] {
        var n = 1
        while n * n * n < count { n += 1 }
        var state = step(basis, tag)
        var keys: [[UInt8]] = [[]]
        for _ in 0..<3 {
            let target = rng.next()
            var pairs: [[UInt8]] = []
            while pairs.count < n {
                let first = printableWord(&rng)
                let second = step(state, first) ^ target
                if isPrintable(second) { pairs.append(bytes(of: first) + bytes(of: second)) }
            }
            // Each block's pairs in byte order, so the keys are too (all are one length).
            pairs.sort { $0.lexicographicallyPrecedes($1) }
            keys = keys.flatMap { key in pairs.map { key + $0 } }
            state = step(0, target)
        }
        return Array(keys.prefix(count))
    }

    /// `count` distinct 15-byte keys whose old index hashes share their low `bits` bits (a
    /// table of up to 2^`bits` slots puts them all in one slot) and, almost surely, differ
    /// above them (the index refuses keys that share all 64; the tests check). The low bits of FNV-1a depend only on the
    /// low bits before each byte, so a 12-byte prefix is steered there by three more bytes:
    /// the last two worked back from the target, for every pair, then the first looked
    /// up among them for each prefix (about six keys a prefix).
    public static func indexFlood(count: Int, bits: Int, using rng: inout some RandomNumberGenerator) -> [[UInt8]] {
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        var inverse: UInt64 = 1  // the prime's inverse mod 2^64, by Newton's iteration
        for _ in 0..<6 { inverse = inverse &* (2 &- prime &* inverse) }
        let target = rng.next() & mask
        // For each state the last two bytes lead from to the target: which two (plus one).
        var back = [UInt16](repeating: 0, count: 1 << bits)
        for (i, b) in alphabet.enumerated() {
            for (j, c) in alphabet.enumerated() {
                let beforeC = ((target &* inverse) & mask) ^ UInt64(c)
                back[Int(((beforeC &* inverse) & mask) ^ UInt64(b))] = UInt16(i * alphabet.count + j + 1)
            }
        }
        var keys: [[UInt8]] = []
        var n = 0
        while keys.count < count {
            let prefix = [UInt8(ascii: "k")] + String(100_000_000_000 + n).utf8.dropFirst()
            n += 1
            let state = oldIndexHash(prefix) & mask
            for a in alphabet where keys.count < count {
                let pair = Int(back[Int(((state ^ UInt64(a)) &* prime) & mask)])
                if pair > 0 {
                    keys.append(
                        prefix + [a, alphabet[(pair - 1) / alphabet.count], alphabet[(pair - 1) % alphabet.count]])
                }
            }
        }
        return keys
    }

    /// `count` keys of `length` random bytes of the alphabet: distinct, as keys of 15 bytes
    /// or more drawn from 91 almost surely are (the callers count them).
    public static func random(count: Int, length: Int, using rng: inout some RandomNumberGenerator) -> [[UInt8]] {
        let alphabet = Self.alphabet
        var keys: [[UInt8]] = []
        keys.reserveCapacity(count)
        for _ in 0..<count {
            var key = [UInt8](repeating: 0, count: length)
            var bits: UInt64 = 0
            for i in 0..<length {
                if i % 8 == 0 { bits = rng.next() }
                key[i] = alphabet[Int(bits & 0xFF) % alphabet.count]
                bits >>= 8
            }
            keys.append(key)
        }
        return keys
    }

    // MARK: Words

    private static func word(_ key: [UInt8], at i: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(key[i + $1]) << (8 * UInt64($1)) }
    }

    private static func bytes(of word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
    }

    /// A word of eight alphabet bytes, little-endian.
    private static func printableWord(_ rng: inout some RandomNumberGenerator) -> UInt64 {
        let r = rng.next()
        var word: UInt64 = 0
        for i in 0..<8 {
            word |= UInt64(alphabet[Int((r >> (8 * UInt64(i))) & 0xFF) % alphabet.count]) << (8 * UInt64(i))
        }
        return word
    }

    private static let inAlphabet: [Bool] = (0..<256).map { alphabet.contains(UInt8($0)) }

    /// Whether every byte of the word is in the alphabet (most fail at the first).
    private static func isPrintable(_ word: UInt64) -> Bool {
        var w = word
        for _ in 0..<8 {
            if !inAlphabet[Int(w & 0xFF)] { return false }
            w >>= 8
        }
        return true
    }
}

extension CollidingKeys {
    /// An XML domain of `keys`, in byte order as a file we or Apple wrote has them (the
    /// direct export needs that), each set to its place. Each value is its own, so a count
    /// of probes is the keys' and values' inserts: one value shared by every key is looked
    /// up once a key, and how far it happened to sit from its own slot, times the key
    /// count, swamped the count (a flaky failure with no flood in it).
    public static func xmlDomain(_ keys: [[UInt8]]) -> [UInt8] {
        var out = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n".utf8)
        for (place, key) in keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
            out += Array("\t<key>".utf8) + key + Array("</key>\n\t<integer>\(place)</integer>\n".utf8)
        }
        return out + Array("</dict>\n</plist>\n".utf8)
    }
}
