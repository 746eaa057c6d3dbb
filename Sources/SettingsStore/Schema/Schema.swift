import PlistCodecs
import PlistModel
/// A domain's schema: its keys, each with a type, a default, and the values it allows.
/// One JSON file per domain, read as it is (no compile step), in the project's JSON
/// mapping for values:
///
///     {"domain": "com.example.player", "strict": false, "keys": {
///       "volume": {"type": "integer", "default": 50, "minimum": 0, "maximum": 100},
///       "theme":  {"type": "string", "default": "system", "enum": ["light", "dark", "system"]}}}
///
/// Type names are `read-type`'s words, with `real` for float; the other keywords are
/// spelled as in JSON Schema.
public struct Schema: Sendable {
    /// Keys not in the schema are refused by `write` (unless forced) when true.
    public let strict: Bool
    /// In the order of the file.
    public let keys: [KeySchema]
    /// Each key's place in `keys` (the first, for a name given twice), by its bytes: `apply`
    /// of a big domain asks for the schema of every key it changes.
    private let places: [ExactKey: Int]

    init(strict: Bool, keys: [KeySchema]) {
        (self.strict, self.keys) = (strict, keys)
        var places: [ExactKey: Int] = [:]
        for (place, key) in keys.enumerated() where places[ExactKey(key.name)] == nil {
            places[ExactKey(key.name)] = place
        }
        self.places = places
    }

    /// The schema of the key named `name` (compared as bytes), if the schema has one.
    public func key(_ name: String) -> KeySchema? { places[ExactKey(name)].map { keys[$0] } }

    /// The keys by name, sorted, as `list-keys` prints them.
    public var sortedNames: [String] { keys.map(\.name).sorted(by: byteOrderPrecedes) }
}

/// One key of a schema.
public struct KeySchema: Sendable {
    /// The key's name.
    public let name: String
    /// The type its value must have; nil when any goes.
    public let type: SchemaType?
    /// The value read when the key is not set.
    public let defaultValue: PlistValue?
    /// Inclusive lower bound of a number.
    public let minimum: PlistValue?
    /// Inclusive upper bound of a number.
    public let maximum: PlistValue?
    /// The only values allowed (`enum`).
    public let choices: [PlistValue]?
    /// What each element of an array must be; empty when anything goes.
    let itemSchemas: [KeySchema]
    /// A one-line summary.
    public let summary: String?
    /// A longer description.
    public let description: String?
    /// Whether `settings sync` carries the key to other machines (`"sync": false` keeps
    /// it on each machine: a window position, a device path).
    public var syncs = true

    /// What each element of an array value must be; nil when anything goes.
    public var items: KeySchema? { itemSchemas.first }
}

/// The types a schema names: `read-type`'s words, `real` for both real widths.
public enum SchemaType: String, Sendable, CaseIterable {
    case boolean, integer, real, string, data, date, array, dictionary

    init?(word: String) {
        if word == "float" || word == "double" { self = .real } else { self.init(rawValue: word) }
    }

    /// Whether `value` is of this type: the type table's schema word says.
    public func matches(_ value: PlistValue) -> Bool { TypeTable.row(for: value).schemaWord == rawValue }

    /// The row that reads command-line text as this type; nil for collections.
    package var row: TypeRow? {
        switch self {
        case .boolean: TypeTable.row(for: .bool)
        case .integer: TypeTable.row(for: .int)
        case .real: TypeTable.row(for: .double)
        case .string: TypeTable.row(for: .string)
        case .data: TypeTable.row(for: .data)
        case .date: TypeTable.row(for: .date)
        case .array, .dictionary: nil
        }
    }

    package var phrase: String { TypeTable.phrase(rawValue) }
}

/// Why a schema file was not used; the caller warns and goes on without it. The code
/// says what is wrong, the pointer where in the file ("" for the whole file).
public struct SchemaError: Error, Sendable, Equatable {
    /// The schema file.
    public let path: String
    /// The JSON Pointer of the fault in the file; "" for the whole file.
    public let pointer: String
    /// What is wrong.
    public let code: Code

    /// A fault `code` in the schema file at `path`, at `pointer` inside it.
    public init(path: String, pointer: String = "", _ code: Code) {
        self.path = path
        self.pointer = pointer
        self.code = code
    }

