#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension CivilTime {
    /// The UTC offset, in seconds, of this civil time read as local time (via `mktime(3)`,
    /// so TZ and daylight saving apply); nil when the C library cannot represent it. Date
    /// text without a zone (`-date '2024-01-02 03:04:05'`) is local time, as in defaults.
    var localUTCOffset: Int64? {
        guard let year = Int32(exactly: year - 1900) else { return nil }
        var t = tm()
        t.tm_year = year
        t.tm_mon = Int32(month - 1)
        t.tm_mday = Int32(day)
        t.tm_hour = Int32(hour)
        t.tm_min = Int32(minute)
        t.tm_sec = Int32(second)
        t.tm_isdst = -1
        let local = mktime(&t)
        // -1 is also 1969-12-31 23:59:59 UTC, a time that exists.
        if local == -1 && !(t.tm_year == 69 && t.tm_mday == 31) { return nil }
        return unixSeconds - Int64(local)
    }
}
