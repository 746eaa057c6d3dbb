import PlistCodecs
import PlistModel

/// A side index of one big domain file's top-level keys, so that reading one key of it
/// costs a few page reads instead of reading the whole file: a hash table from each key to
/// where it and its value lie (`KeyPlace`), in `cacheDirectory/index/NAME`.
///
/// It is a cache, and never trusted past what it can prove:
/// - It is made only from a file read whole and found sound, whose status change time
///   (`ctime`) was over `settledAge` old when it was read and which had not changed when
///   the read ended. Any later change to the file, in place or by replacing it, gives it a
///   new inode or a new ctime (no program can set ctime back), so a file changed within
///   one timestamp tick of the index being made cannot look unchanged.
/// - It is used only while the file's device, inode, size, mtime and ctime are the ones
///   it holds, and only when this user owns it.
/// - Its header and every page of its table carry a checksum, verified as it is read.
/// - Each place found is checked against the file itself: the key there must be the key
///   asked for, and the value must parse whole, ending where the index says.
/// Any doubt falls back to reading the whole file, which is always right.
///
/// Keys are hashed by a seed of the index's own, drawn from the OS when it is made and kept
/// in its header (`KeyPlace.hash(of:seed:)`): the keys come from a file anyone may have
/// written (a sync, an import), and under an unkeyed hash such a file could pick keys that
/// all share a slot, making the index's making and its lookups cost the square of its keys.
///
/// The file: a 128-byte header of little-endian 64-bit words (magic, format, the domain
/// file's device, inode, size, mtime and ctime, the key count, the slot count, the page
/// count, the hash's seed in words 10 and 11, and at word 15 the header's checksum), the
/// pages' checksums, then from the next
/// 4096-byte boundary the pages: the slots (64 bits each: the hash's top half, then the
/// entry's number plus one; 0 is empty) and the entries (four 32-bit numbers each: the
/// `KeyPlace`).
struct KeyIndex {
    /// Smaller files are read whole: that costs less than opening an index.
    static let minimumFileSize = 256 << 10
    /// How long a file's ctime must be past before an index of it is made: far more
    /// than any file system's timestamp tick, and than small clock steps.
    static let settledAge: Int64 = 2_000_000_000

    static let page = 4096
    static let headerSize = 128
    /// "SETIDX" and a version: a change of layout or of hash is a new magic, so an old index
    /// is ignored, and made again by the next read of its file. Version 2 keys its hash.
    static let magic: UInt64 = 0x0002_5844_4954_4553

    /// What the index says of a key.
    enum Answer: Equatable {
        case value(PlistValue)
        case absent
    }

    // MARK: Making one

    /// The index file's bytes for `places` of a file of `format` whose status is `status`,
    /// their keys hashed by `seed`; nil when two keys share a full hash (the index could
    /// not tell them apart).
    static func encode(
        _ places: [KeyPlace], seed: SipHash13.Seed, format: PlistFormat, of status: FileSystem.Status
    ) -> [UInt8]? {
        var slotCount = 16
        while slotCount < places.count * 2 { slotCount <<= 1 }
        var slots = [UInt64](repeating: 0, count: slotCount)
        let mask = slotCount - 1
        for (n, place) in places.enumerated() {
            var i = Int(truncatingIfNeeded: place.hash) & mask
            while slots[i] != 0 {
                if places[Int(slots[i] & 0xFFFF_FFFF) - 1].hash == place.hash { return nil }
                i = (i + 1) & mask
            }
            slots[i] = place.hash & 0xFFFF_FFFF_0000_0000 | UInt64(n + 1)
        }
        let tableBytes = slotCount * 8 + places.count * 16
        let pageCount = (tableBytes + page - 1) / page
        let bodyStart = bodyOffset(pageCount: pageCount)
        var out = [UInt8](repeating: 0, count: bodyStart + pageCount * page)
        /// `words` into `out` from `start`, little-endian.
        func store(_ words: [UInt64], at start: Int) {
            var span = out.mutableSpan
            var raw = span.mutableBytes
            for (i, word) in words.enumerated() {
                raw.storeBytes(of: word.littleEndian, toByteOffset: start + i * 8, as: UInt64.self)
            }
        }
        do {
            var span = out.mutableSpan
            var raw = span.mutableBytes
            var at = bodyStart
            for slot in slots {
                raw.storeBytes(of: slot.littleEndian, toByteOffset: at, as: UInt64.self)
                at += 8
            }
            // Each place two words of two 32-bit fields, the first the low half.
            for place in places {
                let first = UInt64(place.from) | UInt64(place.to) << 32
                let second = UInt64(place.valueFrom) | UInt64(place.valueTo) << 32
                raw.storeBytes(of: first.littleEndian, toByteOffset: at, as: UInt64.self)
                raw.storeBytes(of: second.littleEndian, toByteOffset: at + 8, as: UInt64.self)
                at += 16
            }
        }
        store(
            (0..<pageCount).map { p in
                checksum(out.span.extracting((bodyStart + p * page)..<(bodyStart + (p + 1) * page)))
            },
            at: headerSize)
        store(
            [
                magic, format == .binary ? 2 : 1, status.device, status.inode, UInt64(status.size),
                UInt64(bitPattern: status.modifiedNanoseconds), UInt64(bitPattern: status.changedNanoseconds),
                UInt64(places.count), UInt64(slotCount), UInt64(pageCount), seed.k0, seed.k1,
            ], at: 0)
        store([headerSum(out.span, pageCount: pageCount)], at: 120)
        return out
    }

