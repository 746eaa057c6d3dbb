import PlistModel

/// A GSettings schema, as its compiled file holds it: its id, the dconf path of a fixed
/// schema (a relocatable one is given its path when named), and its keys, each decoded
/// when asked for: a one-key read decodes one key, not the schema's hundred.
package struct DesktopSchema: Sendable {
    package let id: String
    /// The dconf folder its keys live in, ending in `/`; nil for a relocatable schema.
    package let path: String?
    /// The folder of the compiled file it came from, where its `.gschema.xml` texts are.
    package let folder: String
    private let table: GVDB.Table

    /// A schema from its table in a compiled file.
    init(id: String, table: GVDB.Table, folder: String) throws(DesktopError) {
        self.id = id
        self.table = table
        self.folder = folder
        path = try table.item(Array(".path".utf8))?.value().text
    }

    /// The key named `name`, or nil when the schema has none.
    package func key(_ name: String) throws(DesktopError) -> DesktopKey? {
        let bytes = Array(name.utf8)
        guard Self.isKeyName(bytes) else { return nil }
        do throws(DesktopError) {
            guard let item = try table.item(bytes), item.type == UInt8(ascii: "v") else { return nil }
            return try DesktopKey(name: name, compiled: try item.value())
        } catch {
            throw error.file(folder + "/gschemas.compiled")
        }
    }

    /// Every key's name, in the file's order, none decoded.
    package func keyNames() throws(DesktopError) -> [String] {
        var names: [String] = []
        do throws(DesktopError) {
            for item in table.allItems where item.type == UInt8(ascii: "v") {
                let name = try item.key()
                if Self.isKeyName(name) { names.append(String(decoding: name, as: UTF8.self)) }
            }
            return names
        } catch {
            throw error.file(folder + "/gschemas.compiled")
        }
    }

    /// Every key, sorted by name.
    package func keys() throws(DesktopError) -> [DesktopKey] {
        var keys: [DesktopKey] = []
        do throws(DesktopError) {
            for item in table.allItems where item.type == UInt8(ascii: "v") {
                let name = try item.key()
                guard Self.isKeyName(name) else { continue }
                keys.append(try DesktopKey(name: String(decoding: name, as: UTF8.self), compiled: try item.value()))
            }
        } catch {
            throw error.file(folder + "/gschemas.compiled")
        }
        return keys.sorted { byteOrderPrecedes($0.name, $1.name) }
    }

    /// `.path`, `.gettext-domain`, `.extends`, `.list-of`, and children (`name/`) are not keys.
    private static func isKeyName(_ name: some BidirectionalCollection<UInt8>) -> Bool {
        name.first != UInt8(ascii: ".") && name.last != UInt8(ascii: "/") && !name.isEmpty
    }
}

