/// The binary writers' object numbers by their scalars' keyed hashes (`SipHash13`), so
/// that each scalar is written once however often it occurs: `BinaryWriter`'s from
/// values, `XMLNodes`' straight from XML text. Open addressing, sized once for what will
/// be numbered (Swift's `Dictionary`, through `Hasher` and growing by doubling, was most
/// of an export's time), at most three quarters full. A slot is 4 bytes: the number plus
/// one (zero when empty) in its low bits and, in the bits the largest number leaves, more
/// of the hash, so that a slot whose bits differ is passed without comparing its scalar.
/// The caller compares in full: a collision costs a probe, never a wrong object, and
/// without the seed no file can make its scalars collide.
struct ScalarTable: ~Copyable {
    private let slots: UnsafeMutablePointer<UInt32>
    private let size: Int
    /// The bits of a slot that hold a number plus one.
    private let mask: UInt32
    /// The most numbers, and scalars, it takes.
    let numbers: Int, scalars: Int
    /// The process's hash seed, read once here rather than through its global at every scalar.
    let seed = SipHash13.Seed.process
    private(set) var count = 0
    /// Slots looked at past each scalar's own, all told: the flood tests count work by it.
    private(set) var probes = 0

    /// Room for `scalars` scalars numbered below `numbers` (less than 2³² - 1).
    init(numbers: Int, scalars: Int) {
        (self.numbers, self.scalars) = (numbers, scalars)
        size = max(16, scalars + scalars / 3 + 1)
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        mask = UInt32(truncatingIfNeeded: (1 << (64 - UInt64(numbers).leadingZeroBitCount)) - 1)
    }

    deinit { slots.deallocate() }

    /// The number of the scalar hashed `hash` that `isSame` says is the one numbered; when
    /// there is none, `next`, entered for it. The hash's high half, scaled to the table's
    /// size (which need not be a power of two), is where the search starts.
    @inline(__always)
    mutating func number(hash: UInt64, next: Int, isSame: (Int) -> Bool) -> Int {
        let tag = UInt32(truncatingIfNeeded: hash) & ~mask
        var s = Int(((hash >> 32) &* UInt64(size)) >> 32)
        while slots[s] != 0 {
            if slots[s] & ~mask == tag, isSame(Int(slots[s] & mask) - 1) { return Int(slots[s] & mask) - 1 }
            s = s + 1 == size ? 0 : s + 1
            probes &+= 1
        }
        slots[s] = tag | UInt32(next + 1)
        count += 1
        return next
    }
}
