import PlistModel
/// Turns the bytes of a text property list into UTF-8: UTF-16 with a BOM (or a first
/// ASCII character as a 16-bit unit) is transcoded, a UTF-8 BOM is dropped.
enum TextDecoding {
    static func utf8(_ input: [UInt8], format: PlistFormat) throws(PlistError) -> [UInt8] {
        guard input.count >= 2 else { return input }
        let bigEndian: Bool
        var start = 0
        switch (input[0], input[1]) {
        case (0xFE, 0xFF): (bigEndian, start) = (true, 2)
        case (0xFF, 0xFE): (bigEndian, start) = (false, 2)
        case (0x00, 0x01...0x7F): bigEndian = true
        case (0x01...0x7F, 0x00): bigEndian = false
        case (0xEF, 0xBB) where input.count >= 3 && input[2] == 0xBF: return Array(input[3...])
        default: return input
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

/// Whether `bytes` are well-formed UTF-8, with a fast path for ASCII.
func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.allSatisfy({ $0 < 0x80 }) { return true }
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