/// One key of a schema: its type, default and what it allows.
package struct DesktopKey: Sendable {
    package let name: String
    package let type: VariantType
    package let defaultValue: Variant
    package let allowed: Allowed

    /// What a key allows beyond its type.
    package enum Allowed: Sendable, Equatable {
        case any
        /// An `<enum>`: one of these names (a string key).
        case enumeration([String])
        /// `<flags>`: any set of these names (a string-array key).
        case flags([String])
        /// `<choices>`: one of these strings.
        case choices([String])
        /// `<range>`: from the one value to the other, both included.
        case range(Variant, Variant)
    }

    /// From the compiled form: a tuple of the default, then `(code, data)` pairs.
    init(name: String, compiled: Variant) throws(DesktopError) {
        guard case .tuple(let members) = compiled, let first = members.first else {
            throw .corrupt("the key \(name) is not a default and its rules")
        }
        var allowed = Allowed.any
        for member in members.dropFirst() {
            guard case .tuple(let pair) = member, pair.count == 2, case .unsigned(let code, _) = pair[0] else {
                throw .corrupt("the key \(name) has a rule of an unknown shape")
            }
            switch (UInt8(code), pair[1]) {
            case (UInt8(ascii: "e"), .array(_, let words)): allowed = .enumeration(try Self.names(words, name))
            case (UInt8(ascii: "f"), .array(_, let words)): allowed = .flags(try Self.names(words, name))
            case (UInt8(ascii: "c"), .array(_, let words)): allowed = .choices(try Self.names(words, name))
            case (UInt8(ascii: "r"), .tuple(let ends)) where ends.count == 2: allowed = .range(ends[0], ends[1])
            default: continue  // translations (`l`) and per-desktop defaults (`d`) change no rule
            }
        }
        self.name = name
        self.type = first.type
        self.defaultValue = first
        self.allowed = allowed
    }

    /// The names of GLib's "strinfo", in its order: each a 32-bit value, then 0xff (0xfe
    /// for an alias, which is left out), the name, NULs, and 0xff, in whole words.
    private static func names(_ words: [Variant], _ key: String) throws(DesktopError) -> [String] {
        var bytes: [UInt8] = []
        for word in words {
            guard case .unsigned(let n, _) = word else { throw .corrupt("the key \(key) has a bad list of names") }
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: n >> UInt64(shift))) }
        }
        var names: [String] = []
        var i = 0
        while i + 8 <= bytes.count {
            let isAlias = bytes[i + 4] == 0xFE
            guard bytes[i + 4] == 0xFF || isAlias, let nul = bytes[(i + 5)...].firstIndex(of: 0) else {
                throw .corrupt("the key \(key) has a bad list of names")
            }
            let name = String(decoding: bytes[(i + 5)..<nul], as: UTF8.self)
            var end = nul
            while end < bytes.count, bytes[end] == 0 { end += 1 }
            guard end < bytes.count, (end + 1) % 4 == 0, bytes[end] == 0xFF else {
                throw .corrupt("the key \(key) has a bad list of names")
            }
            if !isAlias { names.append(name) }
            i = end + 1
        }
        return names
    }
}

extension DesktopKey {
    /// Why this key does not allow `value`, as GSettings would refuse it, or nil: the
    /// type first, then the choices (each string of a list, the string of a maybe) or
    /// the range.
    package func refusal(_ value: Variant) -> String? {
        guard value.type == type else { return "\(value.gvariantText) is not \(type.phrase)" }
        switch allowed {
        case .any: return nil
        case .enumeration(let names), .flags(let names), .choices(let names):
            for text in Self.strings(in: value) where !names.contains(text) {
                return "'\(text)' is not one of \(names.joined(separator: ", "))"
            }
            return nil
        case .range(let low, let high):
            let inside: Bool
            if let n = Self.integer(value), let lo = Self.integer(low), let hi = Self.integer(high) {
                inside = lo <= n && n <= hi
            } else if let n = Self.number(value), let lo = Self.number(low), let hi = Self.number(high) {
                inside = lo <= n && n <= hi
            } else {
                return nil
            }
            return inside
                ? nil
                : "\(value.gvariantText(annotated: false)) is outside \(low.gvariantText(annotated: false)) to "
                    + high.gvariantText(annotated: false)
        }
    }

    private static func strings(in value: Variant) -> [String] {
        switch value {
        case .string: [value.text!]
        case .array(_, let items): items.flatMap(strings(in:))
        case .maybe(_, let inner?): strings(in: inner)
        default: []
        }
    }

    private static func integer(_ value: Variant) -> Int128? {
        switch value {
        case .signed(let n, _): Int128(n)
        case .unsigned(let n, _): Int128(n)
        case .maybe(_, let inner?): integer(inner)
        default: nil
        }
    }

    private static func number(_ value: Variant) -> Double? {
        switch value {
        case .signed(let n, _): Double(n)
        case .unsigned(let n, _): Double(n)
        case .double(let d): d
        case .maybe(_, let inner?): number(inner)
        default: nil
        }
    }
}

extension DesktopKey {
    /// What `gsettings range` prints: `type T`; `enum` (for choices too) or `flags` and one
    /// quoted name a line; `range T MIN MAX`.
    package var rangeText: String {
        switch allowed {
        case .any: return "type " + type.text
        case .enumeration(let names), .choices(let names):
            return (["enum"] + names.map { Variant.string($0).gvariantText }).joined(separator: "\n")
        case .flags(let names):
            return (["flags"] + names.map { Variant.string($0).gvariantText }).joined(separator: "\n")
        case .range(let low, let high):
            return "range \(type.text) \(low.gvariantText(annotated: false)) \(high.gvariantText(annotated: false))"
        }
    }
}