    /// Whether an index may be made of a file with `status`, read whole now: settled,
    /// big enough to be worth it, and this user's own (root reading a user's file under
    /// `sudo` leaves no file of root's behind, and trusts none of the user's).
    static func worthMaking(for status: FileSystem.Status) -> Bool {
        guard status.isRegular, status.size >= minimumFileSize, status.isOwnedByThisUser else { return false }
        let now = FileSystem.wallClockNanoseconds()
        return now - status.changedNanoseconds > settledAge && now - status.modifiedNanoseconds > settledAge
    }

    // MARK: Reading one

    /// Looks `key` up through the index `file` for the domain file open as `fd`,
    /// whose status is `status`; nil when there is no index to trust for it, or any
    /// check fails.
    static func lookup(_ key: String, index file: StateFile, file fd: CInt, status: FileSystem.Status) -> Answer? {
        // Through the door: no link followed, no FIFO waited on, only a regular file of ours.
        guard let opened = (try? file.open(.read)) ?? nil else { return nil }
        let own = opened.status
        let index = opened.take()
        defer { FileSystem.close(index) }
        guard own.isOwnedByThisUser else { return nil }
        var reader = Reader(fd: index, size: own.size)
        guard let header = reader.header(), header.matches(status) else { return nil }
        let format: PlistFormat = header.format == 2 ? .binary : .xml
        let hash = KeyPlace.hash(of: key, seed: header.seed)
        let mask = header.slotCount - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<header.slotCount {
            guard let slot = reader.word64(at: i * 8, header) else { return nil }
            if slot == 0 { return .absent }
            if slot >> 32 == hash >> 32 {
                let entry = Int(slot & 0xFFFF_FFFF) - 1
                guard entry < header.keyCount, let place = reader.place(entry, header, hash: hash) else { return nil }
                let found: KeyPlace.Found
                switch format {
                case .binary:
                    let pieces = FileSystem.withZeroedMemory(status.size) { buffer in
                        BinaryPieces.value(at: place, key: key, into: buffer) {
                            FileSystem.readBytes(fd, count: $1, at: $0)
                        }
                    }
                    if let pieces {
                        found = pieces
                    } else {
                        let whole = FileSystem.readBytes(fd, count: status.size, at: 0)
                        guard whole.count == status.size else { return nil }
                        found = whole.withUnsafeBufferPointer { PropertyList.value(at: place, key: key, binary: $0) }
                    }
                default:
                    guard place.from >= 5, place.valueTo > place.from, Int(place.valueTo) <= status.size else {
                        return nil
                    }
                    let window = FileSystem.readBytes(
                        fd, count: Int(place.valueTo - place.from) + 5, at: Int(place.from) - 5)
                    guard window.count == Int(place.valueTo - place.from) + 5 else { return nil }
                    found = window.withUnsafeBufferPointer { PropertyList.value(at: place, key: key, xml: $0) }
                }
                // What was read is the file the index describes only if it is still that file.
                guard let after = try? FileSystem.status(fd: fd), header.matches(after) else { return nil }
                switch found {
                case .value(let value): return .value(value)
                case .otherKey: break
                case .broken: return nil
                }
            }
            i = (i + 1) & mask
        }
        return nil
    }

    /// The index's header, once checked.
    struct Header {
        var format: UInt64, device: UInt64, inode: UInt64, size: UInt64, modified: UInt64, changed: UInt64
        var keyCount: Int, slotCount: Int, pageCount: Int
        /// What the keys were hashed by.
        var seed: SipHash13.Seed
        /// The pages' checksums.
        var sums: [UInt64]

