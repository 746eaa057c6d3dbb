/// The shortest decimal text that reads back as the same real, as `defaults` and
/// Apple's XML writer print it: `75`, `0.5`, `1e-05`, `-0`.
package enum RealText {
    package static func shortest(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        return trimmed(value.description)
    }

    /// A Float's own shortest text: `-float 75.1` prints 75.1, not 75.09999847.
    package static func shortest(_ value: Float) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        return trimmed(value.description)
    }

    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Reads XML/OpenStep real text: decimal, exponent, `inf`/`infinity`/`nan` with sign.
    /// The codecs' slices get a concrete entry, so the generic body is specialized here,
    /// inside this module: called generically across the module boundary, it made reading
    /// a big XML domain twice as slow.
    package static func parse(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        DecimalReal.parse(bytes.base.span.extracting(bytes.startIndex..<bytes.endIndex)) ?? parse(text: bytes)
    }

    package static func parse<C: Collection<UInt8>>(text bytes: C) -> Double? {
        guard !bytes.isEmpty, bytes.count < 400 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // Only a word is lowered and compared: a number, nearly every real, skips the copy.
        if bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "n") || $0 | 0x20 == UInt8(ascii: "i") }) {
            switch text.lowercased() {
            case "nan", "+nan", "-nan": return .nan
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return nil
            }
        }
        return isDecimal(bytes) ? Double(text) : nil
    }

    /// Digits with an optional sign, point and exponent: keeps out the `nan`, `inf` and
    /// hex-float spellings the stdlib parser would also take.
    package static func isDecimal<S: Sequence<UInt8>>(_ bytes: S) -> Bool {
        var sawDigit = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return false
            }
        }
        return sawDigit
    }
}
