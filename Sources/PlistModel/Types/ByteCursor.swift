/// A position in text the readers move through byte by byte: look at what is next
/// (`peek`), take it (`pop`), step over what is expected (`skip`), count digits, and
/// name the line for an error, which is counted only then. It holds no copy of the
/// bytes; every access is checked against their end.
@frozen @usableFromInline
package struct ByteCursor {
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte; `bytes.count` at the end.
    @usableFromInline package var offset: Int

    @inlinable @inline(__always)
    package init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int = 0) {
        (self.bytes, self.offset) = (bytes, offset)
    }

    @inlinable @inline(__always)
    package var atEnd: Bool { offset >= bytes.count }

    /// The byte `ahead` places on (the next one by default); nil past the end.
    @inlinable @inline(__always)
    package func peek(_ ahead: Int = 0) -> UInt8? {
        offset + ahead < bytes.count ? bytes[offset + ahead] : nil
    }

    /// The next byte, taken; nil at the end.
    @inlinable @inline(__always)
    package mutating func pop() -> UInt8? {
        guard offset < bytes.count else { return nil }
        offset += 1
        return bytes[offset - 1]
    }

    /// Steps over `byte` when it is next.
    @inlinable @inline(__always)
    package mutating func skip(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Whether `text` is next (nothing is taken).
    @inlinable @inline(__always)
    package func starts(with text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard offset + n <= bytes.count else { return false }
        let p = text.utf8Start
        for i in 0..<n where bytes[offset + i] != p[i] { return false }
        return true
    }

    /// Steps over `text` when it is next.
    @inlinable @inline(__always)
    package mutating func skip(_ text: StaticString) -> Bool {
        guard starts(with: text) else { return false }
        offset += text.utf8CodeUnitCount
        return true
    }

    /// Steps over the bytes for which `test` holds; how many there were.
    @inlinable @inline(__always) @discardableResult
    package mutating func skip(while test: (UInt8) -> Bool) -> Int {
        let start = offset
        while offset < bytes.count, test(bytes[offset]) { offset += 1 }
        return offset - start
    }

    /// Steps over decimal digits; how many there were.
    @inlinable @inline(__always)
    package mutating func digits() -> Int {
        skip { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Exactly `count` decimal digits as a number (a date's fixed-width fields); nil,
    /// and the position wherever the digits stopped, when there are fewer.
    @inlinable @inline(__always)
    package mutating func number(ofDigits count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
            offset += 1
        }
        return value
    }

    /// Steps over the next byte when it is one of `options`.
    @inlinable @inline(__always)
    package mutating func skip(anyOf options: StaticString) -> Bool {
        guard let next = peek(), options.withUTF8Buffer({ $0.contains(next) }) else { return false }
        offset += 1
        return true
    }

    /// The bytes from `start` to the position.
    @inlinable @inline(__always)
    package func text(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<offset])
    }

    /// The 1-based line of `position` (the cursor's by default), for an error message.
    package func line(at position: Int? = nil) -> Int {
        var line = 1
        for i in 0..<min(position ?? offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") { line += 1 }
        return line
    }
}
