import PlistModel
/// Turns the bytes of a text property list into UTF-8: UTF-32 and UTF-16 with a BOM (or,
/// for UTF-16, a first ASCII character as a 16-bit unit) are transcoded, as Foundation
/// reads them; a UTF-8 BOM is dropped.
package enum TextDecoding {
    static func utf8(_ input: [UInt8], format: PlistFormat) throws(PlistError) -> [UInt8] {
        guard input.count >= 2 else { return input }
        let bigEndian: Bool, start: Int
        switch opening(input) {
        case .utf32(let big): return try utf32(input, bigEndian: big, format: format)
        case .utf16(let big, let from): (bigEndian, start) = (big, from)
        case .utf8BOM: return Array(input[3...])
        case .plain: return format == .xml ? try declared(input) : input
        }
        guard (input.count - start) % 2 == 0 else { throw PlistError.invalidEncoding(format, line: 1) }
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 2)
        var decoder = UTF16()
        var i = start
        var iterator = AnyIterator<UInt16> {
            guard i + 1 < input.count else { return nil }
            defer { i += 2 }
            let (a, b) = (UInt16(input[i]), UInt16(input[i + 1]))
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): out.append(contentsOf: UTF8.encode(s)!)
            case .emptyInput: return out
            case .error: throw PlistError.invalidEncoding(format, line: 1)
            }
        }
    }
}

extension TextDecoding {
    /// How a text's first bytes (two or more) say it is encoded: the one reading of them
    /// that `utf8` transcodes by and `isUTF8AsIs` asks.
    private enum Opening {
        case utf32(bigEndian: Bool)
        /// From `start`: 2 after a BOM, 0 for a first ASCII character as a 16-bit unit.
        case utf16(bigEndian: Bool, start: Int)
        case utf8BOM
        /// 8-bit text, UTF-8 unless its XML declaration says otherwise.
        case plain
    }

    private static func opening(_ input: [UInt8]) -> Opening {
        // Before UTF-16: FF FE 00 00 is UTF-32's little-endian BOM, not UTF-16's and a NUL.
        if input.count >= 4,
            input[0..<4].elementsEqual([0, 0, 0xFE, 0xFF]) || input[0..<4].elementsEqual([0xFF, 0xFE, 0, 0])
        {
            return .utf32(bigEndian: input[0] == 0)
        }
        switch (input[0], input[1]) {
        case (0xFE, 0xFF): return .utf16(bigEndian: true, start: 2)
        case (0xFF, 0xFE): return .utf16(bigEndian: false, start: 2)
        case (0x00, 0x01...0x7F): return .utf16(bigEndian: true, start: 0)
        case (0x01...0x7F, 0x00): return .utf16(bigEndian: false, start: 0)
        case (0xEF, 0xBB) where input.count >= 3 && input[2] == 0xBF: return .utf8BOM
        default: return .plain
        }
    }

    /// The attribute searched for in an XML declaration.
    private static let encodingWord: [UInt8] = Array("encoding".utf8)

    /// 8-bit XML in the encoding its declaration names: UTF-8 and US-ASCII as they are,
    /// ISO-8859-1 transcoded; any other name is refused, as Foundation and plistlib
    /// refuse it (reading it as UTF-8 would guess).
    private static func declared(_ input: [UInt8]) throws(PlistError) -> [UInt8] {
        switch declaration(input) {
        case .asIs: return input
        case .latin1:
            var out: [UInt8] = []
            out.reserveCapacity(input.count)
            for byte in input { out += UTF8.encode(Unicode.Scalar(byte))! }
            return out
        // The declaration opens the file: line 1.
        case .unknown(let shown): throw PlistError.xml(.unknownEncoding(shown), line: 1)
        }
    }

    /// What the XML declaration says the encoding is, as far as reading goes.
    private enum Declared {
        case asIs, latin1
        /// Shown in one line of printable ASCII.
        case unknown(String)
    }

    private static func declaration(_ input: [UInt8]) -> Declared {
        guard input.starts(with: "<?xml".utf8), let end = input.prefix(512).firstIndex(of: UInt8(ascii: ">")) else {
            return .asIs
        }
        // Bytes, not a String: every XML read passes here.
        let head = input[..<end]
        // A plain loop: the standard library's generic `firstRange(of:)` costs a
        // start-up its first use (0.03 ms of a 0.9 ms read), for a 40-byte search.
        let word = encodingWord
        var at = head.startIndex
        while at + word.count <= end, !head[at..<at + word.count].elementsEqual(word) { at += 1 }
        guard at + word.count <= end else { return .asIs }
        var i = at + word.count
        while i < end, head[i] == UInt8(ascii: " ") || head[i] == UInt8(ascii: "=") || head[i] == UInt8(ascii: "\t") {
            i += 1
        }
        guard i < end, head[i] == UInt8(ascii: "\"") || head[i] == UInt8(ascii: "'") else { return .asIs }
        let quote = head[i]
        let quoted = head[(i + 1)...].prefix { $0 != quote }
        let name = quoted.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        switch String(decoding: name, as: UTF8.self) {
        case "utf-8", "utf8", "us-ascii", "ascii": return .asIs
        case "iso-8859-1", "iso_8859-1", "latin1", "latin-1", "l1": return .latin1
        default:
            // Shown in one line of printable ASCII, whatever the file put between the quotes.
            let shown = String(
                decoding: quoted.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            return .unknown(shown)
        }
    }

    /// Whether `utf8(_:format: .xml)` hands back a document beginning `head` (its first
    /// 512 bytes or all of it) as it is: no byte-order mark, nothing like UTF-16 or
    /// UTF-32, and no declared encoding but UTF-8 or ASCII. Such a file can be read where
    /// it lies (a mapping) instead of into an array.
    package static func isUTF8AsIs(_ head: [UInt8]) -> Bool {
        guard head.count >= 2, case .plain = opening(head), case .asIs = declaration(head) else { return false }
        return true
    }

    /// UTF-32 after its 4-byte BOM, to UTF-8.
    private static func utf32(_ input: [UInt8], bigEndian: Bool, format: PlistFormat) throws(PlistError) -> [UInt8] {
        guard input.count % 4 == 0 else { throw PlistError.invalidEncoding(format, line: 1) }
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 4)
        var i = 4
        while i < input.count {
            let (a, b, c, d) = (UInt32(input[i]), UInt32(input[i + 1]), UInt32(input[i + 2]), UInt32(input[i + 3]))
            let value = bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
            guard let scalar = Unicode.Scalar(value) else { throw PlistError.invalidEncoding(format, line: 1) }
            out += UTF8.encode(scalar)!
            i += 4
        }
        return out
    }
}

/// Whether `bytes` are well-formed UTF-8, with a fast path for ASCII.
func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // ASCII, most keys and values, is seen eight bytes at a time: no high bit set.
    if ByteWords.isASCII(bytes) { return true }
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid: continue
        case .emptyInput: return true
        case .error: return false
        }
    }
}

extension TextDecoding {
    /// The string these UTF-8 bytes spell, or nil when they are not UTF-8. Pure ASCII,
    /// most keys and values, is copied without the generic validator, which costs a
    /// tenth of reading a big domain.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var seen: UInt8 = 0
        for byte in bytes { seen |= byte }
        return seen < 0x80 ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }
}
