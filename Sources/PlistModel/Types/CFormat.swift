/// C's `printf` forms of a double, exactly: `%.Nf` (plutil's `-p`) and `%.17g` (GLib's
/// text of a double, which `gsettings get` prints). The binary value is rounded half to
/// even at the last digit kept, on whole numbers, not on a decimal text: the shortest text
/// of 0.0078125's neighbours rounds differently.
package enum CFormat {
    /// `%.{significant}g`: that many significant digits, trailing zeros dropped; the
    /// exponent form (`1e+100`, `1.0000000000000001e-05`) below 1e-4 and from 10^digits up.
    package static func general(_ value: Double, significant: Int = 17) -> String {
        if value.isNaN { return value.sign == .minus ? "-nan" : "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        var (digits, exponent) = significantDigits(abs(value), significant)
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let sign = value < 0 ? "-" : ""
        if exponent < -4 || exponent >= significant {
            let mantissa = digits.count > 1 ? "\(digits.first!)." + digits.dropFirst() : "\(digits.first!)"
            let power = String(abs(exponent))
            return sign + mantissa + (exponent < 0 ? "e-" : "e+") + (power.count < 2 ? "0" : "") + power
        }
        if exponent < 0 { return sign + "0." + String(repeating: "0", count: -exponent - 1) + digits }
        if digits.count <= exponent + 1 {
            return sign + digits + String(repeating: "0", count: exponent + 1 - digits.count)
        }
        let point = digits.index(digits.startIndex, offsetBy: exponent + 1)
        return sign + digits[..<point] + "." + digits[point...]
    }

    /// `count` digits of a finite, positive `value`, rounded half to even, and the power
    /// of ten of the first.
    private static func significantDigits(_ value: Double, _ count: Int) -> (String, Int) {
        // log10(2) times the binary exponent: at most one off, which the loop mends.
        var exponent = Int((Double(value.exponent) * 0.301_029_995_663_981_2).rounded(.down))
        while true {
            let decimals = count - 1 - exponent
            guard decimals >= 0 else {
                // From 10^count up the value is whole: its exact digits, rounded here.
                let whole = fixed(value, decimals: 0)
                guard whole.count > count else { exponent = whole.count - 1; continue }
                let rounded = roundedHalfEven(whole, keeping: count)
                return (String(rounded.prefix(count)), rounded.count - 1)
            }
            let text = String(fixed(value, decimals: decimals).filter { $0 != "." }.drop { $0 == "0" })
            if text.count == count { return (text, exponent) }
            // The estimate of the power was one off (or rounding carried into a new digit).
            exponent += text.count > count ? 1 : -1
        }
    }

    /// Whole-number `digits` rounded half to even to their first `keeping` digits, the rest zero.
    private static func roundedHalfEven(_ digits: String, keeping: Int) -> String {
        var kept = Array(digits.utf8.prefix(keeping)), rest = Array(digits.utf8.dropFirst(keeping))
        let zero = UInt8(ascii: "0")
        let first = rest.first ?? zero
        let tail = rest.dropFirst().contains { $0 != zero }
        if first > UInt8(ascii: "5") || (first == UInt8(ascii: "5") && (tail || (kept.last! - zero) % 2 == 1)) {
            var i = kept.count - 1
            while i >= 0, kept[i] == UInt8(ascii: "9") {
                kept[i] = zero
                i -= 1
            }
            if i >= 0 { kept[i] += 1 } else { kept.insert(UInt8(ascii: "1"), at: 0) }
        }
        rest = Array(repeating: zero, count: rest.count)
        return String(decoding: kept + rest, as: UTF8.self)
    }

    package static func fixed(_ value: Double, decimals: Int) -> String {
        let negative = value.sign == .minus
        let magnitude = abs(value)
        // magnitude = significand × 2^exponent, exactly.
        let significand =
            magnitude.significandBitPattern
            | (magnitude.isNormal ? 1 << UInt64(Double.significandBitCount) : 0)
        let exponent =
            (magnitude.isNormal ? Int(magnitude.exponentBitPattern) : 1) - 1023 - Double.significandBitCount
        var scaled = Limbs(significand)
        for _ in 0..<decimals { scaled.multiply(by: 10) }
        if exponent >= 0 {
            scaled.shiftLeft(exponent)
        } else {
            scaled.shiftRightRoundingHalfEven(-exponent)
        }
        var digits = scaled.decimal()
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -decimals)
        let text = decimals == 0 ? digits : digits[..<cut] + "." + digits[cut...]
        return (negative ? "-" : "") + text
    }

    /// An unsigned whole number of any size, 32 bits a limb, least significant first.
    struct Limbs {
        var limbs: [UInt32]

        init(_ value: UInt64) { limbs = [UInt32(truncatingIfNeeded: value), UInt32(value >> 32)] }

        mutating func multiply(by factor: UInt32) {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let product = UInt64(limbs[i]) * UInt64(factor) + carry
                limbs[i] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }

        mutating func shiftLeft(_ bits: Int) {
            limbs.insert(contentsOf: repeatElement(0, count: bits / 32), at: 0)
            for _ in 0..<(bits % 32) { multiply(by: 2) }
        }

        /// Divided by 2^bits, the quotient rounded half to even.
        mutating func shiftRightRoundingHalfEven(_ bits: Int) {
            var remainderNonZero = false, half = false
            for _ in 0..<bits {
                remainderNonZero = remainderNonZero || half
                half = limbs[0] & 1 == 1
                divide(by: 2)
            }
            if half, remainderNonZero || limbs[0] & 1 == 1 { add(1) }
        }

        mutating func add(_ value: UInt32) {
            var carry = UInt64(value)
            for i in limbs.indices where carry > 0 {
                let sum = UInt64(limbs[i]) + carry
                limbs[i] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }

        /// Divides in place; returns the remainder.
        @discardableResult
        mutating func divide(by divisor: UInt32) -> UInt32 {
            var remainder: UInt64 = 0
            for i in limbs.indices.reversed() {
                let current = remainder << 32 | UInt64(limbs[i])
                limbs[i] = UInt32(current / UInt64(divisor))
                remainder = current % UInt64(divisor)
            }
            while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
            return UInt32(remainder)
        }

        func decimal() -> String {
            var n = self, chunks: [UInt32] = []
            repeat { chunks.append(n.divide(by: 1_000_000_000)) } while n.limbs.contains { $0 != 0 }
            var text = String(chunks.removeLast())
            for chunk in chunks.reversed() {
                let part = String(chunk)
                text += String(repeating: "0", count: 9 - part.count) + part
            }
            return text
        }
    }
}
