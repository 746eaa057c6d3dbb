/// Reads fixed-width text fields, such as a date's, in one pass over the bytes with no
/// `String` work.
package struct ByteScanner {
    let bytes: [UInt8]
    var i = 0
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var atEnd: Bool { i == bytes.count }

    /// `n` decimal digits as a number, or nil.
    package mutating func digits(_ n: Int) -> Int? {
        guard i + n <= bytes.count else { return nil }
        var value = 0
        for _ in 0..<n {
            guard let d = hexDigitValue(bytes[i]), d < 10 else { return nil }
            value = value * 10 + Int(d)
            i += 1
        }
        return value
    }

    /// Steps over `byte` when it is next.
    mutating func skip(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    /// Steps over the next byte when it is one of `options`.
    package mutating func skip(anyOf options: String) -> Bool {
        guard i < bytes.count, options.utf8.contains(bytes[i]) else { return false }
        i += 1
        return true
    }
}
