/// Byte comparisons a word at a time, for loops that run once per key of a big domain.
enum ByteScan {
    /// Whether `a`'s bytes sort before `b`'s, eight at a time: a big domain's text checks
    /// every key against the one before it (from XML or binary), and the generic
    /// comparison cost 2-3% of it.
    @inline(__always)
    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = min(a.count, b.count)
        var i = 0
        while i + 8 <= n {
            let x = UnsafeRawPointer(a.baseAddress! + i).loadUnaligned(as: UInt64.self).bigEndian
            let y = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self).bigEndian
            if x != y { return x < y }
            i += 8
        }
        while i < n {
            if a[i] != b[i] { return a[i] < b[i] }
            i += 1
        }
        return a.count < b.count
    }

}