    /// What can be wrong with a schema file.
    public enum Code: Sendable, Equatable {
        case unreadable(Errno)
        case notAFile(FileKind)
        case json(JSONError)
        case topLevelNotObject
        case strictNotBoolean
        /// A key's `sync` is not a boolean.
        case syncNotBoolean
        case keysNotObject
        case keyNotObject
        case unknownType
        case notANumber(field: String)
        case notText(field: String)
        case enumNotArray
        case enumEmpty
        case defaultNotAllowed(SchemaViolation)

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case let .unreadable(errno): errno.message
            case let .notAFile(kind): "it is \(kind.phrase), not a regular file"
            case let .json(error): error.message
            case .topLevelNotObject: "the top level is not an object"
            case .strictNotBoolean: "\"strict\" must be true or false"
            case .syncNotBoolean: "\"sync\" must be true or false"
            case .keysNotObject: "\"keys\" must be an object of keys"
            case .keyNotObject: "a key's schema must be an object"
            case .unknownType: "\"type\" must be one of \(SchemaType.allCases.map(\.rawValue).joined(separator: ", "))"
            case let .notANumber(field): "\"\(field)\" must be a number"
            case let .notText(field): "\"\(field)\" must be text"
            case .enumNotArray: "\"enum\" must be an array"
            case .enumEmpty: "\"enum\" must not be empty"
            case let .defaultNotAllowed(violation): "the default is not allowed: \(violation.message)"
            }
        }
    }

    /// One line for a user.
    public var message: String {
        "ignoring the schema \(path): \(pointer.isEmpty ? "" : pointer + ": ")\(code.message)"
    }
}

/// Why a value is not allowed for a key: the constraint it breaks, with what is allowed.
public indirect enum SchemaViolation: Sendable, Equatable {
    case type(PlistValue, expected: SchemaType)
    case choice(PlistValue, choices: [PlistValue])
    case range(PlistValue, minimum: PlistValue?, maximum: PlistValue?)
    case element(Int, SchemaViolation)

    ///     SchemaViolation.range(.int(101), minimum: .int(0), maximum: .int(100)).message
    ///     //=> "101 is not in 0…100"
    public var message: String {
        switch self {
        case let .type(value, expected):
            "\(KeySchema.show(value)) is \(TypeTable.row(for: value).phrase), not \(expected.phrase)"
        case let .choice(value, choices):
            "\(KeySchema.show(value)) is not one of \(choices.map { KeySchema.text($0) }.joined(separator: ", "))"
        case let .range(value, low, high):
            "\(KeySchema.show(value)) is not in \(low.map(KeySchema.text) ?? "")…\(high.map(KeySchema.text) ?? "")"
        case let .element(i, problem): "element \(i): \(problem.message)"
        }
    }
}

extension Schema {
    /// Reads a schema file's JSON. Every fault names where it is.
    public static func parse(_ bytes: [UInt8], path: String) throws(SchemaError) -> Schema {
        let root: PlistValue
        do { root = try JSONReader.read(bytes) } catch { throw SchemaError(path: path, .json(error)) }
        guard case .dict(let top) = root else { throw SchemaError(path: path, .topLevelNotObject) }
        var strict = false
        if let value = top["strict"] {
            guard case .bool(let b) = value else {
                throw SchemaError(path: path, pointer: "/strict", .strictNotBoolean)
            }
            strict = b
        }
        guard case .dict(let keys)? = top["keys"] else {
            throw SchemaError(path: path, pointer: "/keys", .keysNotObject)
        }
        var parsed: [KeySchema] = []
        for entry in keys.uniqueEntries {
            parsed.append(
                try key(
                    entry.key, entry.value, path: path, at: "/keys/" + PlistKeyPath([entry.key]).pointer.dropFirst()))
        }
        return Schema(strict: strict, keys: parsed)
    }

