import PlistModel
/// Rewrites a binary property list with one top-level key set or removed, copying every
/// other object's bytes instead of building values from them.
///
/// A one-key write to a big binary domain so needs little more memory than the file: no
/// value tree, no numbering tables, no offset table, and the output goes out in pieces.
/// Objects nothing reaches any more (the old value) are dropped; the others keep their
/// order, their bytes and their sharing, with references renumbered in the smallest width
/// that fits. The new value is numbered by `BinaryWriter` and written after them, then the
/// new root, all through the one frame writer, `BinaryWriter.write(count:…)`.
///
/// It is built only from the `BinaryReader.Layout` of a lookup that checked `input` whole,
/// so every offset, reference and length in it is known to fit and there is no cycle; each
/// use is handed that `input` again (an array, or a mapping whose pages `write` gives back).
///
///     let (_, found, layout) = try BinaryReader.lookupWithLayout(bytes.span, key: "volume")
///     let editor = BinaryEditor(bytes.span, layout: layout, key: "volume")!
///     try editor.write(.int(70), from: bytes.span, chunk: 1 << 20) { piece in try file.write(piece) }
package struct BinaryEditor {
    private let key: String
    private let layout: BinaryReader.Layout
    /// The root dictionary's entry count, and where its key references start (values follow).
    private let entryCount: Int, rootRefs: Int
    /// Which root entries are `key` (a file may hold a key twice; all of them go).
    private let matches: [Bool]

    /// Nil when the root is no dictionary object (a UID root, read as `{CF$UID = n}`).
    package init?(_ input: Span<UInt8>, layout: BinaryReader.Layout, key: String) {
        let found = input.withUnsafeBufferPointer { bytes -> (Int, Int, [Bool])? in
            let objects = Objects(bytes: bytes, layout: layout)
            let start = objects.offset(of: layout.rootIndex)
            guard BPlistMarker(byte: bytes[start]) == .dictionary else { return nil }
            let (entryCount, rootRefs) = BPlistMarker.extent(bytes, at: start)!
            // The key as the file may spell it: ASCII, or UTF-16 big-endian.
            let spelled = [Array(key.utf8), key.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }]
            let matches = (0..<entryCount).map {
                objects.isString(at: objects.offset(of: objects.reference(rootRefs, $0)), spelled)
            }
            return (entryCount, rootRefs, matches)
        }
        guard let found else { return nil }
        (self.key, self.layout, (entryCount, rootRefs, matches)) = (key, layout, found)
    }

    /// Root entries for other keys: zero means setting `key` to nil empties the domain.
    package var otherEntryCount: Int { matches.count { !$0 } }

    /// The document `input` with `key` set to `value`, or removed when `value` is nil, handed
    /// to `write` in pieces of at most `chunk` bytes, `dropPages` told before each and as it
    /// walks.
    package func write(
        _ value: PlistValue?, from input: Span<UInt8>, chunk: Int, dropPages: (() -> Void)? = nil,
        to write: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        try input.withUnsafeBufferPointer { bytes in
            let objects = Objects(bytes: bytes, layout: layout)
            let (newIndex, kept) = renumberReachable(objects, dropPages)
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
            var last: Kept = (-1, -1, 0, 0, 0)
            try BinaryWriter.write(
                count: total, refSize: refSize, root: total - 1, chunk: chunk,
                size: { o in
                    if o % BinaryReader.progressStep == 0 { dropPages?() }  // the table's pass walks the file again
                    if o == total - 1 { return root.size + 2 * rootCount * refSize }
                    if o >= kept { return writer.size(o - kept, refSize: refSize) }
                    let object = objects.kept(o, after: &last, newIndex)
                    return object.refs - object.start + object.count * refSize
                },
                store: { o, p in
                    var at = p
                    func store(_ reference: Int) {
                        BinaryWriter.storeBigEndian(UInt64(reference), width: refSize, at: at)
                        at += refSize
                    }
                    if o == total - 1 {
                        at += root.store(at: p)
                        for half in 0..<2 {
                            for i in 0...entryCount {
                                if i == slot, let added { store(kept + (half == 0 ? added.key : added.value)) }
                                guard i < entryCount, !matches[i] else { continue }
                                store(Int(newIndex[objects.reference(rootRefs, half * entryCount + i)]))
                            }
                        }
                    } else if o >= kept {
                        writer.store(o - kept, refSize: refSize, base: kept, at: p)
                    } else {
                        let object = objects.kept(o, after: &last, newIndex)
                        p.initialize(from: bytes.baseAddress! + object.start, count: object.refs - object.start)
                        at += object.refs - object.start
                        for r in 0..<object.count { store(Int(newIndex[objects.reference(object.refs, r)])) }
                    }
                },
                to: { piece in
                    dropPages?()
                    try write(piece)
                })
        }
    }

    /// Each object the kept root entries reach, numbered in file order; -1 for the rest
    /// (the old root, the old value, anything the file held unreferenced).
    private func renumberReachable(_ objects: Objects, _ dropPages: (() -> Void)?) -> ([Int32], Int) {
        var newIndex = [Int32](repeating: -1, count: layout.objectCount)
        var stack: [Int] = []
        for i in 0..<entryCount where !matches[i] {
            stack.append(objects.reference(rootRefs, i))
            stack.append(objects.reference(rootRefs, entryCount + i))
            while let index = stack.popLast() {
                guard newIndex[index] < 0 else { continue }
                newIndex[index] = 0
                if index % BinaryReader.progressStep == 0 { dropPages?() }
                let start = objects.offset(of: index)
                let marker = BPlistMarker(byte: objects.bytes[start])
                guard marker == .array || marker == .dictionary else { continue }
                let (refs, count) = objects.references(ofObjectAt: start)
                for r in 0..<count { stack.append(objects.reference(refs, r)) }
            }
        }
        var kept = 0
        for index in 0..<layout.objectCount where newIndex[index] >= 0 {
            newIndex[index] = Int32(kept)
            kept += 1
        }
        return (newIndex, kept)
    }
}

