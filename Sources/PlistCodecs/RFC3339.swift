import PlistModel
/// Dates as the JSON mapping writes them: RFC 3339 in UTC, `2024-01-02T03:04:05Z`, with
/// a fraction only when the date has one, in the fewest digits that read back as the
/// very same `Double` (`…05.25Z`, never `…05.250000Z` or a rounded-away fraction).
///
/// Both directions work on decimal text, not on floating-point arithmetic: the fraction
/// comes from the shortest digits of the stored seconds, and reading parses the whole
/// decimal number at once, so nothing is rounded twice.
///
///     RFC3339.text(PlistDate(secondsSince2001: 0.5))   //=> "2001-01-01T00:00:00.5Z"
package enum RFC3339 {
    /// Nil for a date RFC 3339 cannot name: NaN, infinite, -0.0, or outside the years 0000–9999.
    package static func text(_ date: PlistDate) -> String? {
        let seconds = date.secondsSince2001
        // -0.0 is the same instant as 0.0, but text cannot carry the sign back.
        guard seconds.isFinite, abs(seconds) < 9_007_199_254_740_992, seconds != 0 || seconds.sign == .plus else {
            return nil
        }
        var (whole, fraction) = Self.split(seconds)
        if seconds < 0, !fraction.isEmpty {
            // -12.25 is 13 whole seconds before 2001 plus .75: the calendar counts forward.
            whole -= 1
            fraction = complement(fraction)
        }
        let civil = CivilTime(unixSeconds: whole + Int64(PlistDate.unixEpochOffset))
        guard (0...9999).contains(civil.year) else { return nil }
        var out: [UInt8] = []
        DefaultsText.appendCivil(civil, dateTimeSeparator: UInt8(ascii: "T"), to: &out)
        if !fraction.isEmpty {
            out.append(UInt8(ascii: "."))
            out += fraction
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` in either case, as
    /// RFC 3339 allows. Nil for anything else, a field out of range included.
    package static func parse(_ text: some Collection<UInt8>) -> PlistDate? {
        Array(text).withUnsafeBufferPointer(parse)
    }

    /// `parse` of bytes in memory, without a copy of them.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> PlistDate? {
        var scan = ByteCursor(bytes)
        return parse(&scan)
    }

    private static func parse(_ scan: inout ByteCursor) -> PlistDate? {
        guard let year = scan.number(ofDigits: 4), scan.skip(anyOf: "-"), let month = scan.number(ofDigits: 2),
            scan.skip(anyOf: "-"), let day = scan.number(ofDigits: 2), scan.skip(anyOf: "Tt"),
            let hour = scan.number(ofDigits: 2), scan.skip(anyOf: ":"), let minute = scan.number(ofDigits: 2),
            scan.skip(anyOf: ":"), let second = scan.number(ofDigits: 2)
        else { return nil }
        var fraction: [UInt8] = []
        if scan.skip(anyOf: ".") {
            while let d = scan.number(ofDigits: 1) { fraction.append(UInt8(ascii: "0") + UInt8(d)) }
            guard !fraction.isEmpty, fraction.count <= 1000 else { return nil }
            while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        }
        var offset: Int64 = 0
        if !scan.skip(anyOf: "Zz") {
            let sign: Int64 = scan.skip(anyOf: "-") ? -1 : scan.skip(anyOf: "+") ? 1 : 0
            guard sign != 0, let h = scan.number(ofDigits: 2), h < 24, scan.skip(anyOf: ":"),
                let m = scan.number(ofDigits: 2), m < 60
            else { return nil }
            offset = sign * Int64(h * 3600 + m * 60)
        }
        let civil = CivilTime(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second)
        guard scan.atEnd, civil.isValid else { return nil }
        let whole = civil.unixSeconds - offset - Int64(PlistDate.unixEpochOffset)
        if fraction.isEmpty { return PlistDate(secondsSince2001: Double(whole)) }
        // whole + 0.F, as one decimal number; below zero that is -((|whole| - 1) + (1 - 0.F)).
        let decimal = whole >= 0 ? "\(whole)." : "-\(-whole - 1)."
        let digits = whole >= 0 ? fraction : complement(fraction)
        return Double(decimal + String(decoding: digits, as: UTF8.self)).map(PlistDate.init(secondsSince2001:))
    }

    /// The integer part (toward zero) of `value`'s shortest decimal text and its fraction
    /// digits, without trailing zeros.
    private static func split(_ value: Double) -> (Int64, [UInt8]) {
        // Whole seconds, the usual case, need no decimal text.
        if value == value.rounded(.towardZero) { return (Int64(value), []) }
        let (digits, exponent) = DecimalText.digits(of: abs(value))
        let sign: Int64 = value < 0 ? -1 : 1
        if exponent >= 0 {
            return (
                sign * Int64(String(decoding: digits, as: UTF8.self) + String(repeating: "0", count: exponent))!, []
            )
        }
        let fractionLength = -exponent
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, fractionLength - digits.count + 1)) + digits
        let integer = padded.dropLast(fractionLength)
        var fraction = Array(padded.suffix(fractionLength))
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        return (sign * Int64(String(decoding: integer, as: UTF8.self))!, fraction)
    }

    /// 1 - 0.F as digits of the same length: `25` → `75`, `001` → `999`. F ends in a
    /// non-zero digit, so the result does too.
    private static func complement(_ fraction: [UInt8]) -> [UInt8] {
        var out = fraction.map { UInt8(ascii: "9") - ($0 - UInt8(ascii: "0")) }
        out[out.count - 1] += 1
        return out
    }
}

/// Decimal digits of a double as Swift's shortest round-trip printing gives them.
enum DecimalText {
    /// `(digits, exponent)` with value = digits × 10^exponent, digits without leading
    /// zeros (`"0"` for zero). `value` must be finite and not negative.
    static func digits(of value: Double) -> (digits: [UInt8], exponent: Int) {
        let text = Array(value.description.utf8)
        var mantissa: [UInt8] = []
        var exponent = 0
        var afterPoint = 0
        var seenPoint = false
        var i = 0
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                exponent = Int(String(decoding: text[(i + 1)...], as: UTF8.self)) ?? 0
                break
            }
            if c == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                mantissa.append(c)
                if seenPoint { afterPoint += 1 }
            }
            i += 1
        }
        exponent -= afterPoint
        while mantissa.count > 1, mantissa.first == UInt8(ascii: "0") { mantissa.removeFirst() }
        while mantissa.count > 1, mantissa.last == UInt8(ascii: "0") { mantissa.removeLast(); exponent += 1 }
        return (mantissa, exponent)
    }
}
