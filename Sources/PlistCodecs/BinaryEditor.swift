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
/// so every offset, reference and length in it is known to fit and there is no cycle; each
/// use is handed that `input` again (an array, or a mapping whose pages `write` gives back).
///
///     let (_, found, layout) = try BinaryReader.lookupWithLayout(bytes.span, key: "volume")
///     let editor = BinaryEditor(bytes.span, layout: layout, key: "volume")!
///     try editor.write(.int(70), from: bytes.span, chunk: 1 << 20) { piece in try file.write(piece) }
package struct BinaryEditor {
    private let key: String
    private let offsetSize: Int, refSize: Int, objectCount: Int, offsetTable: Int
    /// The root dictionary's entry count, and where its key references start (values follow).
    private let entryCount: Int, rootRefs: Int
    /// Which root entries are `key` (a file may hold a key twice; all of them go).
    private let matches: [Bool]

    /// Nil when the root is no dictionary object (a UID root, read as `{CF$UID = n}`).
    package init?(_ input: Span<UInt8>, layout: BinaryReader.Layout, key: String) {
        self.key = key
        (offsetSize, refSize, objectCount, offsetTable) =
            (layout.offsetSize, layout.refSize, layout.objectCount, layout.offsetTable)
        let start = Self.bigEndian(input, offsetTable + layout.rootIndex * offsetSize, offsetSize)
        guard BPlistMarker(byte: input[start]) == .dictionary else { return nil }
        (entryCount, rootRefs) = Self.countAndBody(input, start)
        var matches = [Bool](repeating: false, count: entryCount)
        let spelled = [Array(key.utf8), key.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }]
        for i in 0..<entryCount {
            let keyObject = Self.bigEndian(input, rootRefs + i * refSize, refSize)
            matches[i] = Self.isString(
                input, at: Self.bigEndian(input, offsetTable + keyObject * offsetSize, offsetSize), spelled)
        }
        self.matches = matches
    }

    /// Root entries for other keys: zero means setting `key` to nil empties the domain.
    package var otherEntryCount: Int { matches.count { !$0 } }

    /// The document `input` with `key` set to `value`, or removed when `value` is nil, handed
    /// to `write` in pieces of about `chunk` bytes, `dropPages` told before each and as it walks.
    package func write(
        _ value: PlistValue?, from input: Span<UInt8>, chunk: Int, dropPages: (() -> Void)? = nil,
        to write: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        let (newIndex, kept) = renumberReachable(input, dropPages)
        // The new key and value, numbered after the kept objects; the root comes last.
        var writer = BinaryWriter()
        let added = value.map { (key: writer.number(.string(key)), value: writer.number($0)) }
        let total = kept + writer.objectCount + 1
        let newRefSize = BinaryWriter.width(UInt64(total - 1))
        var out: [UInt8] = []
        out.reserveCapacity(chunk + 4096)
        var flushed = 0
        func flushIfFull(_ limit: Int = chunk) throws {
            guard out.count >= limit, !out.isEmpty else { return }
            dropPages?()
            try write(out[...])
            flushed += out.count
            out.removeAll(keepingCapacity: true)
        }
        // The file is under 2 GiB and the new value came from one command line, so every
        // offset fits 32 bits: half the table an `Int` a piece would take.
        var offsets: [UInt32] = []
        offsets.reserveCapacity(total)
        out.append(contentsOf: BinaryWriter.header)
        for index in 0..<objectCount where newIndex[index] >= 0 {
            offsets.append(UInt32(flushed + out.count))
            let start = offset(input, of: index)
            let (refs, count) = references(input, ofObjectAt: start) ?? (start + Self.scalarLength(input, start), 0)
            Self.append(input, start..<refs, to: &out)
            for r in 0..<count {
                BinaryWriter.appendBigEndian(UInt64(newIndex[reference(input, refs, r)]), width: newRefSize, to: &out)
            }
            try flushIfFull()
        }
        for index in 0..<writer.objectCount {
            offsets.append(UInt32(flushed + out.count))
            writer.appendObject(index, refSize: newRefSize, base: kept, to: &out)
            try flushIfFull()
        }
        // The root: the kept entries in their order, the new one where the old one stood
        // (its last occurrence, the one readers use), else at the end. Keys, then values.
        offsets.append(UInt32(flushed + out.count))
        let slot = matches.lastIndex(of: true) ?? entryCount
        BinaryObject.collection(.dictionary, count: otherEntryCount + (added == nil ? 0 : 1)).append(to: &out)
        for half in 0..<2 {
            for i in 0...entryCount {
                if i == slot, let added {
                    BinaryWriter.appendBigEndian(
                        UInt64(kept + (half == 0 ? added.key : added.value)), width: newRefSize, to: &out)
                }
                guard i < entryCount, !matches[i] else { continue }
                BinaryWriter.appendBigEndian(
                    UInt64(newIndex[reference(input, rootRefs, half * entryCount + i)]), width: newRefSize, to: &out)
            }
            try flushIfFull()
        }
        try flushIfFull(0)  // the table goes into the emptied buffer instead of growing a full one
        BinaryWriter.appendOffsetTable(offsets, refSize: newRefSize, root: total - 1, base: flushed, to: &out)
        try write(out[...])
    }

    /// Each object the kept root entries reach, numbered in file order; -1 for the rest
    /// (the old root, the old value, anything the file held unreferenced).
    private func renumberReachable(_ input: Span<UInt8>, _ dropPages: (() -> Void)?) -> ([Int32], Int) {
        var newIndex = [Int32](repeating: -1, count: objectCount)
        var stack: [Int] = []
        for i in 0..<entryCount where !matches[i] {
            stack.append(reference(input, rootRefs, i))
            stack.append(reference(input, rootRefs, entryCount + i))
            while let index = stack.popLast() {
                guard newIndex[index] < 0 else { continue }
                newIndex[index] = 0
                if index % BinaryReader.progressStep == 0 { dropPages?() }
                guard let (refs, count) = references(input, ofObjectAt: offset(input, of: index)) else { continue }
                for r in 0..<count { stack.append(reference(input, refs, r)) }
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

    private func offset(_ input: Span<UInt8>, of index: Int) -> Int {
        Self.bigEndian(input, offsetTable + index * offsetSize, offsetSize)
    }

    private func reference(_ input: Span<UInt8>, _ base: Int, _ i: Int) -> Int {
        Self.bigEndian(input, base + i * refSize, refSize)
    }

    private static func bigEndian(_ bytes: Span<UInt8>, _ at: Int, _ width: Int) -> Int {
        var v = 0
        for i in 0..<width { v = v << 8 | Int(bytes[at + i]) }
        return v
    }

    /// `bytes[range]` appended to `out` in one copy (a span has no `append` of its own).
    private static func append(_ bytes: Span<UInt8>, _ range: Range<Int>, to out: inout [UInt8]) {
        bytes.extracting(range).withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// For an array or dictionary object, where its references start and how many there
    /// are (a dictionary's keys, then its values); nil for any other object.
    private func references(_ input: Span<UInt8>, ofObjectAt start: Int) -> (first: Int, count: Int)? {
        let marker = BPlistMarker(byte: input[start])
        guard marker == .array || marker == .dictionary else { return nil }
        let (n, first) = Self.countAndBody(input, start)
        return (first, marker == .dictionary ? 2 * n : n)
    }

    /// The count in a marker (its low nibble, or the integer after it) and where the
    /// body after the count starts.
    private static func countAndBody(_ bytes: Span<UInt8>, _ start: Int) -> (Int, Int) {
        let low = BPlistMarker.low(bytes[start])
        guard low == BPlistMarker.extendedCount else { return (Int(low), start + 1) }
        let width = 1 << Int(BPlistMarker.low(bytes[start + 1]))
        return (bigEndian(bytes, start + 2, width), start + 2 + width)
    }

    /// The length of a scalar object: marker, any count, and its bytes.
    private static func scalarLength(_ bytes: Span<UInt8>, _ start: Int) -> Int {
        let marker = bytes[start]
        let low = Int(BPlistMarker.low(marker))
        switch BPlistMarker(byte: marker) {
        case .integer, .real: return 1 + (1 << low)
        case .date: return 9
        case .data, .asciiString, .utf16String:
            let (n, body) = countAndBody(bytes, start)
            return body - start + (BPlistMarker(byte: marker) == .utf16String ? 2 * n : n)
        case .uid: return 2 + low
        default: return 1  // booleans (the reader refused the rest)
        }
    }

    /// Whether the object at `start` is the string `spelled` spells, as ASCII or UTF-16 (the
    /// reader checked it is valid, so equal code units are equal UTF-8, as `sameKey` compares).
    private static func isString(_ bytes: Span<UInt8>, at start: Int, _ spelled: [[UInt8]]) -> Bool {
        let marker = BPlistMarker(byte: bytes[start])
        guard marker == .asciiString || marker == .utf16String else { return false }
        let (n, body) = countAndBody(bytes, start)
        let key = spelled[marker == .asciiString ? 0 : 1]
        guard key.count == (marker == .asciiString ? n : 2 * n) else { return false }
        for i in 0..<key.count where bytes[body + i] != key[i] { return false }
        return true
    }
}
