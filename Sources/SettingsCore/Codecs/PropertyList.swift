/// Reading and writing whole property lists in any of the three formats.
///
///     let (value, format) = try PropertyList.read(bytes)    // format sniffed
///     let xml = PropertyList.encode(value, as: .xml)
public enum PropertyList {
    /// Reads bytes in whichever format they are: `bplist00` is binary, text starting
    /// with `<` is XML, other text is OpenStep.
    public static func read(_ bytes: [UInt8]) throws(PlistError) -> (PlistValue, PlistFormat) {
        let format = sniff(bytes)
        return (try read(bytes, as: format), format)
    }

    public static func read(_ bytes: [UInt8], as format: PlistFormat) throws(PlistError) -> PlistValue {
        switch format {
        case .xml: return try XMLReader.read(bytes)
        case .binary, .openStep: throw PlistError.unsupported(format)
        }
    }

    public static func encode(_ value: PlistValue, as format: PlistFormat) throws(PlistError) -> [UInt8] {
        switch format {
        case .xml: return XMLWriter.encode(value)
        case .binary, .openStep: throw PlistError.unsupported(format)
        }
    }

    static func sniff(_ bytes: [UInt8]) -> PlistFormat {
        if bytes.count >= 8, bytes[0..<8].elementsEqual("bplist00".utf8) { return .binary }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)
            || bytes[0] == 0 || bytes[1] == 0 {
            return .xml
        }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "<") && i + 1 < bytes.count
            && bytes[i + 1] != UInt8(ascii: "0") && !isHexDigitOrSpace(bytes[i + 1]) ? .xml : .openStep
    }

    /// `<0a0b>` at the top is OpenStep data, not XML.
    private static func isHexDigitOrSpace(_ b: UInt8) -> Bool {
        (hexDigitValue(b) != nil && !(b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))) || isSpace(b)
            || b == UInt8(ascii: ">")
    }
}

extension PropertyList {
    /// Parses a value typed on the command line: an OpenStep literal (`(a, b)`,
    /// `{k = v;}`, `<0a0b>`, `"text"`), an XML fragment (`<integer>5</integer>`) or a
    /// whole XML document with any root.
    public static func readLiteral(_ text: String) throws(PlistError) -> PlistValue {
        let bytes = Array(text.utf8)
        return try read(bytes, as: sniff(bytes))
    }

    /// Whether untyped command-line text is a literal to parse rather than a plain
    /// string: defaults stores text with none of `"(){}[]<>` as typed.
    public static func looksLikeLiteral(_ text: String) -> Bool {
        text.utf8.contains { b in
            b == UInt8(ascii: "\"") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "{")
                || b == UInt8(ascii: "}") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]")
                || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
        }
    }
}
