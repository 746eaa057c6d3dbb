/// Parsers of command-line text for the scalar types. Each returns nil for junk: never
/// a default value (defaults stores 0 for `-int abc`; we refuse it).
package enum CommandLineText {
    /// yes/no/true/false in any case, and 1/0.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// A whole decimal `Int64` with an optional sign.
    static func int(_ text: String) -> Int64? {
        guard let value = PlistInteger.parse(text.utf8, allowHex: false) else { return nil }
        return value.int64
    }

    /// A finite number that fits a 32-bit float.
    static func float(_ text: String) -> Float? {
        guard RealText.isDecimal(text.utf8), let value = Float(text), value.isFinite else { return nil }
        return value
    }

    /// A finite 64-bit number.
    static func double(_ text: String) -> Double? {
        guard RealText.isDecimal(text.utf8), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Hex digits, an even count, either case; spaces and a `<…>` wrapper are allowed.
    static func hexData(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        if digits.hasPrefix("<") && digits.hasSuffix(">") && digits.count >= 2 {
            digits = digits.dropFirst().dropLast()
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.utf8.count / 2)
        var high: UInt8?
        for byte in digits.utf8 {
            if byte == UInt8(ascii: " ") { continue }
            guard let nibble = hexDigitValue(byte) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return high == nil ? bytes : nil
    }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM` (`defaults read` output), the same without a zone
    /// (local time), ISO 8601 `YYYY-MM-DDTHH:MM:SSZ` or `±HH:MM`, or a bare date; from
    /// 0000-12-30 to 9999-12-31 (after the zone is applied), the dates the readers read back.
    package static func date(_ text: String) -> PlistDate? {
        let date = Array(text.utf8).withUnsafeBufferPointer { bytes in
            var scan = ByteCursor(bytes)
            return scan.commandLineDate()
        }
        return date.flatMap { PlistDate.representable.contains($0.secondsSince2001) ? $0 : nil }
    }
}

extension ByteCursor {
    /// A command-line date: `YYYY-MM-DD[ HH:MM:SS][ ±ZZZZ|Z]`, local time without a zone.
    mutating func commandLineDate() -> PlistDate? {
        guard let year = number(ofDigits: 4), skip(UInt8(ascii: "-")), let month = number(ofDigits: 2),
            skip(UInt8(ascii: "-")), let day = number(ofDigits: 2)
        else { return nil }
        var civil = CivilTime(year: Int64(year), month: month, day: day)
        if !atEnd {
            guard skip(UInt8(ascii: " ")) || skip(UInt8(ascii: "T")),
                let h = number(ofDigits: 2), skip(UInt8(ascii: ":")), let m = number(ofDigits: 2),
                skip(UInt8(ascii: ":")), let s = number(ofDigits: 2)
            else { return nil }
            (civil.hour, civil.minute, civil.second) = (h, m, s)
        }
        guard civil.isValid else { return nil }
        _ = skip(UInt8(ascii: " "))
        if atEnd {
            guard let offset = civil.localUTCOffset else { return nil }
            return PlistDate(civil, offsetSeconds: offset)
        }
        if skip(UInt8(ascii: "Z")) { return atEnd ? PlistDate(civil) : nil }
        let sign: Int64
        if skip(UInt8(ascii: "+")) { sign = 1 } else if skip(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let hh = number(ofDigits: 2) else { return nil }
        _ = skip(UInt8(ascii: ":"))
        guard let mm = number(ofDigits: 2), atEnd, hh < 24, mm < 60 else { return nil }
        return PlistDate(civil, offsetSeconds: sign * Int64(hh * 3600 + mm * 60))
    }
}

extension CommandLineText {
    /// Untyped text with each `\U` and four hex digits decoded, as `defaults` decodes
    /// them (`"@\U21a9"` is `@↩`; a surrogate pair `\Ud83d\Ude00` is one character).
    /// Every other backslash stays: no evidence shows defaults decoding `\n` or `\\` in
    /// a plain word, and a Windows path or a regular expression must not change. An
    /// escape that would make a lone surrogate or a control character XML cannot hold
    /// also stays as typed.
    package static func unicodeEscapesDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "\\")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            guard let unit = escapedUnit(bytes, at: i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var scalar: Unicode.Scalar?
            var length = 6
            if UTF16.isLeadSurrogate(unit), let trail = escapedUnit(bytes, at: i + 6), UTF16.isTrailSurrogate(trail) {
                scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00))
                length = 12
            } else if !UTF16.isLeadSurrogate(unit), !UTF16.isTrailSurrogate(unit) {
                scalar = Unicode.Scalar(unit)
            }
            guard let scalar, xmlCanHold(scalar) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            out.append(contentsOf: String(Character(scalar)).utf8)
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-16 unit of `\U` and exactly four hex digits at `i`, if that is what stands there.
    private static func escapedUnit(_ bytes: [UInt8], at i: Int) -> UInt16? {
        guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "U") else {
            return nil
        }
        var unit: UInt16 = 0
        for b in bytes[(i + 2)..<(i + 6)] {
            guard let digit = hexDigitValue(b) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    private static func xmlCanHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }
}
