/// GVariant's text form, read: what a user types for a desktop key (`[('xkb', 'us')]`,
/// `uint32 300`, `@as []`), and what `dconf dump` prints. With the key's type known, the
/// text is read as that type; without one (a raw dconf path), the type is the one the
/// text implies, as GLib infers it (`5` an int32, `5.0` a double, `['a']` an `as`).
package enum VariantParser {
    /// Why a text is not a value of the type asked for, in words for the user.
    package struct Failure: Error, Equatable {
        package let message: String
        init(_ message: String) { self.message = message }
    }

    /// The value `text` spells, of `type` when it is given.
    package static func parse(_ text: String, as type: VariantType?) throws(Failure) -> Variant {
        var reader = Reader(bytes: Array(text.utf8))
        let node = try reader.node(depth: 0)
        reader.skipSpace()
        guard reader.i == reader.bytes.count else { throw Failure("unexpected text after the value: \(reader.rest)") }
        let inferred = type == nil ? try node.inferred() : nil
        guard let type = type ?? inferred else {
            throw Failure("cannot tell the type of \(text); annotate it, as @as [] or uint32 5")
        }
        return try node.value(as: type, depth: 0)
    }

    indirect enum Node {
        case boolean(Bool)
        case number(String)
        case string([UInt8])
        case bytestring([UInt8])
        case list([Node])
        case tuple([Node])
        case dict([(Node, Node)])
        case entry(Node, Node)
        case boxed(Node)
        case just(Node)
        case nothing
        case typed(VariantType, Node)
    }

    private static let keywordTypes: [String: VariantType] = [
        "boolean": .boolean, "byte": .basic(UInt8(ascii: "y")), "int16": .basic(UInt8(ascii: "n")),
        "uint16": .basic(UInt8(ascii: "q")), "int32": .int32, "uint32": .basic(UInt8(ascii: "u")),
        "handle": .basic(UInt8(ascii: "h")), "int64": .basic(UInt8(ascii: "x")), "uint64": .basic(UInt8(ascii: "t")),
        "double": .double, "string": .string, "objectpath": .basic(UInt8(ascii: "o")),
        "signature": .basic(UInt8(ascii: "g")),
    ]

    struct Reader {
        let bytes: [UInt8]
        var i = 0

        var rest: String { String(decoding: bytes[i...].prefix(40), as: UTF8.self) }

        mutating func skipSpace() {
            while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 }
        }

        mutating func take(_ c: Character) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }

        mutating func expect(_ c: Character) throws(Failure) {
            guard take(c) else { throw Failure("expected \(c) at \(i < bytes.count ? rest : "the end")") }
        }

        /// A word of letters, digits, `_`, `.`, `+`, `-` (numbers and keywords).
        mutating func word() -> String {
            let start = i
            while i < bytes.count,
                bytes[i] >= 0x80 || Self.wordBytes.contains(bytes[i])
            {
                i += 1
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }
        static let wordBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-".utf8)

        mutating func node(depth: Int) throws(Failure) -> Node {
            guard depth < VariantType.maximumDepth else { throw Failure("the value is nested too deep") }
            skipSpace()
            guard i < bytes.count else { throw Failure("a value is missing at the end") }
            switch bytes[i] {
            case UInt8(ascii: "["):
                i += 1
                return .list(try items(until: "]", depth: depth))
            case UInt8(ascii: "("):
                i += 1
                var members: [Node] = []
                if take(")") { return .tuple([]) }
                repeat {
                    if take(")") { return .tuple(members) }  // `(1,)`
                    members.append(try node(depth: depth + 1))
                } while take(",")
                try expect(")")
                return .tuple(members)
            case UInt8(ascii: "{"):
                i += 1
                if take("}") { return .dict([]) }
                let key = try node(depth: depth + 1)
                if take(",") {
                    let value = try node(depth: depth + 1)
                    try expect("}")
                    return .entry(key, value)
                }
                try expect(":")
                var pairs = [(key, try node(depth: depth + 1))]
                while take(",") {
                    let k = try node(depth: depth + 1)
                    try expect(":")
                    pairs.append((k, try node(depth: depth + 1)))
                }
                try expect("}")
                return .dict(pairs)
            case UInt8(ascii: "<"):
                i += 1
                let inner = try node(depth: depth + 1)
                try expect(">")
                return .boxed(inner)
            case UInt8(ascii: "@"):
                i += 1
                var end = i
                guard let type = VariantType.parse(bytes, &end, depth: 0) else {
                    throw Failure("@ is not followed by a type at \(rest)")
                }
                i = end
                return .typed(type, try node(depth: depth + 1))
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                return .string(try quoted(bytestring: false))
            case UInt8(ascii: "b")
            where i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "'") || bytes[i + 1] == UInt8(ascii: "\"")):
                i += 1
                return .bytestring(try quoted(bytestring: true))
            default:
                let start = i
                let w = word()
                switch w {
                case "": throw Failure("unexpected \(rest)")
                case "true": return .boolean(true)
                case "false": return .boolean(false)
                case "nothing": return .nothing
                case "just": return .just(try node(depth: depth + 1))
                default:
                    if let type = keywordTypes[w] { return .typed(type, try node(depth: depth + 1)) }
                    guard let first = w.utf8.first,
                        first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                            || (48...57).contains(first) || w == "inf" || w == "nan"
                    else {
                        i = start
                        throw Failure("unknown word \(w); a string is written in quotes, as '\(w)'")
                    }
                    return .number(w)
                }
            }
        }

        mutating func items(until close: Character, depth: Int) throws(Failure) -> [Node] {
            var items: [Node] = []
            if take(close) { return items }
            repeat { items.append(try node(depth: depth + 1)) } while take(",")
            try expect(close)
            return items
        }

        /// A quoted string from its opening quote: `\n`, `\t`, `\uXXXX`, `\UXXXXXXXX` and
        /// the like, and in a bytestring octal `\ooo` too.
        mutating func quoted(bytestring: Bool) throws(Failure) -> [UInt8] {
            let quote = bytes[i]
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw Failure("a string without its closing quote") }
                let c = bytes[i]
                i += 1
                if c == quote { return out }
                guard c == UInt8(ascii: "\\") else {
                    out.append(c)
                    continue
                }
                guard i < bytes.count else { throw Failure("a string ends in a lone \\") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "a"): out.append(7)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "v"): out.append(11)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let count = e == UInt8(ascii: "u") ? 4 : 8
                    guard i + count <= bytes.count,
                        let n = UInt32(String(decoding: bytes[i..<(i + count)], as: UTF8.self), radix: 16),
                        let scalar = UnicodeScalar(n)
                    else { throw Failure("a \\\(UnicodeScalar(e)) escape needs \(count) hex digits of a character") }
                    i += count
                    out += Array(String(scalar).utf8)
                case UInt8(ascii: "0")...UInt8(ascii: "7") where bytestring:
                    var n = Int(e - 48), digits = 1
                    while digits < 3, i < bytes.count, (48...55).contains(bytes[i]) {
                        n = n * 8 + Int(bytes[i] - 48)
                        i += 1
                        digits += 1
                    }
                    guard n < 256 else { throw Failure("an octal escape past \\377") }
                    out.append(UInt8(n))
                default: out.append(e)
                }
            }
        }
    }
}

