/// One property-list value: the nine types a domain can hold.
///
/// Equality is exact: reals compare by bit pattern (so `-0.0 != 0.0` and a NaN equals
/// itself) and strings by their UTF-8 bytes, which is what a round trip must preserve.
///
///     PlistValue.int(5) == .int(PlistInteger(5))   //=> true
public enum PlistValue: Sendable {
    case bool(Bool)
    case int(PlistInteger)
    case float(Float)
    case double(Double)
    case string(String)
    case data([UInt8])
    case date(PlistDate)
    case array([PlistValue])
    case dict(PlistDictionary)
}

extension PlistValue {
    /// An integer from an `Int64`: `.int(5)`.
    public static func int(_ value: Int64) -> PlistValue { .int(PlistInteger(value)) }
}

extension PlistValue: Equatable {
    /// Equal values of equal types: reals by bit pattern (so NaN equals NaN), dictionaries
    /// key for key in any order, and `1` never equals `1.0`.
    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.float(a), .float(b)): return a.bitPattern == b.bitPattern
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): return sameKey(a, b)  // bytes, eight at a time
        case let (.data(a), .data(b)): return a == b
        case let (.date(a), .date(b)): return a.secondsSince2001.bitPattern == b.secondsSince2001.bitPattern
        case let (.array(a), .array(b)): return a == b
        case let (.dict(a), .dict(b)): return a == b
        default: return false
        }
    }
}

extension PlistValue: Hashable {
    /// Hashes what `==` compares: the type, reals' and dates' bit patterns, strings' UTF-8
    /// bytes, and a dictionary's entries in key order (so equal dictionaries in any order
    /// hash alike). A `Set<PlistValue>` is Defaults' set of `AnySerializable`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .bool(let value): hasher.combine(0); hasher.combine(value)
        case .int(let value): hasher.combine(1); hasher.combine(value)
        case .float(let value): hasher.combine(2); hasher.combine(value.bitPattern)
        case .double(let value): hasher.combine(3); hasher.combine(value.bitPattern)
        case .string(let value):
            hasher.combine(4)
            hasher.combine(value.utf8.count)
            for byte in value.utf8 { hasher.combine(byte) }
        case .data(let value): hasher.combine(5); hasher.combine(value)
        case .date(let value): hasher.combine(6); hasher.combine(value.secondsSince2001.bitPattern)
        case .array(let values): hasher.combine(7); hasher.combine(values)
        case .dict(let values):
            hasher.combine(8)
            let entries = values.sortedEntries
            hasher.combine(entries.count)
            for entry in entries {
                PlistValue.string(entry.key).hash(into: &hasher)
                entry.value.hash(into: &hasher)
            }
        }
    }
}

/// Literals for values, so tests and callers can write `["volume": 50, "name": "x"]`.
extension PlistValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(PlistInteger(value)) }
    /// A real literal, stored as a double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal: `[1, "a"]`.
    public init(arrayLiteral elements: PlistValue...) { self = .array(elements) }
    /// A dictionary literal: `["k": 1]`.
    public init(dictionaryLiteral elements: (String, PlistValue)...) {
        self = .dict(PlistDictionary(entries: elements.map { .init(key: $0.0, value: $0.1) }))
    }
}

/// The deepest nesting any reader accepts, and so the deepest a value may be stored or a
/// path may reach; each level costs a reader a stack frame.
package let maximumNestingDepth = 512
