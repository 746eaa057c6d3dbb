/// The scalar texts of `defaults read` output (SPEC §4).
package enum DefaultsText {
    /// `YYYY-MM-DD HH:MM:SS +0000`, always UTC.
    package static func date(_ date: PlistDate) -> String {
        guard let c = date.components else { return RealText.shortest(date.secondsSince2001) }
        var out = [UInt8]()
        out.reserveCapacity(25)
        appendDate(c, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `date`'s text of a date with civil components, appended as bytes.
    package static func appendDate(_ c: CivilTime, to out: inout [UInt8]) {
        appendCivil(c, dateTimeSeparator: UInt8(ascii: " "), to: &out)
        out.appendBytes(" +0000")
    }

    /// `{length = N, bytes = 0x0a0b0c}` with every byte (defaults cuts after 24).
    static func data(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2 + 40)
        appendData(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `data`'s text, appended as bytes: no `String` made for each value of a big domain.
    package static func appendData(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.appendBytes("{length = ")
        appendPadded(UInt64(bytes.count), width: 1, to: &out)
        out.appendBytes(", bytes = 0x")
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `YYYY-MM-DD<sep>HH:MM:SS`, the year at least four digits.
    package static func appendCivil(_ c: CivilTime, dateTimeSeparator: UInt8, to out: inout [UInt8]) {
        if c.year < 0 { out.append(UInt8(ascii: "-")) }
        appendPadded(c.year.magnitude, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(UInt64(c.month), width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(UInt64(c.day), width: 2, to: &out)
        out.append(dateTimeSeparator)
        appendPadded(UInt64(c.hour), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(UInt64(c.minute), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(UInt64(c.second), width: 2, to: &out)
    }

    /// The decimal digits of `value`, zero-padded to `width`.
    package static func appendPadded(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        // Written backwards into a buffer on the stack, then appended at once: no array per
        // number, and no generic `repeatElement` or `stride`, which cost more than the
        // digits (a fifth of a date's text).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            var v = value
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v > 0
            var padding = width - (20 - at)
            while padding > 0 {
                out.append(UInt8(ascii: "0"))
                padding -= 1
            }
            out.appendBytes(UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }
}

extension PlistInteger {
    /// `description`'s digits appended as bytes: no `String` made for each integer of a
    /// big domain's text.
    package func appendDecimal(to out: inout [UInt8]) {
        let negative = !isUnsigned && Int64(bitPattern: bitPattern) < 0
        if negative { out.append(UInt8(ascii: "-")) }
        DefaultsText.appendPadded(negative ? Int64(bitPattern: bitPattern).magnitude : bitPattern, width: 1, to: &out)
    }
}
