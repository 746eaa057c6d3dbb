/// A property-list integer: any value from `Int64.min` to `UInt64.max`.
///
/// Binary plists store values above `Int64.max` as 16-byte integers and XML as plain
/// digits; keeping them apart from negatives needs one bit more than `Int64` has.
///
///     PlistInteger(unsigned: .max).description   //=> "18446744073709551615"
///     PlistInteger(-1).description               //=> "-1"
public struct PlistInteger: Sendable, Hashable {
    /// The two's-complement bits; read as unsigned when `isUnsigned`.
    public let bitPattern: UInt64
    /// True only for values above `Int64.max`, so each value has one representation.
    public let isUnsigned: Bool

    /// A signed value.
    public init(_ value: Int64) {
        bitPattern = UInt64(bitPattern: value)
        isUnsigned = false
    }

    /// A value above `Int64.max` (or any unsigned value): plists hold up to `UInt64.max`.
    public init(unsigned value: UInt64) {
        bitPattern = value
        isUnsigned = value > UInt64(Int64.max)
    }

    /// The value as `Int64`, or nil when it is above `Int64.max`.
    public var int64: Int64? { isUnsigned ? nil : Int64(bitPattern: bitPattern) }

    /// The nearest `Double`.
    public var doubleValue: Double { isUnsigned ? Double(bitPattern) : Double(Int64(bitPattern: bitPattern)) }

    /// Whether the value is below zero.
    public var isNegative: Bool { !isUnsigned && Int64(bitPattern: bitPattern) < 0 }

    /// Parses optional sign and decimal digits, or `0x` hex digits, as XML plists allow.
    /// Returns nil for anything else or for a value out of range.
    /// Inlinable: the codecs call it per value, and only specialized for their byte
    /// slices is it fast (generic, across the module boundary, it was 4x slower).
    @inlinable
    package static func parse<C: Collection<UInt8>>(_ text: C, allowHex: Bool) -> PlistInteger? {
        var i = text.startIndex
        var negative = false
        if i != text.endIndex, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i = text.index(after: i)
        }
        var radix: UInt64 = 10
        if allowHex, i != text.endIndex, text[i] == UInt8(ascii: "0") {
            let next = text.index(after: i)
            if next != text.endIndex, text[next] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                i = text.index(after: next)
            }
        }
        guard i != text.endIndex else { return nil }
        var magnitude: UInt64 = 0
        while i != text.endIndex {
            guard let digit = hexDigitValue(text[i]), UInt64(digit) < radix else { return nil }
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            magnitude = sum
            i = text.index(after: i)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return PlistInteger(Int64(truncatingIfNeeded: 0 &- magnitude))
        }
        return PlistInteger(unsigned: magnitude)
    }
}

extension PlistInteger: CustomStringConvertible {
    /// The value in decimal: `-1`, `18446744073709551615`.
    public var description: String {
        isUnsigned ? String(bitPattern) : String(Int64(bitPattern: bitPattern))
    }
}

@inlinable @inline(__always)
package func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
}
