/// A GVDB file read: GLib's on-disk hash table, the format of both a compiled schema file
/// (`gschemas.compiled`) and a dconf database (`~/.config/dconf/user`). A header, then hash
/// tables of items; an item's key is the tail of its full name after its parent's, and its
/// value a serialised variant (`v`), a nested table (`H`) or a list of children (`L`).
/// Every pointer is checked against the file: a corrupt file is refused, never trusted.
import SettingsStore

struct GVDB {
    let bytes: [UInt8]

    /// One hash table inside the file.
    struct Table {
        let file: GVDB
        let buckets: Range<Int>
        let items: Range<Int>
        var count: Int { items.count / itemSize }
    }

    static let itemSize = 24
    static let noParent: UInt32 = 0xFFFF_FFFF

    /// The file's root table.
    static func root(of bytes: [UInt8]) throws(DesktopError) -> Table {
        guard bytes.count >= 24, bytes[0..<8].elementsEqual("GVariant".utf8) else {
            throw .corrupt(
                bytes.starts(with: "GVaraint".utf8) ? "a GVDB file of the other byte order" : "not a GVDB file")
        }
        let file = GVDB(bytes: bytes)
        return try file.table(at: file.pointer(16))
    }

    /// The root table of the file at `path`; nil when there is none. A file that cannot
    /// be read, or is not GVDB, is refused naming it.
    /// An empty file is an empty table, as dconf takes it; with `skippingUnreadable`, so
    /// is a file this user may not read (GLib passes over such a schema folder).
    static func file(_ path: String, skippingUnreadable: Bool = false) throws(DesktopError) -> Table? {
        let bytes: [UInt8]
        do throws(FileError) {
            guard let (read, _) = try FileSystem.readFile(path), !read.isEmpty else { return nil }
            bytes = read
        } catch {
            if skippingUnreadable, error == .system(.accessDenied) { return nil }
            throw DesktopError.corruptFile(path: path, reason: error.message)
        }
        do throws(DesktopError) { return try root(of: bytes) } catch { throw error.file(path) }
    }

    private func word(_ at: Int) -> UInt32 { UInt32(truncatingIfNeeded: VariantBytes.little(bytes[at..<(at + 4)])) }

    /// A `start, end` pair at `at`, checked to lie in the file.
    private func pointer(_ at: Int) throws(DesktopError) -> Range<Int> {
        let start = Int(word(at)), end = Int(word(at + 4))
        guard start <= end, end <= bytes.count else { throw .corrupt("a pointer past the end of the file") }
        return start..<end
    }

    func table(at range: Range<Int>) throws(DesktopError) -> Table {
        guard range.count >= 8, range.lowerBound % 4 == 0 else { throw .corrupt("a hash table too small") }
        let bloomWords = Int(word(range.lowerBound) & (1 << 27 - 1)), bucketCount = Int(word(range.lowerBound + 4))
        let bucketsStart = range.lowerBound + 8 + 4 * bloomWords
        let itemsStart = bucketsStart + 4 * bucketCount
        guard itemsStart <= range.upperBound, (range.upperBound - itemsStart) % Self.itemSize == 0 else {
            throw .corrupt("a hash table's parts do not fit it")
        }
        return Table(file: self, buckets: bucketsStart..<itemsStart, items: itemsStart..<range.upperBound)
    }

    /// One item of a table.
    struct Item {
        let table: Table
        let index: Int
        private var at: Int { table.items.lowerBound + index * GVDB.itemSize }
        var hash: UInt32 { table.file.word(at) }
        var parent: UInt32 { table.file.word(at + 4) }
        var type: UInt8 { table.file.bytes[at + 14] }

        /// Its own part of the key (after its parent's), checked to lie in the file.
        func keyPart() throws(DesktopError) -> ArraySlice<UInt8> {
            let start = Int(table.file.word(at + 8))
            let size = Int(VariantBytes.little(table.file.bytes[(at + 12)..<(at + 14)]))
            guard start + size <= table.file.bytes.count else { throw .corrupt("a key past the end of the file") }
            return table.file.bytes[start..<(start + size)]
        }