        func matches(_ status: FileSystem.Status) -> Bool {
            device == status.device && inode == status.inode && size == UInt64(status.size)
                && modified == UInt64(bitPattern: status.modifiedNanoseconds)
                && changed == UInt64(bitPattern: status.changedNanoseconds)
        }
    }

    /// Reads an index file a page at a time, each page checked against its checksum.
    struct Reader {
        let fd: CInt
        let size: Int
        var pages: [Int: [UInt8]] = [:]

        init(fd: CInt, size: Int) { (self.fd, self.size) = (fd, size) }

        func header() -> Header? {
            guard size >= page else { return nil }
            var bytes = FileSystem.readBytes(fd, count: page, at: 0)
            guard bytes.count == page else { return nil }
            func word(_ i: Int) -> UInt64 { bytes.span.word(at: i * 8) }
            guard word(0) == magic, word(1) == 1 || word(1) == 2 else { return nil }
            let (keys, slots, pages) = (word(7), word(8), word(9))
            // Bounds before arithmetic: nothing here may overflow or allocate on a lie.
            guard keys < 1 << 31, slots >= 16, slots < 1 << 33, slots & (slots - 1) == 0, keys * 2 <= slots,
                pages == (slots * 8 + keys * 16 + UInt64(page) - 1) / UInt64(page)
            else { return nil }
            let pageCount = Int(pages)
            let bodyStart = bodyOffset(pageCount: pageCount)
            guard size == bodyStart + pageCount * page else { return nil }
            if bodyStart > page {
                bytes += FileSystem.readBytes(fd, count: bodyStart - page, at: page)
                guard bytes.count == bodyStart else { return nil }
            }
            let sum = headerSum(bytes.span, pageCount: pageCount)
            guard sum == word(15) else { return nil }
            let sums = (0..<pageCount).map { p in bytes.span.word(at: headerSize + p * 8) }
            return Header(
                format: word(1), device: word(2), inode: word(3), size: word(4), modified: word(5), changed: word(6),
                keyCount: Int(keys), slotCount: Int(slots), pageCount: pageCount,
                seed: SipHash13.Seed(k0: word(10), k1: word(11)), sums: sums)
        }

        /// The table's bytes around `offset` (from the start of the pages), checked.
        mutating func pageBytes(holding offset: Int, _ header: Header) -> (bytes: [UInt8], at: Int)? {
            let p = offset / page
            guard p < header.pageCount else { return nil }
            if let bytes = pages[p] { return (bytes, offset - p * page) }
            let bytes = FileSystem.readBytes(fd, count: page, at: bodyOffset(pageCount: header.pageCount) + p * page)
            guard bytes.count == page, checksum(bytes.span) == header.sums[p] else { return nil }
            pages[p] = bytes
            return (bytes, offset - p * page)
        }

        mutating func word64(at offset: Int, _ header: Header) -> UInt64? {
            guard let (bytes, at) = pageBytes(holding: offset, header) else { return nil }
            return bytes.span.word(at: at)
        }

        /// Entry `n`'s place (16 bytes, never across a page: entries start on a 16-byte boundary).
        mutating func place(_ n: Int, _ header: Header, hash: UInt64) -> KeyPlace? {
            guard let (bytes, at) = pageBytes(holding: header.slotCount * 8 + n * 16, header) else { return nil }
            // Two 32-bit fields a word, the first the low half.
            let (a, b) = (bytes.span.word(at: at), bytes.span.word(at: at + 8))
            return KeyPlace(
                hash: hash, from: UInt32(truncatingIfNeeded: a), to: UInt32(truncatingIfNeeded: a >> 32),
                valueFrom: UInt32(truncatingIfNeeded: b), valueTo: UInt32(truncatingIfNeeded: b >> 32))
        }
    }

    // MARK: Layout

    /// Where the pages start: after the header and the pages' checksums, on a page boundary.
    static func bodyOffset(pageCount: Int) -> Int {
        (headerSize + pageCount * 8 + page - 1) / page * page
    }

    /// The header's checksum: its first 15 words and the pages' checksums.
    static func headerSum(_ bytes: Span<UInt8>, pageCount: Int) -> UInt64 {
        checksum(bytes.extracting(0..<120)) ^ checksum(bytes.extracting(headerSize..<(headerSize + pageCount * 8))) &* 3
    }

    /// A 64-bit checksum of whole 64-bit words (every length here is a multiple of 8):
    /// a multiply and a fold a word, enough to tell a torn or flipped page from a sound one.
    static func checksum(_ bytes: Span<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.word(at: i)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        return h
    }
}
