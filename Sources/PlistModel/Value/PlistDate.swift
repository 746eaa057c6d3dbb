/// A point in time as property lists store it: seconds since 2001-01-01 00:00:00 UTC.
///
/// Binary plists keep the full `Double`, so sub-second precision survives; XML keeps
/// whole seconds, as Apple writes it.
///
///     PlistDate(secondsSince2001: 0).components.year   //=> 2001
public struct PlistDate: Sendable, Hashable {
    /// Seconds since 2001-01-01 00:00:00 UTC, the reference date of every plist format.
    public var secondsSince2001: Double

    /// The date `secondsSince2001` seconds after 2001-01-01 UTC.
    public init(secondsSince2001: Double) { self.secondsSince2001 = secondsSince2001 }

    /// From Foundation's `Date.distantPast` (0000-12-30T00:00:00Z, which is 0001-01-01 in
    /// the Julian calendar Foundation counts old dates in) up to 10000-01-01T00:00:00Z:
    /// every date Foundation stores and reads back, in XML as in binary. What the readers
    /// accept and what a write may store. (plistlib's `datetime` starts two days later,
    /// at 0001-01-01, so it cannot read `distantPast` in any format.)
    package static let representable = -63_114_076_800.0..<252_424_080_000.0

    /// Seconds between 1970-01-01 and 2001-01-01.
    package static let unixEpochOffset: Double = 978_307_200

    /// The date `unixSeconds` after 1970-01-01 UTC.
    ///
    ///     PlistDate(unixSeconds: 978_307_200).secondsSince2001   //=> 0
    public init(unixSeconds: Double) { secondsSince2001 = unixSeconds - Self.unixEpochOffset }

    /// Seconds since 1970-01-01 UTC.
    public var unixSeconds: Double { secondsSince2001 + Self.unixEpochOffset }
}

/// A UTC calendar date and time of day, whole seconds.
public struct CivilTime: Sendable, Equatable {
    public var year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// The UTC civil time given, in the proleptic Gregorian calendar.
    ///
    ///     PlistDate(year: 2001, month: 1, day: 2).secondsSince2001   //=> 86400
    public init(year: Int64, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    package var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.daysIn(month: month, year: year)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// Whether `year` has a February 29th, in the proleptic Gregorian calendar.
    package static func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int64, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((m + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `daysFromCivil`.
    static func civilFromDays(_ z0: Int64) -> (Int64, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }

    /// The calendar time `seconds` after 1970-01-01 UTC.
    package init(unixSeconds seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = Self.civilFromDays(days)
        self.init(
            year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60
        )
    }

    /// Seconds since 1970-01-01 UTC.
    package var unixSeconds: Int64 {
        Self.daysFromCivil(year, month, day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}

extension PlistDate {
    /// The UTC calendar time, seconds rounded down (as Apple's writers do), or nil for
    /// a time too far out to name (NaN, infinite, beyond ±2^53 seconds).
    public var components: CivilTime? {
        let unix = unixSeconds.rounded(.down)
        guard unix.isFinite, abs(unix) < 9_007_199_254_740_992 else { return nil }
        return CivilTime(unixSeconds: Int64(unix))
    }

    /// The civil time `civil` at a place `offsetSeconds` east of UTC.
    public init(_ civil: CivilTime, offsetSeconds: Int64 = 0) {
        self.init(unixSeconds: Double(civil.unixSeconds - offsetSeconds))
    }
}