    private static func key(_ name: String, _ value: PlistValue, path: String, at pointer: String) throws(SchemaError)
        -> KeySchema
    {
        func fail(_ code: SchemaError.Code) -> SchemaError { SchemaError(path: path, pointer: pointer, code) }
        guard case .dict(let spec) = value else { throw fail(.keyNotObject) }
        var type: SchemaType?
        if let word = spec["type"] {
            guard case .string(let text) = word, let t = SchemaType(word: text) else { throw fail(.unknownType) }
            type = t
        }
        func number(_ field: String) throws(SchemaError) -> PlistValue? {
            guard let v = spec[field] else { return nil }
            switch v {
            case .int, .double: return v
            default: throw fail(.notANumber(field: field))
            }
        }
        func text(_ field: String) throws(SchemaError) -> String? {
            guard let v = spec[field] else { return nil }
            guard case .string(let s) = v else { throw fail(.notText(field: field)) }
            return s
        }
        var choices: [PlistValue]?
        if let v = spec["enum"] {
            guard case .array(let items) = v else { throw fail(.enumNotArray) }
            guard !items.isEmpty else { throw fail(.enumEmpty) }
            choices = items
        }
        var items: [KeySchema] = []
        if let v = spec["items"] { items = [try key(name, v, path: path, at: pointer + "/items")] }
        var schema = KeySchema(
            name: name, type: type, defaultValue: spec["default"], minimum: try number("minimum"),
            maximum: try number("maximum"), choices: choices, itemSchemas: items,
            summary: try text("summary"), description: try text("description"))
        if let value = spec["sync"] {
            guard case .bool(let syncs) = value else { throw fail(.syncNotBoolean) }
            schema.syncs = syncs
        }
        if let d = schema.defaultValue, let problem = schema.violation(d) { throw fail(.defaultNotAllowed(problem)) }
        return schema
    }
}

extension KeySchema {
    /// Why `value` is not allowed for this key, naming the constraint and what is
    /// allowed; nil when it is.
    ///
    ///     volume.violation(.int(101))?.message   //=> "101 is not in 0…100"
    public func violation(_ value: PlistValue) -> SchemaViolation? {
        if let type, !type.matches(value) { return .type(value, expected: type) }
        if let choices, !choices.contains(value) { return .choice(value, choices: choices) }
        if minimum != nil || maximum != nil, Self.number(value) != nil {
            // Exact comparisons: NaN is in no range, and 2^53+1 is above 2^53.
            let belowLow = minimum.map { Self.compare(value, $0).map { $0 < 0 } ?? true } ?? false
            let aboveHigh = maximum.map { Self.compare(value, $0).map { $0 > 0 } ?? true } ?? false
            if belowLow || aboveHigh { return .range(value, minimum: minimum, maximum: maximum) }
        }
        if let items, case .array(let elements) = value {
            for (i, element) in elements.enumerated() {
                if let problem = items.violation(element) { return .element(i, problem) }
            }
        }
        return nil
    }

    /// -1, 0 or 1 as the number `a` is below, equal to or above the number `b`, exactly
    /// (integers are not rounded to doubles); nil when either is NaN or not a number.
    static func compare(_ a: PlistValue, _ b: PlistValue) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return compare(x, y)
        case let (.int(x), _): return number(b).flatMap { compare(x, $0) }
        case let (_, .int(y)): return number(a).flatMap { compare(y, $0) }.map { -$0 }
        default:
            guard let x = number(a), let y = number(b), !x.isNaN, !y.isNaN else { return nil }
            return x < y ? -1 : x > y ? 1 : 0
        }
    }

    private static func compare(_ x: PlistInteger, _ y: PlistInteger) -> Int {
        switch (x.int64, y.int64) {
        case let (a?, b?): return a < b ? -1 : a > b ? 1 : 0
        case (let a?, nil): return a < 0 ? -1 : compare(UInt64(a), y.bitPattern)
        case (nil, let b?): return b < 0 ? 1 : compare(x.bitPattern, UInt64(b))
        case (nil, nil): return compare(x.bitPattern, y.bitPattern)
        }
    }

    private static func compare(_ a: UInt64, _ b: UInt64) -> Int { a < b ? -1 : a > b ? 1 : 0 }

    /// An integer against a real, without rounding the integer: through the real's floor.
    private static func compare(_ x: PlistInteger, _ real: Double) -> Int? {
        guard !real.isNaN else { return nil }
        let floor = real.rounded(.down)
        if floor >= 18_446_744_073_709_551_616.0 { return -1 }
        if floor < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = floor >= 0 ? PlistInteger(unsigned: UInt64(floor)) : PlistInteger(Int64(floor))
        let order = compare(x, whole)
        return order != 0 ? order : real > floor ? -1 : 0
    }

    static func number(_ value: PlistValue) -> Double? {
        switch value {
        case .int(let i): i.doubleValue
        case .double(let d): d
        case .float(let f): Double(f)
        default: nil
        }
    }

    /// A value as `read` prints it, on one line.
    package static func text(_ value: PlistValue) -> String {
        String(decoding: DefaultsPrinter.renderLine(value), as: UTF8.self)
    }

    /// A value in a message: text quoted, numbers bare.
    static func show(_ value: PlistValue) -> String {
        if case .string(let s) = value { return "'\(s)'" }
        return text(value)
    }
}
