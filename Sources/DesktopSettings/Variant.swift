/// One GVariant value: what a dconf database holds for a key, and what a GSettings schema
/// gives as a default or a range's ends. Strings are bytes, as everywhere in the store.
package indirect enum Variant: Hashable, Sendable {
    case bool(Bool)
    /// `n` `i` `x` `h`, by its type code.
    case signed(Int64, UInt8)
    /// `y` `q` `u` `t`, by its type code.
    case unsigned(UInt64, UInt8)
    case double(Double)
    /// `s` `o` `g`, by its type code: the bytes, without GLib's closing NUL.
    case string([UInt8], UInt8)
    /// `v`: a value that carries its own type.
    case boxed(Variant)
    /// `mT`: nothing, or just a value; the element type is kept for `nothing`.
    case maybe(VariantType, Variant?)
    /// `aT`: the element type is kept for the empty array.
    case array(VariantType, [Variant])
    case tuple([Variant])
    case entry(Variant, Variant)

    package var type: VariantType {
        switch self {
        case .bool: .boolean
        case .signed(_, let c), .unsigned(_, let c), .string(_, let c): .basic(c)
        case .double: .double
        case .boxed: .variant
        case .maybe(let element, _): .maybe(element)
        case .array(let element, _): .array(element)
        case .tuple(let members): .tuple(members.map(\.type))
        case .entry(let key, let value): .entry(key.type, value.type)
        }
    }

    package static func string(_ text: String) -> Variant { .string(Array(text.utf8), UInt8(ascii: "s")) }
    package static func int32(_ value: Int32) -> Variant { .signed(Int64(value), UInt8(ascii: "i")) }

    /// The string of an `s`, `o` or `g` value, or nil.
    package var text: String? {
        if case .string(let bytes, _) = self { String(decoding: bytes, as: UTF8.self) } else { nil }
    }

    /// Bit for bit, so `nan` equals itself and `-0.0` is not `0.0`: a value read back is
    /// the value written.
    package static func == (lhs: Variant, rhs: Variant) -> Bool {
        switch (lhs, rhs) {
        case let (.bool(a), .bool(b)): a == b
        case let (.signed(a, c), .signed(b, d)): a == b && c == d
        case let (.unsigned(a, c), .unsigned(b, d)): a == b && c == d
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.string(a, c), .string(b, d)): a == b && c == d
        case let (.boxed(a), .boxed(b)): a == b
        case let (.maybe(s, a), .maybe(t, b)): s == t && a == b
        case let (.array(s, a), .array(t, b)): s == t && a == b
        case let (.tuple(a), .tuple(b)): a == b
        case let (.entry(k, v), .entry(l, w)): k == l && v == w
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .bool(let b): hasher.combine(b)
        case .signed(let n, _): hasher.combine(n)
        case .unsigned(let n, _): hasher.combine(n)
        case .double(let d): hasher.combine(d.bitPattern)
        case .string(let s, _): hasher.combine(s)
        case .boxed(let v): hasher.combine(v)
        case .maybe(_, let v): hasher.combine(v)
        case .array(_, let vs), .tuple(let vs): hasher.combine(vs)
        case .entry(let k, let v): hasher.combine(k); hasher.combine(v)
        }
    }
}
