import PlistModel

extension XMLWriter {
    /// The XML of a binary property list, written straight from its bytes, object by
    /// object, and handed to `sink` in pieces of about `chunk` bytes, as `encode(_:chunk:to:)`
    /// writes it from the values: no values are built but the scalars, one at a time, so a
    /// big domain costs about its file in memory, and no dictionary or array is kept.
    ///
    /// `layout` is `BinaryReader.checkedForXML(input)`'s: the file was checked whole, and its
    /// dictionaries' keys are already in the order the XML is written in, each once. Every
    /// offset, length, reference and depth is checked again as it is used, and the values
    /// counted, so bytes changed since (a mapped file another program rewrites) throw, and
    /// are never read outside the input.
    ///
    ///     if let layout = try BinaryReader.checkedForXML(bytes) {
    ///         try XMLWriter.encode(binary: bytes, layout: layout, chunk: 1 << 18) { try out.write($0) }
    ///     }
    package static func encode(
        binary input: UnsafeBufferPointer<UInt8>, layout: BinaryReader.Layout, chunk: Int,
        to sink: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        var out: [UInt8] = []
        out.reserveCapacity(min(chunk, 1 << 16) + 4096)
        out.append(contentsOf: header)
        var reader = try BinaryReader(checked: input, layout: layout)
        try reader.writeXML(object: layout.rootIndex, level: 0, into: &out) { buffer in
            guard buffer.count >= chunk else { return }
            try sink(buffer[...])
            buffer.removeAll(keepingCapacity: true)
        }
        put("</plist>\n", &out)
        try sink(out[...])
    }

    package static func encode(
        binary input: [UInt8], layout: BinaryReader.Layout, chunk: Int, to sink: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        try input.withUnsafeBufferPointer { try encode(binary: $0, layout: layout, chunk: chunk, to: sink) }
    }
}

extension BinaryReader {
    /// Writes object `index` as `XMLWriter.write` writes its value: containers walked by
    /// their references, scalars decoded one by one and written by `XMLWriter` itself.
    /// `flush` is offered the buffer after each entry of the root, as there.
    mutating func writeXML(
        object index: Int, level: Int, into out: inout [UInt8], flush: (inout [UInt8]) throws -> Void
    ) throws {
        let start = try offset(of: index)
        let marker = bytes[start]
        let kind = BPlistMarker(byte: marker)
        try count(1, at: start)
        switch kind {
        case .array, .dictionary: break
        case .asciiString:
            // The commonest scalars, from their bytes: no `String` made for each.
            XMLWriter.writeString(try asciiBytes(ofObject: index)!, level: level, into: &out)
            return
        case .simple where marker == BPlistMarker.trueByte || marker == BPlistMarker.falseByte:
            XMLWriter.writeBool(marker == BPlistMarker.trueByte, level: level, into: &out)
            return
        case .integer where BPlistMarker.low(marker) <= 3:
            let width = 1 << Int(BPlistMarker.low(marker))
            try require(start + 1, width)
            let n = Self.bigEndian(bytes, start + 1, width)
            // 1, 2 and 4 bytes are unsigned; 8 are signed, as `integer(at:)` reads them.
            XMLWriter.writeInteger(PlistInteger(width == 8 ? Int64(bitPattern: n) : Int64(n)), level: level, into: &out)
            return
        default:
            try XMLWriter.write(decode(at: start, marker: marker).value, level: level, into: &out) { _ in }
            return
        }
        let (n, body) = try lengthAndBody(start, Int(BPlistMarker.low(marker)))
        let (references, overflow) = n.multipliedReportingOverflow(by: kind == .array ? 1 : 2)
        guard !overflow else { throw PlistError.binary(.collectionSizeOverflows, offset: start) }
        _ = try self.references(body, references)
        try enter(start)
        defer { depth -= 1 }
        if kind == .array {
            guard XMLWriter.open(.array, empty: n == 0, level: level, into: &out) else { return }
            for i in 0..<n { try writeXML(object: reference(body, i), level: level + 1, into: &out) { _ in } }
            XMLWriter.close(.array, level: level, into: &out)
            return
        }
        guard XMLWriter.open(.dict, empty: n == 0, level: level, into: &out) else { return }
        for i in 0..<n {
            // Checked: every key is an ASCII string object.
            guard let key = try asciiBytes(ofObject: reference(body, i)) else {
                throw PlistError.binary(.keyIsNotAString, offset: start)
            }
            XMLWriter.writeKey(key, level: level + 1, into: &out)
            try writeXML(object: reference(body, n + i), level: level + 1, into: &out) { _ in }
            try flush(&out)
        }
        XMLWriter.close(.dict, level: level, into: &out)
    }
}
