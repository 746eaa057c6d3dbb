import PlistModel
/// Reads JSON (RFC 8259) in the project's JSON mapping, the inverse of `JSONWriter`:
/// an integer literal is an integer (`Int64.min` to `UInt64.max`), a number with `.` or
/// an exponent a real, and the one-key objects `{"$date":…}`, `{"$data":…}`,
/// `{"$real":…}` and `{"$dict":{…}}` the values JSON cannot say. A string is only ever
/// a string. `null`, an unknown `$` tag and a number out of range are errors that name
/// the JSON Pointer of the value; syntax errors name the line.
///
///     try JSONReader.read(Array(#"{"n": 1.0, "when": {"$date": "2024-01-02T03:04:05Z"}}"#.utf8))
///     //=> .dict(["n": .double(1), "when": .date(…)])
public enum JSONReader {
    /// The value of JSON text in the project's mapping: objects are dictionaries, integers
    /// stay integers, and the one-key tags `$date`, `$data`, `$real` and `$dict` give the
    /// other types back.
    ///
    ///     try JSONReader.read(Array(#"{"when": {"$date": "2024-01-02T03:04:05Z"}}"#.utf8))
    ///     //=> ["when": .date(…)]
    ///
    /// - Parameter bytes: UTF-8 JSON text, a BOM allowed.
    /// - Throws: `JSONError`: `.syntax` with the line, or `.value` with the JSON Pointer of a value
    ///   the mapping refuses (null, a bad tag).
    public static func read(_ bytes: [UInt8]) throws(JSONError) -> PlistValue {
        try read(bytes, tags: true)
    }