/// A kept object: its number, its index in the file, where it starts, where its
/// references do (its end, for a scalar) and how many.
private typealias Kept = (o: Int, index: Int, start: Int, refs: Int, count: Int)

/// The objects of a file the reader has checked whole, read where they lie: valid inside
/// the one `withUnsafeBufferPointer` of its bytes that made it.
private struct Objects {
    let bytes: UnsafeBufferPointer<UInt8>
    let layout: BinaryReader.Layout

    func offset(of index: Int) -> Int {
        Int(BinaryReader.bigEndian(bytes, layout.offsetTable + index * layout.offsetSize, layout.offsetSize))
    }

    func reference(_ base: Int, _ i: Int) -> Int {
        Int(BinaryReader.bigEndian(bytes, base + i * layout.refSize, layout.refSize))
    }

    /// Where the references of the object at `start` start and how many there are (a
    /// dictionary's keys, then its values); for a scalar, its end and none.
    func references(ofObjectAt start: Int) -> (first: Int, count: Int) {
        let marker = BPlistMarker(byte: bytes[start])
        let (n, body) = BPlistMarker.extent(bytes, at: start)!
        switch marker {
        case .array: return (body, n)
        case .dictionary: return (body, 2 * n)
        default: return (body + marker.bodySize(n, refSize: 0), 0)
        }
    }

    /// The kept object numbered `o`, found from `last` (the one found before) on: the frame
    /// writer asks for the objects in order, twice over, so none is kept in a table.
    func kept(_ o: Int, after last: inout Kept, _ newIndex: [Int32]) -> Kept {
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

    /// Whether the object at `start` is the string `spelled` spells, as ASCII or UTF-16 (the
    /// reader checked it is valid, so equal code units are equal UTF-8, as `sameKey` compares).
    func isString(at start: Int, _ spelled: [[UInt8]]) -> Bool {
        let marker = BPlistMarker(byte: bytes[start])
        guard marker == .asciiString || marker == .utf16String else { return false }
        let (n, body) = BPlistMarker.extent(bytes, at: start)!
        let key = spelled[marker == .asciiString ? 0 : 1]
        guard key.count == (marker == .asciiString ? n : 2 * n) else { return false }
        for i in 0..<key.count where bytes[body + i] != key[i] { return false }
        return true
    }
}
