/// A key compared, ordered and hashed as its UTF-8 bytes, as property lists compare keys.
///
/// Swift's `String` equality and hashing follow canonical equivalence, so a
/// `[String: …]`, a `Set<String>` or `==` would take "é" (U+00E9) and "e\u{301}" for one key,
/// where a property list holds two. Every table, set or comparison of a domain's keys, and of
/// domain names (which are file names, so bytes too), goes through this.
/// (Inlinable: every layer above hashes and compares keys in its loops.)
///
///     Set([ExactKey("\u{E9}"), ExactKey("e\u{301}")]).count   //=> 2
@frozen @usableFromInline
package struct ExactKey: Hashable, Comparable, Sendable {
    /// The key.
    @usableFromInline package let text: String

    /// The key `text`, as its bytes.
    @inlinable @inline(__always)
    package init(_ text: String) { self.text = text }

    /// The same bytes.
    @inlinable @inline(__always)
    package static func == (a: Self, b: Self) -> Bool { sameKey(a.text, b.text) }

    /// Byte order, which for UTF-8 is code-point order.
    @inlinable @inline(__always)
    package static func < (a: Self, b: Self) -> Bool { byteOrderPrecedes(a.text, b.text) }

    /// The bytes, hashed as they are (no normalization).
    @inlinable @inline(__always)
    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