    /// `read`, where a member whose value is `null` is left out of its dictionary and its
    /// keys from the top told to `nulls` (a desired state's "this key must be absent"). A
    /// `null` anywhere else (the root, an array's element) is still refused.
    public static func read(_ bytes: [UInt8], nulls: inout [[String]]) throws(JSONError) -> PlistValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
            var parser = Parser(bytes: buffer, tags: true)
            parser.nulls = []
            let value = try parser.document()
            nulls = parser.nulls ?? []
            return value
        }
    }

    /// `tags: false` reads the text as plain JSON: `{"$date": …}` stays a dictionary.
    package static func read(_ bytes: [UInt8], tags: Bool) throws(JSONError) -> PlistValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
            var parser = Parser(bytes: buffer, tags: tags)
            return try parser.document()
        }
    }

    struct Parser {
        var c: ByteCursor
        /// The keys and indexes down to the value being read, for error messages.
        var path: [String] = []
        /// False to read every object as a plain dictionary.
        let tags: Bool
        /// When not nil, a member set to `null` is left out and its keys kept here.
        var nulls: [[String]]?
        /// A string with escapes, decoded (`stringBytes`).
        let scratch = Scratch()

        init(bytes: UnsafeBufferPointer<UInt8>, tags: Bool = true) {
            c = ByteCursor(bytes)
            self.tags = tags
            // A UTF-8 byte-order mark is allowed before the text, and ignored.
            _ = c.skip("\u{FEFF}")
        }

        mutating func document() throws(JSONError) -> PlistValue {
            let value = try self.value(tags: tags)
            skipSpace()
            guard c.atEnd else { throw syntax(.textAfterValue) }
            return value
        }

        // MARK: Values

        /// `tags`: whether a one-key `$` object is read as a tag (not for `$dict`'s body).
        mutating func value(tags: Bool) throws(JSONError) -> PlistValue {
            guard path.count <= maximumNestingDepth else { throw syntax(.tooDeep(limit: maximumNestingDepth)) }
            skipSpace()
            guard let next = c.peek() else { throw syntax(.unexpectedEnd(expecting: .value)) }
            switch next {
            case UInt8(ascii: "{"): return try object(tags: tags)
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                throw invalid(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw syntax(.unexpected(next, expecting: .value))
            }
        }

        mutating func object(tags: Bool) throws(JSONError) -> PlistValue {
            c.offset += 1
            var dict = PlistDictionary()
            /// `$dict`'s body, kept apart until we know it is the object's only member.
            var wrapped: PlistDictionary?
            skipSpace()
            if c.skip(UInt8(ascii: "}")) { return .dict(dict) }
            while true {
                skipSpace()
                guard let quote = c.peek() else { throw syntax(.unexpectedEnd(expecting: .key)) }
                guard quote == UInt8(ascii: "\"") else { throw syntax(.unexpected(quote, expecting: .key)) }
                let key = try string()
                skipSpace()
                guard let colon = c.pop() else { throw syntax(.unexpectedEnd(expecting: .colon)) }
                guard colon == UInt8(ascii: ":") else {
                    throw syntax(.unexpected(colon, expecting: .colon), at: c.offset - 1)
                }
                path.append(key)
                let isWrapper = self.tags && tags && dict.isEmpty && wrapped == nil && key == "$dict"
                skipSpace()
                if nulls != nil, c.peek() == UInt8(ascii: "n") {
                    try literal("null")
                    nulls!.append(path)
                } else {
                    let value = try self.value(tags: !isWrapper)
                    if isWrapper, case .dict(let body) = value {
                        wrapped = body
                    } else {
                        dict.append(key: key, value: value)
                    }
                }
                path.removeLast()
                skipSpace()
                guard let separator = c.pop() else { throw syntax(.unexpectedEnd(expecting: .memberEnd)) }
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else {
                    throw syntax(.unexpected(separator, expecting: .memberEnd), at: c.offset - 1)
                }
                if let body = wrapped {
                    // Another member follows: `$dict` was an ordinary key after all.
                    path.append("$dict")
                    dict.append(key: "$dict", value: try tagged(body))
                    path.removeLast()
                    wrapped = nil
                }
            }
            if let body = wrapped { return .dict(body) }
            return self.tags && tags ? try tagged(dict) : .dict(dict)
        }

        /// A one-key object whose key starts with `$` is a tag; any other object is a dictionary.
        func tagged(_ dict: PlistDictionary) throws(JSONError) -> PlistValue {
            guard dict.entries.count == 1, let entry = dict.entries.first, entry.key.utf8.first == UInt8(ascii: "$"),
                !PlistDictionary.isGVariantTag(entry)
            else { return .dict(dict) }  // `$gvariant`'s is kept as the dictionary it is
            switch (entry.key, entry.value) {
            case ("$date", .string(let text)):
                guard let date = RFC3339.parse(Array(text.utf8)) else {
                    throw invalid(.notADate(text))
                }
                return try checked(date)
            case ("$date", .double(let seconds)): return try checked(PlistDate(secondsSince2001: seconds))
            case ("$date", .int(let seconds)): return try checked(PlistDate(secondsSince2001: seconds.doubleValue))
            case ("$data", .string(let text)):
                guard let data = Base64.decode(Array(text.utf8)) else { throw invalid(.notBase64) }
                return .data(data)
            case ("$real", .string(let text)):
                switch text {
                case "nan": return .double(.nan)
                case "inf", "+inf": return .double(.infinity)
                case "-inf": return .double(-.infinity)
                default: throw invalid(.notARealWord(text))
                }
            case ("$float", .string(let text)):
                // The journal's 32-bit real (`JSONWriter.append(widths:)`), its shortest digits.
                guard let value = Float(text), text.utf8.allSatisfy({ !(9...13).contains($0) && $0 != 32 }) else {
                    throw invalid(.tagHolds(tag: "$float", .string))
                }
                return .float(value)
            case ("$date", _), ("$data", _), ("$real", _), ("$dict", _), ("$float", _), ("$gvariant", _):
                throw invalid(.tagHolds(tag: entry.key, entry.value.type))
            default:
                throw invalid(.unknownTag(entry.key))
            }
        }

        /// A date from 0000-12-30 (Foundation's `distantPast`) to 9999-12-31, as the readers take it.
        func checked(_ date: PlistDate) throws(JSONError) -> PlistValue {
            guard PlistDate.representable.contains(date.secondsSince2001) else {
                throw invalid(.dateOutOfRange)
            }
            return .date(date)
        }

        mutating func array() throws(JSONError) -> PlistValue {
            c.offset += 1
            var items: [PlistValue] = []
            skipSpace()
            if c.skip(UInt8(ascii: "]")) { return .array(items) }
            while true {
                path.append(String(items.count))
                items.append(try value(tags: self.tags))
                path.removeLast()
                skipSpace()
                guard let separator = c.pop() else { throw syntax(.unexpectedEnd(expecting: .elementEnd)) }
                if separator == UInt8(ascii: "]") { return .array(items) }
                guard separator == UInt8(ascii: ",") else {
                    throw syntax(.unexpected(separator, expecting: .elementEnd), at: c.offset - 1)
                }
            }
        }

        /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`: an integer without `.` or
        /// exponent, else a real.
        mutating func number() throws(JSONError) -> PlistValue {
            let start = c.offset
            _ = c.skip(UInt8(ascii: "-"))
            let leadingZero = c.peek() == UInt8(ascii: "0")
            let whole = c.digits()
            guard whole > 0 else { throw syntax(.numberWithoutDigits) }
            guard !(leadingZero && whole > 1) else { throw syntax(.leadingZero) }
            var isReal = false
            if c.skip(UInt8(ascii: ".")) {
                guard c.digits() > 0 else { throw syntax(.noDigitsAfterPoint) }
                isReal = true
            }
            if c.skip(UInt8(ascii: "e")) || c.skip(UInt8(ascii: "E")) {
                if !c.skip(UInt8(ascii: "+")) { _ = c.skip(UInt8(ascii: "-")) }
                guard c.digits() > 0 else { throw syntax(.noDigitsInExponent) }
                isReal = true
            }
            let text = c.text(from: start)
            if !isReal {
                guard let integer = PlistInteger.parse(text, allowHex: false) else {
                    throw invalid(.integerOutOfRange(String(decoding: text.prefix(40), as: UTF8.self)))
                }
                return .int(integer)
            }
            guard
                let real = DecimalReal.parse(text.span)
                    ?? (text.count < 400 ? Double(String(decoding: text, as: UTF8.self)) : nil),
                real.isFinite
            else {
                throw invalid(.realOutOfRange(String(decoding: text.prefix(40), as: UTF8.self)))
            }
            return .double(real)
        }

        mutating func string() throws(JSONError) -> String { try text(stringBytes().text) }

        /// The string at the cursor's quote, past its closing one, as bytes not yet checked
        /// to be UTF-8: the text's own when it has no escape, else decoded into `scratch`
        /// (valid until the next string).
        @inline(__always)
        mutating func stringBytes() throws(JSONError) -> (text: UnsafeBufferPointer<UInt8>, escaped: Bool) {
            c.offset += 1
            let start = c.offset
            // Up to a quote, an escape or a control byte: the bytes JSON escapes.
            c.offset = JSONWriter.firstEscaped(in: c.bytes, from: start)
            if c.skip(UInt8(ascii: "\"")) {
                return (UnsafeBufferPointer(rebasing: c.bytes[start..<(c.offset - 1)]), false)
            }
            // Escapes: decoded into `scratch`, made at least as long as the text.
            var end = c.offset
            while end < c.bytes.count, c.bytes[end] == UInt8(ascii: "\\") {
                end = JSONWriter.firstEscaped(in: c.bytes, from: end + 2)
            }
            let decoded = scratch.reserve(end - start)
            var n = c.offset - start
            _ = UnsafeMutableBufferPointer(rebasing: decoded[0..<n]).update(fromContentsOf: c.bytes[start..<c.offset])
            func put(_ byte: UInt8) {
                decoded[n] = byte
                n += 1
            }
            while true {
                guard let byte = c.pop() else { throw syntax(.unterminatedString) }
                switch byte {
                case UInt8(ascii: "\""): return (UnsafeBufferPointer(rebasing: decoded[0..<n]), true)
                case UInt8(ascii: "\\"):
                    guard let escape = c.pop() else { throw syntax(.unterminatedString) }
                    if escape == UInt8(ascii: "u") {
                        UTF8.encode(try unicodeEscape())!.forEach(put)
                    } else {
                        guard let plain = Self.unescaped(escape) else { throw syntax(.unknownEscape(escape)) }
                        put(plain)
                    }
                case 0..<0x20: throw syntax(.controlCharacter)
                default: put(byte)
                }
            }
        }

        /// The byte a one-letter escape stands for (`\n` a line feed); nil for `\u` and
        /// for a letter that is no escape.
        static func unescaped(_ escape: UInt8) -> UInt8? {
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
            case UInt8(ascii: "b"): 8
            case UInt8(ascii: "f"): 12
            case UInt8(ascii: "n"): 10
            case UInt8(ascii: "r"): 13
            case UInt8(ascii: "t"): 9
            default: nil
            }
        }

        /// The four hex digits after `\u`, and a low surrogate's `\uXXXX` after a high one.
        mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
            func hex4() throws(JSONError) -> UInt32 {
                var v: UInt32 = 0
                for _ in 0..<4 {
                    guard let d = c.pop().flatMap(hexDigitValue) else { throw syntax(.shortUnicodeEscape) }
                    v = v << 4 | UInt32(d)
                }
                return v
            }
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                guard c.skip("\\u") else { throw syntax(.loneSurrogate(first)) }
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second) else { throw syntax(.loneSurrogate(first)) }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw syntax(.loneSurrogate(first)) }
            return scalar
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> String {
            guard let text = TextDecoding.string(bytes) else { throw syntax(.invalidUTF8) }
            return text
        }

        mutating func literal(_ word: StaticString) throws(JSONError) {
            guard c.skip(word) else { throw syntax(.unexpected(c.peek()!, expecting: .value)) }
        }

        mutating func skipSpace() {
            c.skip {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n")
                    || $0 == UInt8(ascii: "\r")
            }
        }

        // MARK: Errors

        func syntax(_ code: JSONError.SyntaxCode, at offset: Int? = nil) -> JSONError {
            .syntax(code, line: c.line(at: offset))
        }

        func invalid(_ code: JSONError.ValueCode) -> JSONError {
            .value(code, pointer: PlistKeyPath(path).pointer)
        }
    }
}

/// Room for a string's decoded bytes, made as long as the longest such text so far.
final class Scratch {
    private var bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)

    deinit { bytes.deallocate() }

    /// At least `count` bytes, their contents left behind.
    func reserve(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if count > bytes.count {
            bytes.deallocate()
            bytes = .allocate(capacity: max(count, 2 * bytes.count))
        }
        return bytes
    }
}

/// Why text is not JSON in the project's mapping: a code, and where (the line of a
/// syntax error, the JSON Pointer of a value the mapping refuses).
public enum JSONError: Error, Sendable, Equatable {
    /// Not JSON at all.
    case syntax(SyntaxCode, line: Int)
    /// JSON with a value the mapping refuses.
    case value(ValueCode, pointer: String)

    /// One line for a user, with the line or the pointer.
    public var message: String {
        switch self {
        case let .syntax(code, line): "JSON line \(line): \(code.message)"
        case let .value(code, pointer):
            pointer.isEmpty ? "JSON value: \(code.message)" : "JSON value at \(pointer): \(code.message)"
        }
    }

    /// What the reader was looking for when the text went wrong.
    public enum Expected: Sendable, Equatable {
        case value, key, colon, memberEnd, elementEnd

        var text: String {
            switch self {
            case .value: "a value"
            case .key: "a key in quotes"
            case .colon: "':' after a key"
            case .memberEnd: "',' or '}' after a member"
            case .elementEnd: "',' or ']' after an element"
            }
        }
    }

    /// Why text is not JSON.
    public enum SyntaxCode: Sendable, Equatable {
        case textAfterValue
        case tooDeep(limit: Int)
        case unexpectedEnd(expecting: Expected)
        case unexpected(UInt8, expecting: Expected)
        case numberWithoutDigits
        case leadingZero
        case noDigitsAfterPoint
        case noDigitsInExponent
        case unterminatedString
        case unknownEscape(UInt8)
        case controlCharacter
        case shortUnicodeEscape
        case loneSurrogate(UInt32)
        case invalidUTF8

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case .textAfterValue: "unexpected text after the value"
            case let .tooDeep(limit): "nested deeper than \(limit) levels"
            case let .unexpectedEnd(expected): "unexpected end of input; expected \(expected.text)"
            case let .unexpected(byte, expected): "unexpected '\(printable(byte))'; expected \(expected.text)"
            case .numberWithoutDigits: "malformed number: no digits"
            case .leadingZero: "malformed number: a leading 0 is followed by digits"
            case .noDigitsAfterPoint: "malformed number: digits must follow '.'"
            case .noDigitsInExponent: "malformed number: digits must follow the exponent"
            case .unterminatedString: "unterminated string"
            case let .unknownEscape(byte): "unknown escape '\\\(printable(byte))' in a string"
            case .controlCharacter: "a control character must be escaped in a string"
            case .shortUnicodeEscape: "\\u needs four hex digits"
            case let .loneSurrogate(unit): "a lone surrogate \\u\(String(unit, radix: 16)) is not a character"
            case .invalidUTF8: "invalid UTF-8 in a string"
            }
        }
    }

    /// Why a JSON value has no property-list counterpart.
    public enum ValueCode: Sendable, Equatable {
        case null
        case notADate(String)
        case notBase64
        case notARealWord(String)
        case tagHolds(tag: String, ValueType)
        case unknownTag(String)
        case dateOutOfRange
        case integerOutOfRange(String)
        case realOutOfRange(String)
        /// Where a dictionary is required (an import): the root's type.
        case topLevelNotObject(ValueType)

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case .null: "null has no property-list type; leave the key out instead"
            case let .notADate(text): "\"\(text)\" is not an RFC 3339 date such as 2024-01-02T03:04:05Z"
            case .notBase64: "\"$data\" holds text that is not base64"
            case let .notARealWord(text): "\"$real\" takes \"nan\", \"inf\" or \"-inf\", not \"\(text)\""
            case let .tagHolds(tag, type): "\"\(tag)\" holds \(TypeTable.row(for: type).phrase), not what the tag takes"
            case let .unknownTag(tag):
                "unknown tag \"\(tag)\" (the tags are $date, $data, $real, $gvariant and "
                    + "$dict; wrap a dictionary with one such key in {\"$dict\": …})"
            case .dateOutOfRange: "the date is outside 0000-12-30 to 9999-12-31"
            case let .integerOutOfRange(text):
                "\(text) is outside the 64-bit integer range; write it with .0 for a real"
            case let .realOutOfRange(text):
                "\(text) is outside the range of a real; write {\"$real\": \"inf\"} for infinity"
            case let .topLevelNotObject(type): "the top level is \(TypeTable.row(for: type).phrase), not an object"
            }
        }
    }

    /// A byte as it can be shown in one line: itself when printable ASCII, else `\xNN`.
    static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
