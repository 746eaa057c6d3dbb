import PlistModel
/// Reads an XML property list in one pass over its bytes: its tags, text and references,
/// and every error with its line. What its values are read into is a consumer's
/// (`XMLConsumer`), walked by `XMLWalk`: the values themselves (`XMLTree`), text
/// (`XMLText`) or a binary plist's nodes (`XMLNodeReading`).
///
/// It accepts what Apple's and other writers produce (any prolog, the DOCTYPE line,
/// comments, CDATA, the five named and all numeric character references, UTF-16 with a
/// BOM, a document without the `<plist>` wrapper) and refuses DTD declarations, so no
/// entity is ever expanded or fetched.
package struct XMLReader {
    private var c: ByteCursor
    /// The cursor's bytes and position, under the names the element code uses.
    var bytes: UnsafeBufferPointer<UInt8> { @inline(__always) get { c.bytes } }
    var pos: Int {
        @inline(__always) get { c.offset }
        @inline(__always) set { c.offset = newValue }
    }
    var depth = 0
    /// Where the root dictionary's second half is being read by another reader: this
    /// one stops there if an entry starts exactly there (see `XMLWalk.read`).
    var stopAt = -1
    var stoppedAt = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) { c = ByteCursor(bytes) }

    // MARK: Document

    /// The prolog, then the root value's tag, inside `<plist>` (`wrapped`) or not.
    mutating func rootTag() throws(PlistError) -> (tag: Tag, wrapped: Bool) {
        try skipProlog()
        var tag = try openTag()
        let wrapped = tag.kind == .plist
        if wrapped {
            guard !tag.selfClosing else { throw fail(.emptyPlistElement) }
            try skipMisc()
            guard !at("</") else { throw fail(.plistHoldsNoValue) }
            tag = try openTag()
        }
        return (tag, wrapped)
    }

    /// After the root value: `</plist>` when `wrapped`, and nothing else.
    mutating func end(wrapped: Bool) throws(PlistError) {
        try skipMisc()
        if wrapped {
            guard at("</") else { throw fail(.moreThanOneValue) }
            try closeTag("plist")
            try skipMisc()
        }
        guard pos == bytes.count else { throw fail(.contentAfterValue) }
    }

    /// The XML declaration, comments, processing instructions and a DOCTYPE without
    /// an internal subset.
    private mutating func skipProlog() throws(PlistError) {
        while true {
            try skipMisc()
            guard at("<!DOCTYPE") || at("<!doctype") else { return }
            while pos < bytes.count, bytes[pos] != UInt8(ascii: ">") {
                if bytes[pos] == UInt8(ascii: "[") { throw PlistError.entityDeclaration(line: line) }
                skipQuoted()
                pos += 1
            }
            guard pos < bytes.count else { throw fail(.unterminatedDoctype) }
            pos += 1
        }
    }

    /// Whitespace, comments and processing instructions between elements.
    private mutating func skipMisc() throws(PlistError) {
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") {
                pos += 1
            } else if b != UInt8(ascii: "<") || pos + 1 == bytes.count
                || (bytes[pos + 1] != UInt8(ascii: "!") && bytes[pos + 1] != UInt8(ascii: "?"))
            {
                // Most often the next tag: none of the three below can start here.
                return
            } else if at("<!--") {
                try skipComment()
            } else if at("<?") {
                guard let end = find("?>", from: pos + 2) else { throw fail(.unterminatedProcessingInstruction) }
                pos = end + 2
            } else if at("<!") && !at("<![CDATA[") && !at("<!DOCTYPE") && !at("<!doctype") {
                throw PlistError.entityDeclaration(line: line)
            } else {
                return
            }
        }
    }

    /// At a quote, moves to its closing quote (a `>` inside quotes ends nothing).
    private mutating func skipQuoted() {
        guard bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") else { return }
        let quote = bytes[pos]
        pos += 1
        while pos < bytes.count, bytes[pos] != quote { pos += 1 }
    }

    private mutating func skipComment() throws(PlistError) {
        guard let end = find("-->", from: pos + 4) else { throw fail(.unterminatedComment) }
        pos = end + 3
    }

    // MARK: Elements

    enum Kind: Int, CaseIterable { case plist, dict, array, key, string, integer, real, `true`, `false`, date, data }

    struct Tag { var kind: Kind; var selfClosing: Bool }

    /// Reads `<name attr="…">` or `<name/>`.
    mutating func openTag() throws(PlistError) -> Tag {
        guard pos < bytes.count else { throw fail(.unexpectedEnd) }
        guard bytes[pos] == UInt8(ascii: "<") else { throw fail(.expectedElement) }
        guard pos + 1 < bytes.count else { throw fail(.unexpectedEnd) }
        guard bytes[pos + 1] != UInt8(ascii: "/") else { throw fail(.unexpectedClosingTag) }
        if let tag = knownTag() { return tag }
        pos += 1
        let start = pos
        while pos < bytes.count, isNameByte(bytes[pos]) { pos += 1 }
        guard let kind = kind(start, pos) else {
            let name = String(decoding: bytes[start..<min(pos, start + 40)], as: UTF8.self)
            throw fail(.unknownTag(name))
        }
        // Attributes are skipped (only <plist version="…"> has any).
        while pos < bytes.count, bytes[pos] != UInt8(ascii: ">") {
            skipQuoted()
            pos += 1
        }
        guard pos < bytes.count else { throw fail(.unterminatedTag) }
        let selfClosing = bytes[pos - 1] == UInt8(ascii: "/")
        pos += 1
        return Tag(kind: kind, selfClosing: selfClosing)
    }

    /// The kind named by the bytes from `start` to `end` (the way `knownTag` did not take).
    private func kind(_ start: Int, _ end: Int) -> Kind? {
        Kind.allCases.first { end - start == Self.name($0).utf8CodeUnitCount && matches(start, Self.name($0)) }
    }

    // MARK: Tags as words

    // Most tags are a plist name spelled exactly: those are compared whole, as the eight
    // bytes after `<` (or at `</`) read as one little-endian word, before the byte-by-byte
    // way that also takes attributes, white space and every error. Scanning names byte by
    // byte was a fifth of turning a big domain into text.

    /// The eight bytes at `offset` (`ByteWords.load`); nil within eight of the end.
    @inline(__always)
    private func word(at offset: Int) -> UInt64? { ByteWords.load(bytes.span, at: offset) }

    /// The low `n` bytes of a word (`n` from 1 to 8).
    @inline(__always)
    private static func low(_ n: Int) -> UInt64 { n >= 8 ? ~0 : (1 << (8 * UInt64(n))) &- 1 }

    /// A kind's name as such a word, and its length.
    static func nameWord(_ kind: Kind) -> (word: UInt64, count: Int) {
        switch kind {
        case .plist: (0x74_7369_6C70, 5)
        case .dict: (0x7463_6964, 4)
        case .array: (0x79_6172_7261, 5)
        case .key: (0x79_656B, 3)
        case .string: (0x676E_6972_7473, 6)
        case .integer: (0x72_6567_6574_6E69, 7)
        case .real: (0x6C61_6572, 4)
        case .true: (0x6575_7274, 4)
        case .false: (0x65_736C_6166, 5)
        case .date: (0x6574_6164, 4)
        case .data: (0x6174_6164, 4)
        }
    }

    /// `</name>` as two such words (the second for the bytes past eight), and its length.
    @inline(__always)
    static func closingWords(_ kind: Kind) -> (first: UInt64, rest: UInt64, count: Int) {
        let (name, n) = nameWord(kind)
        let open: UInt64 = 0x2F3C, close: UInt64 = 0x3E
        if n <= 5 { return (open | name << 16 | close << (8 * UInt64(n + 2)), 0, n + 3) }
        return (open | name << 16, name >> 48 | close << (8 * UInt64(n - 6)), n + 3)
    }

    /// At `<`: the tag when it is a plist name spelled exactly and then `>` or `/>`, read
    /// past; nil, with nothing read, for any other (`openTag` reads it byte by byte).
    @inline(__always)
    private mutating func knownTag() -> Tag? {
        guard let w = word(at: pos + 1) else { return nil }
        let kind: Kind
        switch UInt8(truncatingIfNeeded: w) {
        case UInt8(ascii: "k"): kind = .key
        case UInt8(ascii: "s"): kind = .string
        case UInt8(ascii: "i"): kind = .integer
        case UInt8(ascii: "r"): kind = .real
        case UInt8(ascii: "a"): kind = .array
        case UInt8(ascii: "t"): kind = .true
        case UInt8(ascii: "f"): kind = .false
        case UInt8(ascii: "p"): kind = .plist
        case UInt8(ascii: "d"):
            // dict, date, data: the third letter, then the fourth.
            if UInt8(truncatingIfNeeded: w >> 16) == UInt8(ascii: "c") {
                kind = .dict
            } else {
                kind = UInt8(truncatingIfNeeded: w >> 24) == UInt8(ascii: "e") ? .date : .data
            }
        default: return nil
        }
        let (name, n) = Self.nameWord(kind)
        guard w & Self.low(n) == name else { return nil }
        // The byte after the name ends it (`>` or `/`), as the byte-by-byte scan would.
        switch UInt8(truncatingIfNeeded: w >> (8 * UInt64(n))) {
        case UInt8(ascii: ">"):
            pos += n + 2
            return Tag(kind: kind, selfClosing: false)
        case UInt8(ascii: "/") where n < 7 && UInt8(truncatingIfNeeded: w >> (8 * UInt64(n + 1))) == UInt8(ascii: ">"):
            pos += n + 3
            return Tag(kind: kind, selfClosing: true)
        default:
            return nil
        }
    }

    /// Reads `</name>` of `kind`: as words when spelled exactly, else as `closeTag(_:)` of
    /// its name reads it (white space before `>`, and the errors).
    mutating func closeTag(_ kind: Kind) throws(PlistError) {
        let (first, rest, n) = Self.closingWords(kind)
        if let w = word(at: pos), w & Self.low(min(n, 8)) == first,
            n <= 8 || (word(at: pos + 8).map { $0 & Self.low(n - 8) == rest } ?? false)
        {
            pos += n
            return
        }
        try closeTag(Self.name(kind))
    }

    /// An element's name (for errors and the byte-by-byte ways: the words are compared first).
    static func name(_ kind: Kind) -> StaticString { names[kind.rawValue] }

    private static let names: [StaticString] = [
        "plist", "dict", "array", "key", "string", "integer", "real", "true", "false", "date", "data",
    ]

    /// Reads `</name>`.
    mutating func closeTag(_ name: StaticString) throws(PlistError) {
        let n = name.utf8CodeUnitCount
        guard at("</"), pos + 2 + n <= bytes.count, matches(pos + 2, name) else {
            throw fail(.expectedClosingTag("\(name)"))
        }
        pos += 2 + n
        while pos < bytes.count, isSpace(bytes[pos]) { pos += 1 }
        guard pos < bytes.count else { throw fail(.unexpectedEnd) }
        guard bytes[pos] == UInt8(ascii: ">") else { throw fail(.expectedClosingTag("\(name)")) }
        pos += 1
    }

    func scalar(_ kind: Kind, _ text: Text) throws(PlistError) -> PlistValue {
        if kind == .true || kind == .false { return .bool(kind == .true) }
        let parsed: PlistValue? = withBytes(text) { raw in
            // As Foundation reads them: a number may follow spaces (an integer also between
            // its sign and its digits), but nothing may follow it; a date has no spaces.
            var start = raw.startIndex
            while start < raw.endIndex, isSpace(raw[start]) { start += 1 }
            let number = raw[start...]
            switch kind {
            case .integer:
                if number.count > 1, number.first == UInt8(ascii: "+") || number.first == UInt8(ascii: "-"),
                    isSpace(number[start + 1])
                {
                    let digits = [number[start]] + number.dropFirst().drop(while: isSpace)
                    return PlistInteger.parse(digits, allowHex: true).map(PlistValue.int)
                }
                return PlistInteger.parse(number, allowHex: true).map(PlistValue.int)
            case .real: return RealText.parse(number).map(PlistValue.double)
            case .date: return XMLDate.parse(raw).map(PlistValue.date)
            default: return Base64.decode(raw).map(PlistValue.data)
            }
        }
        guard let parsed else {
            let what = Self.name(kind)
            throw fail(.invalidValue(element: "\(what)", text: preview(text)))
        }
        return parsed
    }

    /// Reads the next entry of a dictionary into `entry`: its key's text, and where its
    /// value starts and that value's tag (read). False after the dictionary's `</dict>`,
    /// or, for the root, at `stopAt` when an entry starts exactly there (`stoppedAt` is set).
    mutating func nextEntry(_ entry: inout Entry) throws(PlistError) -> Bool {
        try skipMisc()
        if at("</") {
            try closeTag(.dict)
            return false
        }
        if depth == 1, pos == stopAt {
            stoppedAt = true
            return false
        }
        let keyTag = try openTag()
        guard keyTag.kind == .key else { throw fail(.expectedKey) }
        var keyText = Text.slice(pos..<pos)
        if !keyTag.selfClosing {
            keyText = try text()
            try closeTag(.key)
        }
        try skipMisc()
        guard !at("</") else { throw fail(.keyWithoutValue(preview(keyText))) }
        let valueFrom = pos
        let valueTag = try openTag()
        guard valueTag.kind != .key else { throw fail(.keyWithoutValue(preview(keyText))) }
        entry = Entry(key: keyText, valueFrom: valueFrom, valueTag: valueTag)
        return true
    }

    /// Read into one variable a dictionary, not returned as an optional: in a walk
    /// specialized for its consumer an optional entry was let go of through its metadata,
    /// calls into the runtime for every key (5% of the instructions of a big domain's JSON).
    struct Entry {
        var key = Text.slice(0..<0)
        var valueFrom = 0
        var valueTag = Tag(kind: .key, selfClosing: false)
    }

    /// The tag of an array's next element (read), or nil after its `</array>`.
    mutating func nextElement() throws(PlistError) -> Tag? {
        try skipMisc()
        if at("</") {
            try closeTag(.array)
            return nil
        }
        return try openTag()
    }

    mutating func enter() throws(PlistError) {
        depth += 1
        guard depth <= maximumNestingDepth else {
            throw PlistError.tooDeep(.xml, limit: maximumNestingDepth, line: line)
        }
    }

    // MARK: Text

    /// Element text: a slice of the input when it holds no reference, CDATA or comment
    /// (the common case, no copy), else the decoded bytes.
    enum Text {
        case slice(Range<Int>)
        case decoded([UInt8])
    }

    /// Reads up to the next `</`, decoding references, CDATA and comments.
    mutating func text() throws(PlistError) -> Text {
        let start = pos
        pos = Self.markup(in: bytes, from: pos)
        if at("</") { return .slice(start..<pos) }
        var out = Array(bytes[start..<pos])
        while true {
            guard pos < bytes.count else { throw fail(.unterminatedText) }
            let b = bytes[pos]
            if b == UInt8(ascii: "&") {
                try reference(into: &out)
            } else if b == UInt8(ascii: "<") {
                if at("</") { return .decoded(out) }
                if at("<![CDATA[") {
                    guard let end = find("]]>", from: pos + 9) else { throw fail(.unterminatedCDATA) }
                    out.append(contentsOf: bytes[(pos + 9)..<end])
                    pos = end + 3
                } else if at("<!--") {
                    try skipComment()
                } else {
                    throw fail(.elementInsideText)
                }
            } else {
                out.append(b)
                pos += 1
            }
        }
    }

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NNN;` `&#xHHHH;`.
    private mutating func reference(into out: inout [UInt8]) throws(PlistError) {
        let start = pos + 1
        var end = start
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw fail(.unterminatedReference) }
        let name = bytes[start..<end]
        switch end - start {
        case 2 where matches(start, "lt"): out.append(UInt8(ascii: "<"))
        case 2 where matches(start, "gt"): out.append(UInt8(ascii: ">"))
        case 3 where matches(start, "amp"): out.append(UInt8(ascii: "&"))
        case 4 where matches(start, "quot"): out.append(UInt8(ascii: "\""))
        case 4 where matches(start, "apos"): out.append(UInt8(ascii: "'"))
        default:
            guard name.first == UInt8(ascii: "#") else {
                throw fail(.unknownEntity(String(decoding: name, as: UTF8.self)))
            }
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty else { throw fail(.emptyReference) }
            var scalar: UInt32 = 0
            for d in digits {
                guard let v = hexDigitValue(d), UInt32(v) < radix else { throw fail(.invalidReferenceDigit) }
                scalar = scalar * radix + UInt32(v)
                // Stop before the accumulator can overflow: nothing past U+10FFFF is a character.
                guard scalar <= 0x10FFFF else { throw fail(.referenceBeyondUnicode) }
            }
            guard scalar != 0, let u = Unicode.Scalar(scalar) else { throw fail(.referenceToNoCharacter) }
            out.append(contentsOf: UTF8.encode(u)!)
        }
        pos = end + 1
    }

    func withBytes<T>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        Self.withBytes(text, in: bytes, body)
    }

    /// `withBytes` of text read from `bytes`, for a closure that must not capture the
    /// reader (a capture copies it).
    @inline(__always)
    static func withBytes<T>(
        _ text: Text, in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        switch text {
        case .slice(let range): return body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .decoded(let owned): return owned.withUnsafeBufferPointer(body)
        }
    }

    /// The first `<` or `&` in `bytes` from `start` (or their end), eight bytes at a time
    /// (`ByteWords.equal`).
    @inline(__always)
    static func markup(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWords.first(in: bytes, from: start) {
            ByteWords.equal($0, UInt8(ascii: "<")) | ByteWords.equal($0, UInt8(ascii: "&"))
        } matching: {
            $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&")
        }
    }

    /// The start of some text, for an error message.
    func preview(_ text: Text) -> String {
        withBytes(text) { String(decoding: $0.prefix(40), as: UTF8.self) }
    }

    /// Checks text is UTF-8 without making a `String` of it.
    @inline(__always)
    func validate(_ text: Text) throws(PlistError) {
        guard withBytes(text, isValidUTF8) else { throw PlistError.invalidEncoding(.xml, line: line) }
    }

    func string(_ text: Text) throws(PlistError) -> String {
        guard let s = withBytes(text, TextDecoding.string) else {
            throw PlistError.invalidEncoding(.xml, line: line)
        }
        return s
    }

    // MARK: Bytes

    var line: Int { c.line() }

    func fail(_ code: PlistError.XMLCode) -> PlistError { .xml(code, line: line) }

    @inline(__always)
    private func at(_ literal: StaticString) -> Bool { c.starts(with: literal) }

    @inline(__always)
    func matches(_ offset: Int, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard offset + n <= bytes.count else { return false }
        let p = literal.utf8Start
        for i in 0..<n where bytes[offset + i] != p[i] { return false }
        return true
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        let first = literal.utf8Start[0]
        var i = start
        while i < bytes.count {
            if bytes[i] == first, matches(i, literal) { return i }
            i += 1
        }
        return nil
    }
}

@inline(__always)
private func isNameByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
        || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
}

@inline(__always)
func isSpace(_ b: UInt8) -> Bool {
    b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r")
}
