import PlistModel
/// XML plist dates: `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds.
package enum XMLDate {
    /// Also takes the shortened forms plistlib accepts (`2004Z`, `2004-10-26Z`, …).
    package static func parse(_ text: some Collection<UInt8>) -> PlistDate? {
        let b = Array(text)
        guard b.last == UInt8(ascii: "Z") else { return nil }
        var fields: [Int] = []
        var i = 0
        let widths = [4, 2, 2, 2, 2, 2]
        let separators: [UInt8] = [
            UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"), UInt8(ascii: ":"),
        ]
        for (n, width) in widths.enumerated() {
            if n > 0 {
                guard i < b.count - 1 else { break }
                guard b[i] == separators[n - 1] else { return nil }
                i += 1
            }
            guard i + width <= b.count - 1 else { return nil }
            var v = 0
            for _ in 0..<width {
                guard let d = hexDigitValue(b[i]), d < 10 else { return nil }
                v = v * 10 + Int(d)
                i += 1
            }
            fields.append(v)
        }
        guard i == b.count - 1 else { return nil }
        while fields.count < 6 { fields.append(fields.count < 3 ? 1 : 0) }
        // A field past its end carries into the next, as Foundation reads it (2024-01-32
        // is February 1st), for the files older Foundations wrote. Foundation counts the
        // days before a month from a table of months 0 to 13, so month 13 is the next
        // January and months 0 and 14 to 99 are this January: the same here.
        let year = Int64(fields[0])
        let month = (1...12).contains(fields[1]) ? fields[1] : 1
        let extraDays = fields[1] == 13 ? (CivilTime.isLeap(year) ? 366 : 365) : 0
        let civil = CivilTime(
            year: year, month: month, day: fields[2] + extraDays, hour: fields[3], minute: fields[4], second: fields[5])
        return PlistDate(civil)
    }

    /// Whether `text` is a date exactly as `append` writes it, `YYYY-MM-DDTHH:MM:SSZ`,
    /// of a valid time from the year 1 on: then it reads back field for field, and is its
    /// own RFC 3339 text too, so a writer may copy it instead of working it out again
    /// (JSON export and import spend a sixth of their time on dates otherwise).
    static func isCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[19] == UInt8(ascii: "Z")
        else { return false }
        var scan = ByteCursor(text)
        func field(_ width: Int) -> Int? {
            defer { scan.offset += 1 }
            return scan.number(ofDigits: width)
        }
        guard let year = field(4), let month = field(2), let day = field(2), let hour = field(2),
            let minute = field(2), let second = field(2), year >= 1
        else { return false }
        return CivilTime(year: Int64(year), month: month, day: day, hour: hour, minute: minute, second: second).isValid
    }

    static func append(_ date: PlistDate, to out: inout [UInt8]) {
        let c = date.components ?? CivilTime(year: 2001, month: 1, day: 1)
        DefaultsText.appendCivil(c, dateTimeSeparator: UInt8(ascii: "T"), to: &out)
        out.append(UInt8(ascii: "Z"))
    }
}
