/// Decimal text read as the nearest `Double` without the C library, for the text every
/// writer of reals puts out: at most 19 significant digits and a power of ten within 19
/// of them (`0.14285714285714285`, `2.5`, `-7e3`). That is `w × 10^q` with `w` in 64 bits
/// and `10^|q|` too, so the exact value is one 128-bit product or quotient, rounded once:
/// the answer is `strtod`'s, bit for bit. Anything else is nil, for `strtod` to read.
///
/// A real cost a `String` and the C parser, 1,900 instructions, a tenth of reading a big
/// XML domain; this costs about 400.
package enum DecimalReal {
    /// `[+-]digits[.digits][(e|E)[+-]digits]`, or nil.
    package static func parse(_ p: Span<UInt8>) -> Double? {
        guard !p.isEmpty else { return nil }
        let n = p.count
        var i = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { i = 1 }
        var w: UInt64 = 0
        var significant = 0, scale = 0
        // The digits before the point, then after it (each of those a tenth smaller):
        // leading zeros are not significant, and past 19 digits w may overflow.
        var digits = accumulate(p, &i, &w, &significant)
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            let fraction = accumulate(p, &i, &w, &significant)
            scale = -fraction
            digits += fraction
        }
        guard digits > 0, significant <= 19 else { return nil }
        if i < n {
            guard p[i] | 0x20 == UInt8(ascii: "e") else { return nil }
            i += 1
            var exponentNegative = false
            if i < n, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") {
                exponentNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            var exponent = 0
            let exponentStart = i
            while i < n, p[i] &- UInt8(ascii: "0") < 10 {
                exponent = exponent * 10 + Int(p[i] &- UInt8(ascii: "0"))
                guard exponent < 1000 else { return nil }
                i += 1
            }
            guard i > exponentStart, i == n else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        let magnitude: Double
        if w == 0 {
            magnitude = 0
        } else if scale == 0 {
            magnitude = Double(w)
        } else if scale > 0 {
            guard scale <= 19 else { return nil }
            magnitude = product(w, powerOfTen(scale))
        } else {
            guard scale >= -19 else { return nil }
            magnitude = quotient(w, powerOfTen(-scale))
        }
        return negative ? -magnitude : magnitude
    }

    /// The run of digits from `i` on, into `w` and `significant`; returns how many.
    @inline(__always)
    private static func accumulate(
        _ p: Span<UInt8>, _ i: inout Int, _ w: inout UInt64, _ significant: inout Int
    ) -> Int {
        let start = i
        while i < p.count, p[i] &- UInt8(ascii: "0") < 10 {
            if w != 0 || p[i] != UInt8(ascii: "0") {
                significant += 1
                w = w &* 10 &+ UInt64(p[i] &- UInt8(ascii: "0"))
            }
            i += 1
        }
        return i - start
    }

    /// 10^k for k from 0 to 19, each within 64 bits (made, not looked up: a global table
    /// cost a lazy initializer's check on every call).
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<k { p &*= 10 }
        return p
    }

    /// `w × p` rounded once: the 128-bit product's top 64 bits, with any bit below them
    /// kept as the lowest (a sticky bit, so a tie is only a true tie), converted.
    private static func product(_ w: UInt64, _ p: UInt64) -> Double {
        let (high, low) = w.multipliedFullWidth(by: p)
        guard high != 0 else { return Double(low) }
        let shift = high.leadingZeroBitCount
        let top = shift == 0 ? high : high << shift | low >> (64 - shift)
        let rest = low << shift
        return Double(sign: .plus, exponent: 64 - shift, significand: Double(top | (rest != 0 ? 1 : 0)))
    }

    /// `w ÷ d` rounded once: both normalized to a top bit of 1, a 64-bit quotient with its
    /// top bit set (the numerator shifted one less when w's digits are the larger), the
    /// remainder kept as a sticky bit, converted and scaled by the shifts.
    private static func quotient(_ w: UInt64, _ d: UInt64) -> Double {
        let wShift = w.leadingZeroBitCount, dShift = d.leadingZeroBitCount
        let x = w << wShift, y = d << dShift
        let (q, r): (UInt64, UInt64)
        let exponent: Int
        if x < y {
            (q, r) = y.dividingFullWidth((x, 0))
            exponent = dShift - wShift - 64
        } else {
            (q, r) = y.dividingFullWidth((x >> 1, x << 63))
            exponent = dShift - wShift - 63
        }
        return Double(sign: .plus, exponent: exponent, significand: Double(q | (r != 0 ? 1 : 0)))
    }
}
