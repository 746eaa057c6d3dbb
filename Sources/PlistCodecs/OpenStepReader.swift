import PlistModel
/// Reads OpenStep ("old-style") property lists: `{ k = v; }`, `( a, b )`, `<0a0b>`,
/// quoted and bare strings, `//` and `/* */` comments. The top level may also be the
/// body of a dictionary without braces, as `.strings` files are.
///
/// OpenStep has only strings, data, arrays and dictionaries: `(1, true)` is two strings.
package struct OpenStepReader {
    private var c: ByteCursor
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { c = ByteCursor(bytes) }

    package static func read(_ input: [UInt8]) throws(PlistError) -> PlistValue {
        let text = try TextDecoding.utf8(input, format: .openStep)
        return try text.withUnsafeBufferPointer { buffer throws(PlistError) in
            var reader = OpenStepReader(buffer)
            return try reader.document()
        }
    }

    private mutating func document() throws(PlistError) -> PlistValue {
        try skipSpace()
        guard !c.atEnd else { throw fail(.noValue) }
        let value = try self.value()
        try skipSpace()
        guard let next = c.peek() else { return value }
        // `key = value;` at the top: a .strings file, a dictionary without braces.
        if case .string = value, next == UInt8(ascii: "=") || next == UInt8(ascii: ";") {
            c.offset = 0
            return .dict(try dictionaryBody(closer: nil))
        }
        throw fail(.textAfterValue)
    }

    private mutating func value() throws(PlistError) -> PlistValue {
        guard let next = c.peek() else { throw fail(.unexpectedEnd) }
        switch next {
        case UInt8(ascii: "{"):
            c.offset += 1
            try enter()
            defer { depth -= 1 }
            return .dict(try dictionaryBody(closer: UInt8(ascii: "}")))
        case UInt8(ascii: "("):
            c.offset += 1
            try enter()
            defer { depth -= 1 }
            return .array(try arrayBody())
        case UInt8(ascii: "<"):
            return .data(try data())
        default:
            return .string(try string())
        }
    }

    private mutating func enter() throws(PlistError) {
        depth += 1
        guard depth <= maximumNestingDepth else {
            throw PlistError.tooDeep(.openStep, limit: maximumNestingDepth, line: line)
        }
    }

    /// Entries up to `closer` (or the end of text when nil). `key;` stands for `key = key;`.
    private mutating func dictionaryBody(closer: UInt8?) throws(PlistError) -> PlistDictionary {
        var dict = PlistDictionary()
        while true {
            try skipSpace()
            if let closer {
                guard !c.atEnd else { throw fail(.unterminatedDictionary) }
                if c.skip(closer) { return dict }
            } else if c.atEnd {
                return dict
            }
            let key = try string()
            try skipSpace()
            guard !c.atEnd else { throw fail(.expectedEqualsOrSemicolon(key: String(key.prefix(40)))) }
            if c.skip(UInt8(ascii: ";")) {
                dict.append(key: key, value: .string(key))
                continue
            }
            guard c.skip(UInt8(ascii: "=")) else { throw fail(.expectedEquals(key: String(key.prefix(40)))) }
            try skipSpace()
            let value = try self.value()
            dict.append(key: key, value: value)
            try skipSpace()
            guard !c.atEnd else { throw fail(.unexpectedEnd) }
            guard c.skip(UInt8(ascii: ";")) else { throw fail(.expectedSemicolon(key: String(key.prefix(40)))) }
        }
    }

    /// Elements up to `)`, separated by commas; a trailing comma is allowed.
    private mutating func arrayBody() throws(PlistError) -> [PlistValue] {
        var elements: [PlistValue] = []
        while true {
            try skipSpace()
            guard !c.atEnd else { throw fail(.unterminatedArray) }
            if c.skip(UInt8(ascii: ")")) { return elements }
            elements.append(try value())
            try skipSpace()
            guard !c.atEnd else { throw fail(.unterminatedArray) }
            if c.skip(UInt8(ascii: ",")) { continue }
            guard c.peek() == UInt8(ascii: ")") else { throw fail(.expectedCommaOrParenthesis) }
        }
    }

    /// `<0a0b 0c>`: hex digit pairs, whitespace anywhere between them.
    private mutating func data() throws(PlistError) -> [UInt8] {
        c.offset += 1
        var out: [UInt8] = []
        var high: UInt8?
        while let b = c.pop() {
            if b == UInt8(ascii: ">") {
                guard high == nil else { throw fail(.oddHexDigits) }
                return out
            }
            if isSpace(b) { continue }
            guard let nibble = hexDigitValue(b) else { throw fail(.invalidDataCharacter) }
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        throw fail(.unterminatedData)
    }

    private mutating func string() throws(PlistError) -> String {
        guard let b = c.peek() else { throw fail(.expectedString) }
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { return try quoted(b) }
        let start = c.offset
        guard c.skip(while: isBareByte) > 0 else { throw fail(.unexpectedCharacter(b)) }
        return String(decoding: c.text(from: start), as: UTF8.self)
    }

    /// A quoted string with `\n \t \" \\ \Uxxxx \ooo` and the other C escapes.
    private mutating func quoted(_ quote: UInt8) throws(PlistError) -> String {
        let start = c.offset
        c.offset += 1
        var out: [UInt8] = []
        var pendingHighSurrogate: UInt16?
        while let b = c.pop() {
            if b == quote {
                guard pendingHighSurrogate == nil else { throw fail(.unpairedSurrogate) }
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw PlistError.invalidEncoding(.openStep, line: c.line(at: start))
                }
                return s
            }
            guard b == UInt8(ascii: "\\") else {
                guard pendingHighSurrogate == nil else { throw fail(.unpairedSurrogate) }
                out.append(b)
                continue
            }
            guard let e = c.pop() else { break }
            if e == UInt8(ascii: "U") || e == UInt8(ascii: "u") {
                var unit: UInt16 = 0
                var digits = 0
                while digits < 4, let v = c.peek().flatMap(hexDigitValue) {
                    unit = unit << 4 | UInt16(v)
                    c.offset += 1
                    digits += 1
                }
                guard digits > 0 else { throw fail(.escapeWithoutDigits) }
                if let high = pendingHighSurrogate {
                    guard UTF16.isTrailSurrogate(unit) else { throw fail(.unpairedSurrogate) }
                    let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                    out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
                    pendingHighSurrogate = nil
                } else if UTF16.isLeadSurrogate(unit) {
                    pendingHighSurrogate = unit
                } else if let scalar = Unicode.Scalar(unit) {
                    out.append(contentsOf: UTF8.encode(scalar)!)
                } else {
                    throw fail(.unpairedSurrogate)
                }
                continue
            }
            guard pendingHighSurrogate == nil else { throw fail(.unpairedSurrogate) }
            if e >= UInt8(ascii: "0") && e <= UInt8(ascii: "7") {
                // Up to three octal digits name a byte of the NeXTSTEP character set.
                var value = UInt32(e - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, let d = c.peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "7") {
                    value = value * 8 + UInt32(d - UInt8(ascii: "0"))
                    c.offset += 1
                    digits += 1
                }
                out.append(contentsOf: UTF8.encode(NeXTSTEP.scalar(UInt8(truncatingIfNeeded: value)))!)
                continue
            }
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            default: out.append(e)
            }
        }
        throw PlistError.openStep(.unterminatedString, line: c.line(at: start))
    }

    /// Whitespace and comments.
    private mutating func skipSpace() throws(PlistError) {
        while let b = c.peek() {
            if isSpace(b) {
                c.offset += 1
            } else if c.skip("//") {
                c.skip { $0 != UInt8(ascii: "\n") }
            } else if b == UInt8(ascii: "/"), c.peek(1) == UInt8(ascii: "*") {
                let start = c.offset
                c.offset += 2
                var closed = false
                while !closed, !c.atEnd { if c.skip("*/") { closed = true } else { c.offset += 1 } }
                guard closed else { throw PlistError.openStep(.unterminatedComment, line: c.line(at: start)) }
            } else {
                return
            }
        }
    }

    private var line: Int { c.line() }

    private func fail(_ code: PlistError.OpenStepCode) -> PlistError { .openStep(code, line: line) }
}

/// `[A-Za-z0-9_$/:.-]`, the characters of an unquoted OpenStep string.
@inline(__always)
private func isBareByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
        || b == UInt8(ascii: "/") || b == UInt8(ascii: ":") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
}