extension VariantParser.Node {
    typealias Failure = VariantParser.Failure

    /// The type the text implies, as GLib infers it; nil when it cannot say (`[]`, `nothing`).
    func inferred() throws(Failure) -> VariantType? {
        switch self {
        case .boolean: return .boolean
        case .number(let text):
            let isReal = text.contains(where: { ".eE".contains($0) }) || text.hasSuffix("inf") || text.hasSuffix("nan")
            return isReal && !text.lowercased().hasPrefix("0x") && !text.lowercased().hasPrefix("-0x")
                ? .double : .int32
        case .string: return .string
        case .bytestring: return .bytes
        case .list(let items):
            for item in items { if let t = try item.inferred() { return .array(t) } }
            return nil
        case .tuple(let members):
            var types: [VariantType] = []
            for member in members {
                guard let t = try member.inferred() else { return nil }
                types.append(t)
            }
            return .tuple(types)
        case .dict(let pairs):
            for (k, v) in pairs {
                if let kt = try k.inferred(), let vt = try v.inferred() { return .array(.entry(kt, vt)) }
            }
            return nil
        case .entry(let k, let v):
            guard let kt = try k.inferred(), let vt = try v.inferred() else { return nil }
            return .entry(kt, vt)
        case .boxed: return .variant
        case .just(let inner): return try inner.inferred().map(VariantType.maybe)
        case .nothing: return nil
        case .typed(let type, _): return type
        }
    }

    /// The value of `type` this text spells, or why not.
    func value(as type: VariantType, depth: Int) throws(Failure) -> Variant {
        guard depth < VariantType.maximumDepth else { throw Failure("the value is nested too deep") }
        if case .typed(let annotated, let inner) = self {
            guard annotated == type else {
                throw Failure("\(annotated.phrase) is given where \(type.phrase) is wanted")
            }
            return try inner.value(as: type, depth: depth + 1)
        }
        switch (type, self) {
        case (.maybe(let element), .nothing): return .maybe(element, nil)
        case (.maybe(let element), .just(let inner)):
            return .maybe(element, try inner.value(as: element, depth: depth + 1))
        case (.maybe(let element), _): return .maybe(element, try value(as: element, depth: depth + 1))
        case (.variant, .boxed(let inner)):
            guard let innerType = try inner.inferred() else { throw Failure("cannot tell the type inside < >") }
            return .boxed(try inner.value(as: innerType, depth: depth + 1))
        case (.basic(let c), _): return try basic(c)
        case (.array(.basic(UInt8(ascii: "y"))), .bytestring(let bytes)):
            return .array(.basic(UInt8(ascii: "y")), (bytes + [0]).map { .unsigned(UInt64($0), UInt8(ascii: "y")) })
        case (.array(let element), .list(let items)):
            var values: [Variant] = []
            for item in items { values.append(try item.value(as: element, depth: depth + 1)) }
            return .array(element, values)
        case (.array(.entry(let k, let v)), .dict(let pairs)):
            var values: [Variant] = []
            for (key, value) in pairs {
                values.append(.entry(try key.value(as: k, depth: depth + 1), try value.value(as: v, depth: depth + 1)))
            }
            return .array(.entry(k, v), values)
        case (.tuple(let types), .tuple(let members)):
            guard types.count == members.count else {
                throw Failure("\(members.count) values in parentheses where \(type.phrase) has \(types.count)")
            }
            var values: [Variant] = []
            for (member, memberType) in zip(members, types) {
                values.append(try member.value(as: memberType, depth: depth + 1))
            }
            return .tuple(values)
        case (.entry(let k, let v), .entry(let key, let value)):
            return .entry(try key.value(as: k, depth: depth + 1), try value.value(as: v, depth: depth + 1))
        default:
            throw Failure("not \(type.phrase)")
        }
    }

