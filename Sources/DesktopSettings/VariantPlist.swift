import PlistCodecs
import PlistModel

/// Desktop values in the value model, so every verb, JSON and state file takes them as
/// they take a property list's. A GVariant type with a property-list twin maps onto it:
/// `b` a bool, the integers an integer, `d` a real, `s` `o` `g` a string, `ay` data, an
/// array an array, `a{s…}` a dictionary, and (where the schema says the type) a tuple an
/// array. A value without one (a `nothing`, a dictionary keyed by numbers, or any value
/// whose type its form would not tell where no schema does) is `{"$gvariant": TEXT}`, its
/// GVariant text: nothing is lost either way.
extension Variant {
    /// The value model's form. `typed`: a schema gives the type back, so tuples are arrays
    /// and a `uint32` a plain integer; without one, only what reads back as the same value.
    package func plistValue(typed: Bool) -> PlistValue {
        if !typed {
            let plain = plistValue(typed: true)
            if (try? Variant.natural(plain)) == self { return plain }
            return Self.tagged(self)
        }
        switch self {
        case .bool(let b): return .bool(b)
        case .signed(let n, _): return .int(PlistInteger(n))
        case .unsigned(let n, _): return .int(PlistInteger(unsigned: n))
        case .double(let d): return .double(d)
        case .string(let bytes, _): return .string(String(decoding: bytes, as: UTF8.self))
        case .boxed(let inner): return inner.plistValue(typed: false)
        case .maybe(_, let inner?):
            if case .maybe = inner { return Self.tagged(self) }
            return inner.plistValue(typed: true)
        case .maybe(_, nil), .entry: return Self.tagged(self)
        case .array(.basic(UInt8(ascii: "y")), let items):
            return .data(items.map { if case .unsigned(let n, _) = $0 { UInt8(truncatingIfNeeded: n) } else { 0 } })
        case .array(.entry(.basic(let k), _), let items)
        where [UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g")].contains(k):
            var dict = PlistDictionary()
            for case .entry(let key, let value) in items { dict[key.text ?? ""] = value.plistValue(typed: true) }
            // A key twice (possible in GVariant, not in a dictionary) keeps the text whole.
            return dict.count == items.count ? .dict(dict) : Self.tagged(self)
        case .array(.entry, _): return Self.tagged(self)
        case .array(_, let items), .tuple(let items): return .array(items.map { $0.plistValue(typed: true) })
        }
    }

    static func tagged(_ value: Variant) -> PlistValue {
        .dict([PlistDictionary.gvariantTag: .string(value.gvariantText)])
    }

    /// The text of a `{"$gvariant": TEXT}`, or nil for any other value.
    static func tagText(_ value: PlistValue) -> String? {
        guard case .dict(let dict) = value, dict.count == 1, case .string(let text)? = dict[PlistDictionary.gvariantTag]
        else {
            return nil
        }
        return text
    }

    /// A value of `type` when one is known (a schema's, or the value a key holds), else of
    /// the type its form implies (`natural`).
    package static func from(_ value: PlistValue, as type: VariantType?) throws(VariantParser.Failure) -> Variant {
        guard let type else { return try natural(value) }
        return try from(value, as: type)
    }

    /// A value of `type` from the value model's form: a plain value converted and checked
    /// (an integer out of the type's range is refused), a `$gvariant` tag read as text.
    package static func from(_ value: PlistValue, as type: VariantType) throws(VariantParser.Failure) -> Variant {
        if let text = tagText(value) {
            // A `v` holds a value of any type: its text says which.
            return type == .variant
                ? .boxed(try VariantParser.parse(text, as: nil)) : try VariantParser.parse(text, as: type)
        }
        switch (type, value) {
        case (.maybe(let element), _): return .maybe(element, try from(value, as: element))
        case (.variant, _): return .boxed(try natural(value))
        case (.basic(UInt8(ascii: "b")), .bool(let b)): return .bool(b)
        case (.basic(UInt8(ascii: "d")), .double(let d)): return .double(d)
        case (.basic(UInt8(ascii: "d")), .float(let f)): return .double(Double(f))
        case (.basic(UInt8(ascii: "d")), .int(let n)): return .double(n.doubleValue)
        case (.basic(let c), .int(let n)) where VariantParser.integerRanges[c] != nil:
            let text = n.isUnsigned ? String(n.bitPattern) : String(Int64(bitPattern: n.bitPattern))
            return try VariantParser.Node.number(text).value(as: type, depth: 0)
        case (.basic(let c), .string(let s))
        where [UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g")].contains(c):
            return try VariantParser.Node.string(Array(s.utf8)).value(as: type, depth: 0)
        case (.array(.basic(UInt8(ascii: "y"))), .data(let bytes)):
            return .array(.basic(UInt8(ascii: "y")), bytes.map { .unsigned(UInt64($0), UInt8(ascii: "y")) })
        case (.array(.entry(let k, let v)), .dict(let dict)):
            var items: [Variant] = []
            for entry in dict.entries {
                items.append(.entry(try from(.string(entry.key), as: k), try from(entry.value, as: v)))
            }
            return .array(.entry(k, v), items)
        case (.array(let element), .array(let values)):
            var items: [Variant] = []
            for value in values { items.append(try from(value, as: element)) }
            return .array(element, items)
        case (.tuple(let types), .array(let values)):
            guard types.count == values.count else {
                throw VariantParser.Failure("\(values.count) values where \(type.phrase) has \(types.count)")
            }
            var items: [Variant] = []
            for (value, memberType) in zip(values, types) { items.append(try from(value, as: memberType)) }
            return .tuple(items)
        default: break
        }
        let given = TypeTable.row(for: value.type).word
        throw VariantParser.Failure("\(given == "data" ? "data" : TypeTable.phrase(given)) is not \(type.phrase)")
    }

    /// The value a plain value-model value is when no schema gives its type, as GLib would
    /// infer it from its text: a bool `b`, an integer `i` (`x` past 32 bits, `t` past 63),
    /// a real `d`, a string `s`, data `ay`, an array of its elements' one type (`av` when
    /// they differ, `as` when empty), a dictionary `a{sT}` (`a{sv}` when values differ).
    package static func natural(_ value: PlistValue) throws(VariantParser.Failure) -> Variant {
        if let text = tagText(value) { return try VariantParser.parse(text, as: nil) }
        switch value {
        case .bool(let b): return .bool(b)
        case .int(let n):
            if n.isUnsigned { return .unsigned(n.bitPattern, UInt8(ascii: "t")) }
            let v = Int64(bitPattern: n.bitPattern)
            return Int32(exactly: v) != nil ? .signed(v, UInt8(ascii: "i")) : .signed(v, UInt8(ascii: "x"))
        case .double(let d): return .double(d)
        case .float(let f): return .double(Double(f))
        case .string(let s): return try VariantParser.Node.string(Array(s.utf8)).value(as: .string, depth: 0)
        case .data(let bytes):
            return .array(.basic(UInt8(ascii: "y")), bytes.map { .unsigned(UInt64($0), UInt8(ascii: "y")) })
        case .date: throw VariantParser.Failure("a date has no GVariant type; write it as a string or a number")
        case .array(let values):
            var items: [Variant] = []
            for value in values { items.append(try natural(value)) }
            let types = Set(items.map(\.type))
            if types.count == 1 { return .array(types.first!, items) }
            return items.isEmpty ? .array(.string, []) : .array(.variant, items.map(Variant.boxed))
        case .dict(let dict):
            var pairs: [(Variant, Variant)] = []
            for entry in dict.entries { pairs.append((try natural(.string(entry.key)), try natural(entry.value))) }
            let types = Set(pairs.map(\.1.type))
            let valueType = types.count == 1 ? types.first! : VariantType.variant
            return .array(
                .entry(.string, valueType),
                pairs.map { .entry($0.0, valueType == .variant && $0.1.type != .variant ? .boxed($0.1) : $0.1) })
        }
    }
}

extension VariantType {
    /// In words, for messages: "a string", "a list of (string, string)".
    /// Several values of a basic type, in words (`strings`, `integers (int32)`).
    var plural: String {
        guard case .basic(let c) = self else { return "values of the type \(text)" }
        switch c {
        case UInt8(ascii: "b"): return "booleans"
        case UInt8(ascii: "d"): return "reals"
        case UInt8(ascii: "s"): return "strings"
        case UInt8(ascii: "o"): return "object paths"
        case UInt8(ascii: "g"): return "type signatures"
        default: return "integers (\(VariantParser.typeWords[c] ?? "integer"))"
        }
    }

    package var phrase: String {
        switch self {
        case .basic(let c):
            switch c {
            case UInt8(ascii: "b"): "a boolean"
            case UInt8(ascii: "d"): "a real"
            case UInt8(ascii: "s"): "a string"
            case UInt8(ascii: "o"): "an object path"
            case UInt8(ascii: "g"): "a type signature"
            default: "an integer (\(VariantParser.typeWords[c] ?? "integer"))"
            }
        case .variant: "any value"
        case .maybe(let element): "nothing or " + element.phrase
        case .array(.basic(UInt8(ascii: "y"))): "bytes"
        case .array(.entry(let k, let v)): "a dictionary from \(k.phrase) to \(v.phrase)"
        case .array(.basic(let c)): "a list of " + VariantType.basic(c).plural
        case .array(let element): "a list of \(element.phrase)"
        case .tuple(let members): "(" + members.map(\.phrase).joined(separator: ", ") + ")"
        case .entry(let k, let v): "an entry from \(k.phrase) to \(v.phrase)"
        }
    }
}