        /// Its whole key: its parents' parts, then its own.
        func key() throws(DesktopError) -> [UInt8] {
            var parts: [ArraySlice<UInt8>] = [try keyPart()]
            var parent = self.parent, steps = 0
            while parent != GVDB.noParent {
                guard Int(parent) < table.count, steps < table.count else { throw .corrupt("a key's parents loop") }
                let item = Item(table: table, index: Int(parent))
                parts.append(try item.keyPart())
                parent = item.parent
                steps += 1
            }
            return parts.reversed().flatMap { $0 }
        }

        /// The value of a `v` item.
        func value() throws(DesktopError) -> Variant { try VariantBytes.boxed(valueBytes()) }

        /// A `v` item's serialised value, as GLib wrote it.
        func valueBytes() throws(DesktopError) -> ArraySlice<UInt8> {
            guard type == UInt8(ascii: "v") else { throw .corrupt("an entry that is not a value") }
            let range = try table.file.pointer(at + 16)
            guard range.lowerBound % 8 == 0 else { throw .corrupt("a value out of alignment") }
            return table.file.bytes[range]
        }

        /// The table of an `H` item.
        func subtable() throws(DesktopError) -> Table {
            guard type == UInt8(ascii: "H") else { throw .corrupt("an entry that is not a table") }
            return try table.file.table(at: try table.file.pointer(at + 16))
        }
    }
}

extension GVDB.Table {
    /// GLib's string hash (djb2, over signed chars), which places a key in its bucket.
    static func hash(_ key: some Collection<UInt8>) -> UInt32 {
        var h: UInt32 = 5381
        for byte in key { h = h &* 33 &+ UInt32(bitPattern: Int32(Int8(bitPattern: byte))) }
        return h
    }

    /// The item named `key`, found through its bucket, or nil.
    func item(_ key: [UInt8]) throws(DesktopError) -> GVDB.Item? {
        let bucketCount = buckets.count / 4
        guard bucketCount > 0 else { return nil }
        let h = Self.hash(key)
        let bucket = Int(h % UInt32(bucketCount))
        var n = Int(
            VariantBytes.little(file.bytes[(buckets.lowerBound + 4 * bucket)..<(buckets.lowerBound + 4 * bucket + 4)]))
        let last =
            bucket == bucketCount - 1
            ? count
            : min(
                count,
                Int(
                    VariantBytes.little(
                        file.bytes[(buckets.lowerBound + 4 * bucket + 4)..<(buckets.lowerBound + 4 * bucket + 8)])))
        while n < last {
            let item = GVDB.Item(table: self, index: n)
            if item.hash == h, try item.key() == key { return item }
            n += 1
        }
        return nil
    }

    /// Every item, in the file's order.
    var allItems: [GVDB.Item] { (0..<count).map { GVDB.Item(table: self, index: $0) } }

    /// Every item's whole key, in the file's order: each parent's built once, where
    /// `Item.key()` walks the parents of every item (a dconf database's keys share their
    /// folders).
    func allKeys() throws(DesktopError) -> [[UInt8]] {
        var keys = [[UInt8]?](repeating: nil, count: count)
        var chain: [Int] = []
        for start in 0..<count where keys[start] == nil {
            // The items up from this one to the first whose key is known, or to the top.
            chain.removeAll(keepingCapacity: true)
            var n = start
            while keys[n] == nil {
                chain.append(n)
                let parent = GVDB.Item(table: self, index: n).parent
                if parent == GVDB.noParent { break }
                guard Int(parent) < count, chain.count <= count else { throw .corrupt("a key's parents loop") }
                n = Int(parent)
            }
            var prefix = keys[n] ?? []
            for index in chain.reversed() where keys[index] == nil {
                prefix += try GVDB.Item(table: self, index: index).keyPart()
                keys[index] = prefix
            }
        }
        return keys.map { $0 ?? [] }
    }
}