    private func basic(_ c: UInt8) throws(Failure) -> Variant {
        if case .string(let bytes) = self, bytes.contains(0) {
            throw Failure("a string with a NUL character, which GVariant cannot hold")
        }
        switch (c, self) {
        case (UInt8(ascii: "b"), .boolean(let b)): return .bool(b)
        case (UInt8(ascii: "d"), .number(let text)):
            guard let d = VariantParser.real(text) else { throw Failure("\(text) is not a number") }
            return .double(d)
        case (UInt8(ascii: "s"), .string(let bytes)): return .string(bytes, c)
        case (UInt8(ascii: "o"), .string(let bytes)):
            guard VariantParser.isObjectPath(bytes) else {
                throw Failure("'\(String(decoding: bytes, as: UTF8.self))' is not an object path")
            }
            return .string(bytes, c)
        case (UInt8(ascii: "g"), .string(let bytes)):
            var i = 0
            while i < bytes.count {
                guard VariantType.parse(bytes, &i, depth: 0) != nil else { throw Failure("not a type signature") }
            }
            return .string(bytes, c)
        case (_, .number(let text)):
            guard let range = VariantParser.integerRanges[c] else { break }
            guard let n = VariantParser.integer(text) else {
                throw Failure("\(text) is not a whole number")
            }
            guard range.contains(n) else {
                throw Failure(
                    "\(text) is out of range for \(VariantParser.typeWords[c] ?? "") (\(range.lowerBound) to \(range.upperBound))"
                )
            }
            return [UInt8(ascii: "n"), UInt8(ascii: "i"), UInt8(ascii: "x"), UInt8(ascii: "h")].contains(c)
                ? .signed(Int64(n), c) : .unsigned(UInt64(n), c)
        default: break
        }
        throw Failure("not \(VariantType.basic(c).phrase)")
    }
}

extension VariantParser {
    static let typeWords: [UInt8: String] = [
        UInt8(ascii: "y"): "byte", UInt8(ascii: "n"): "int16", UInt8(ascii: "q"): "uint16",
        UInt8(ascii: "i"): "int32", UInt8(ascii: "u"): "uint32", UInt8(ascii: "x"): "int64",
        UInt8(ascii: "t"): "uint64", UInt8(ascii: "h"): "handle",
    ]

    static let integerRanges: [UInt8: ClosedRange<Int128>] = [
        UInt8(ascii: "y"): 0...255, UInt8(ascii: "n"): -32768...32767, UInt8(ascii: "q"): 0...65535,
        UInt8(ascii: "i"): Int128(Int32.min)...Int128(Int32.max),
        UInt8(ascii: "h"): Int128(Int32.min)...Int128(Int32.max),
        UInt8(ascii: "u"): 0...Int128(UInt32.max), UInt8(ascii: "x"): Int128(Int64.min)...Int128(Int64.max),
        UInt8(ascii: "t"): 0...Int128(UInt64.max),
    ]

    /// A whole number: decimal, `0x` hex or `0` octal, with a sign.
    static func integer(_ text: String) -> Int128? {
        var body = Substring(text), negative = false
        if body.hasPrefix("-") || body.hasPrefix("+") {
            negative = body.hasPrefix("-")
            body = body.dropFirst()
        }
        var radix = 10
        if body.lowercased().hasPrefix("0x") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.count > 1, body.hasPrefix("0") {
            radix = 8
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.count <= 40, let n = Int128(body, radix: radix) else { return nil }
        return negative ? -n : n
    }

    /// A real: decimal, with an exponent, `inf` or `nan`.
    static func real(_ text: String) -> Double? {
        if let n = integer(text), !text.contains(where: { ".eE".contains($0) }) || text.lowercased().contains("x") {
            return Double(n)
        }
        // GLib refuses what a double cannot hold: past its range, or below its smallest
        // normal value.
        guard let d = Double(text), d.isNaN || d.isInfinite == text.hasSuffix("inf"), !d.isSubnormal else { return nil }
        return d
    }

    static func isObjectPath(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().allSatisfy {
            part in
            !part.isEmpty
                && part.allSatisfy {
                    Reader.wordBytes.contains($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "+")
                        && $0 != UInt8(ascii: "-")
                }
        }
    }
}
