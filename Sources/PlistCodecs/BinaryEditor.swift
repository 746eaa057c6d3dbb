import PlistModel
/// Rewrites a binary property list with one top-level key set or removed, copying every
/// other object's bytes instead of building values from them.
///
/// A one-key write to a big binary domain so needs little more memory than the file: no
/// value tree, no numbering tables, and the output goes out in pieces. Objects nothing
/// reaches any more (the old value) are dropped; the others keep their order, their bytes
/// and their sharing, with references renumbered in the smallest width that fits. The
/// new value is numbered by `BinaryWriter` and written after them, then the new root.
///
/// It is built only from the `BinaryReader.Layout` of a lookup that checked `input` whole,
/// so every offset, reference and length in it is known to fit and there is no cycle.
///
///     let (_, found, layout) = try BinaryReader.lookupWithLayout(bytes, key: "volume")
///     let editor = BinaryEditor(bytes, layout: layout, key: "volume")!
///     try editor.write(.int(70), chunk: 1 << 20) { piece in try file.write(piece) }
package struct BinaryEditor {
    private let input: [UInt8]
    private let key: String
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    /// The root dictionary: its entry count and where its key references start (the
    /// value references follow them).
    private let entryCount: Int
    private let rootRefs: Int
    /// Which root entries are `key` (a file may hold a key twice; all of them go).
    private let matches: [Bool]

    /// Nil when the root is no dictionary object: a UID root reads as `{CF$UID = n}`
    /// but has no entries to edit.
    package init?(_ input: [UInt8], layout: BinaryReader.Layout, key: String) {
        self.input = input
        self.key = key
        (offsetSize, refSize, objectCount, offsetTable) =
            (layout.offsetSize, layout.refSize, layout.objectCount, layout.offsetTable)
        let start = Self.bigEndian(input, offsetTable + layout.rootIndex * offsetSize, offsetSize)
        guard BPlistMarker(byte: input[start]) == .dictionary else { return nil }
        (entryCount, rootRefs) = BPlistMarker.extent(input, at: start)!
        var matches = [Bool](repeating: false, count: entryCount)
        for i in 0..<entryCount {
            let keyObject = Self.bigEndian(input, rootRefs + i * refSize, refSize)
            matches[i] = Self.isString(
                input, at: Self.bigEndian(input, offsetTable + keyObject * offsetSize, offsetSize), key)
        }
        self.matches = matches
    }

    /// Root entries for other keys: zero means setting `key` to nil empties the domain.
    package var otherEntryCount: Int { matches.count { !$0 } }

    /// The document with `key` set to `value`, or removed when `value` is nil, handed to
    /// `write` in pieces of at most `chunk` bytes (`BinaryWriter.write(count:…)`).
    package func write(_ value: PlistValue?, chunk: Int, to write: (ArraySlice<UInt8>) throws -> Void) throws {
        let (newIndex, kept) = renumberReachable()
        // The new key and value, numbered after the kept objects; the root comes last.
        var writer = BinaryWriter()
        let added = value.map { (key: writer.number(.string(key)), value: writer.number($0)) }
        let total = kept + writer.objectCount + 1
        let refSize = BinaryWriter.width(UInt64(total - 1))
        // The root: the kept entries in their order, the new one where the old one stood
        // (its last occurrence, the one readers use), else at the end. Keys, then values.
        let slot = matches.lastIndex(of: true) ?? entryCount
        let rootCount = otherEntryCount + (added == nil ? 0 : 1)
        let root = BinaryObject.collection(.dictionary, count: rootCount)
        func rootReferences(_ body: (Int) -> Void) {
            for half in 0..<2 {
                for i in 0...entryCount {
                    if i == slot, let added { body(kept + (half == 0 ? added.key : added.value)) }
                    guard i < entryCount, !matches[i] else { continue }
                    body(Int(newIndex[reference(rootRefs, half * entryCount + i)]))
                }
            }
        }
        var last: Kept = (-1, -1, 0, 0, 0)
        try input.withUnsafeBufferPointer { input in
            try BinaryWriter.write(
                count: total, refSize: refSize, root: total - 1, chunk: chunk,
                size: { o in
                    if o == total - 1 { return root.size + 2 * rootCount * refSize }
                    if o >= kept { return writer.size(o - kept, refSize: refSize) }
                    let object = self.kept(o, after: &last, newIndex)
                    return object.refs - object.start + object.count * refSize
                },
                store: { o, p in
                    if o == total - 1 {
                        var at = p + root.store(at: p)
                        rootReferences {
                            BinaryWriter.storeBigEndian(UInt64($0), width: refSize, at: at)
                            at += refSize
                        }
                    } else if o >= kept {
                        writer.store(o - kept, refSize: refSize, base: kept, at: p)
                    } else {
                        let object = self.kept(o, after: &last, newIndex)
                        p.initialize(from: input.baseAddress! + object.start, count: object.refs - object.start)
                        var at = p + (object.refs - object.start)
                        for r in 0..<object.count {
                            BinaryWriter.storeBigEndian(
                                UInt64(newIndex[reference(object.refs, r)]), width: refSize, at: at)
                            at += refSize
                        }
                    }
                }, to: write)
        }
    }

    /// A kept object: its number, its index in the file, where it starts, where its
    /// references do (its end, for a scalar) and how many.
    private typealias Kept = (o: Int, index: Int, start: Int, refs: Int, count: Int)

    /// The kept object numbered `o`, found from `last` (the one found before) on: the frame
    /// writer asks for the objects in order, twice over, so none is kept in a table.
    private func kept(_ o: Int, after last: inout Kept, _ newIndex: [Int32]) -> Kept {
        if o == last.o { return last }
        if o < last.o { last = (-1, -1, 0, 0, 0) }
        while last.o < o {
            last.index += 1
            if newIndex[last.index] >= 0 { last.o += 1 }
        }
        last.start = offset(of: last.index)
        (last.refs, last.count) = references(ofObjectAt: last.start)
        return last
    }

    /// Each object the kept root entries reach, numbered in file order; -1 for the rest
    /// (the old root, the old value, anything the file held unreferenced).
    private func renumberReachable() -> (newIndex: [Int32], kept: Int) {
        var newIndex = [Int32](repeating: -1, count: objectCount)
        var stack: [Int] = []
        for i in 0..<entryCount where !matches[i] {
            stack.append(reference(rootRefs, i))
            stack.append(reference(rootRefs, entryCount + i))
            while let index = stack.popLast() {
                guard newIndex[index] < 0 else { continue }
                newIndex[index] = 0
                let start = offset(of: index)
                let marker = BPlistMarker(byte: input[start])
                guard marker == .array || marker == .dictionary else { continue }
                let (refs, count) = references(ofObjectAt: start)
                for r in 0..<count { stack.append(reference(refs, r)) }
            }
        }
        var kept = 0
        for index in 0..<objectCount where newIndex[index] >= 0 {
            newIndex[index] = Int32(kept)
            kept += 1
        }
        return (newIndex, kept)
    }

    // MARK: Reading what the reader has already checked

    private func offset(of index: Int) -> Int {
        Self.bigEndian(input, offsetTable + index * offsetSize, offsetSize)
    }

    private func reference(_ base: Int, _ i: Int) -> Int {
        Self.bigEndian(input, base + i * refSize, refSize)
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ width: Int) -> Int {
        Int(BinaryReader.bigEndian(bytes, at, width))
    }

    /// Where the references of the object at `start` start and how many there are (a
    /// dictionary's keys, then its values); for a scalar, its end and none.
    private func references(ofObjectAt start: Int) -> (first: Int, count: Int) {
        let marker = BPlistMarker(byte: input[start])
        let (n, body) = BPlistMarker.extent(input, at: start)!
        switch marker {
        case .array: return (body, n)
        case .dictionary: return (body, 2 * n)
        default: return (body + marker.bodySize(n, refSize: 0), 0)
        }
    }

    /// Whether the object at `start` is the string `key`, compared as UTF-8 bytes.
    private static func isString(_ bytes: [UInt8], at start: Int, _ key: String) -> Bool {
        let (n, body) = BPlistMarker.extent(bytes, at: start)!
        switch BPlistMarker(byte: bytes[start]) {
        case .asciiString: return bytes[body..<(body + n)].elementsEqual(key.utf8)
        case .utf16String:
            var units = [UInt16]()
            units.reserveCapacity(n)
            for i in 0..<n { units.append(UInt16(bytes[body + 2 * i]) << 8 | UInt16(bytes[body + 2 * i + 1])) }
            return sameKey(String(decoding: units, as: UTF16.self), key)
        default: return false
        }
    }
}
