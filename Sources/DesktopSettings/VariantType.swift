/// A GVariant type: the shape of every value GSettings and dconf keep (GLib's `GVariantType`,
/// in its one-character codes: `b`, `i`, `as`, `a{sv}`, `(ii)`, `ms`, …).
package indirect enum VariantType: Hashable, Sendable {
    /// `b` `y` `n` `q` `i` `u` `x` `t` `h` `d` `s` `o` `g`.
    case basic(UInt8)
    /// `v`: any value, with its type.
    case variant
    case array(VariantType)
    case maybe(VariantType)
    case tuple([VariantType])
    /// `{KV}`: a dictionary's entry, inside an array; the key is basic.
    case entry(VariantType, VariantType)

    package static let boolean = VariantType.basic(UInt8(ascii: "b"))
    package static let int32 = VariantType.basic(UInt8(ascii: "i"))
    package static let double = VariantType.basic(UInt8(ascii: "d"))
    package static let string = VariantType.basic(UInt8(ascii: "s"))
    package static let bytes = VariantType.array(.basic(UInt8(ascii: "y")))
    package static let strings = VariantType.array(.string)

    /// Deeper than this, a type string (or a value of it) is refused as hostile: GLib's own
    /// limit is 128, and no schema comes near it.
    static let maximumDepth = 64

    /// The type a whole string spells, or nil.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        guard let type = Self.parse(bytes, &i, depth: 0), i == bytes.count else { return nil }
        self = type
    }

    /// One type from `bytes` at `i`, moving `i` past it.
    static func parse(_ bytes: [UInt8], _ i: inout Int, depth: Int) -> VariantType? {
        guard i < bytes.count, depth < maximumDepth else { return nil }
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"): return parse(bytes, &i, depth: depth + 1).map(VariantType.array)
        case UInt8(ascii: "m"): return parse(bytes, &i, depth: depth + 1).map(VariantType.maybe)
        case UInt8(ascii: "("):
            var members: [VariantType] = []
            while i < bytes.count, bytes[i] != UInt8(ascii: ")") {
                guard let member = parse(bytes, &i, depth: depth + 1) else { return nil }
                members.append(member)
            }
            guard i < bytes.count else { return nil }
            i += 1
            return .tuple(members)
        case UInt8(ascii: "{"):
            guard let key = parse(bytes, &i, depth: depth + 1), key.isBasic,
                let value = parse(bytes, &i, depth: depth + 1), i < bytes.count, bytes[i] == UInt8(ascii: "}")
            else { return nil }
            i += 1
            return .entry(key, value)
        default:
            return Self.basicCodes.contains(c) ? .basic(c) : nil
        }
    }

    static let basicCodes = Array("bynqiuxthdsog".utf8)

    package var isBasic: Bool { if case .basic = self { true } else { false } }

    /// The type string, as GLib spells it.
    package var text: String {
        switch self {
        case .basic(let c): String(UnicodeScalar(c))
        case .variant: "v"
        case .array(let element): "a" + element.text
        case .maybe(let element): "m" + element.text
        case .tuple(let members): "(" + members.map(\.text).joined() + ")"
        case .entry(let key, let value): "{" + key.text + value.text + "}"
        }
    }

    /// The alignment of its serialised form, in bytes.
    var alignment: Int {
        switch self {
        case .basic(let c):
            switch c {
            case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
            case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): 4
            case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): 8
            default: 1
            }
        case .variant: 8
        case .array(let element), .maybe(let element): element.alignment
        case .tuple(let members): members.map(\.alignment).max() ?? 1
        case .entry(let key, let value): max(key.alignment, value.alignment)
        }
    }

    /// The size every value of it has when serialised, or nil when values differ in size.
    var fixedSize: Int? {
        switch self {
        case .basic(let c):
            switch c {
            case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"): nil
            case UInt8(ascii: "b"), UInt8(ascii: "y"): 1
            default: alignment
            }
        case .variant, .array, .maybe: nil
        case .tuple(let members): Self.fixedSize(of: members, alignment: alignment)
        case .entry(let key, let value): Self.fixedSize(of: [key, value], alignment: alignment)
        }
    }

    private static func fixedSize(of members: [VariantType], alignment: Int) -> Int? {
        if members.isEmpty { return 1 }
        var size = 0
        for member in members {
            guard let memberSize = member.fixedSize else { return nil }
            size = aligned(size, member.alignment) + memberSize
        }
        return aligned(size, alignment)
    }

    static func aligned(_ offset: Int, _ alignment: Int) -> Int { (offset + alignment - 1) & ~(alignment - 1) }
}
