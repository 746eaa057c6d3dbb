/// C's `printf("%.Nf")` of a double, exactly: the binary value rounded half to even at
/// the Nth decimal, every integer digit written. Done on whole numbers, not on a
/// decimal text: the shortest text of 0.0078125's neighbours rounds differently.
enum CFormat {
    static func fixed(_ value: Double, decimals: Int) -> String {
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
