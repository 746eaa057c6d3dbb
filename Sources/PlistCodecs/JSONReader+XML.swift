import PlistModel

/// A domain's whole XML property list, made from JSON without building its values
/// (`JSONReader.encodedDomain`), with its keys and their values on demand.
package struct EncodedDomain {
    /// The document, byte for byte as `XMLWriter.encode` writes the dictionary.
    package let xml: [UInt8]
    /// The root's keys, one after another, decoded; and each one's bytes in them.
    let keyText: [UInt8]
    let keyRanges: [Range<Int>]
    /// The JSON, and where each key's value starts in it.
    let json: [UInt8]
    let valueOffsets: [Int]

    /// How many keys the root has; never none.
    package var count: Int { keyRanges.count }

    /// The root's keys are in byte order, each once. Made when asked for: a writer needs a
    /// few thousand of a big domain's keys for its history, not all of them.
    package func key(_ index: Int) -> String {
        keyText.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[keyRanges[index]]), as: UTF8.self)
        }
    }

    /// The value of `key(index)`, built from the JSON.
    package func value(_ index: Int) -> PlistValue {
        json.withUnsafeBufferPointer { buffer in
            var parser = JSONReader.Parser(bytes: buffer)
            parser.c.offset = valueOffsets[index]
            // The text was read once already, to the same values.
            guard let value = try? parser.value(tags: true) else { preconditionFailure("JSON read twice differs") }
            return value
        }
    }
}

extension JSONReader {
    /// The XML property list of a JSON object, written straight from its text: no value
    /// is built but a date's, a number's or some data, one at a time. An import of a big
    /// domain then costs its reading and its writing, not a tree of values made, checked
    /// key by key and freed: that was two thirds of it.
    ///
    /// Nil for whatever this writing would not do exactly as `read` and `XMLWriter` do:
    /// text that is not JSON, a value the mapping refuses, text XML cannot hold, a date
    /// with a fraction of a second (only a binary file keeps one), `$dict`, a key twice
    /// in an object, an empty root, one nested deeper than 64. The caller then reads the
    /// values, which says what is wrong or takes the long way.
    ///
    ///     JSONReader.encodedDomain(Array(#"{"b": 1, "a": [true]}"#.utf8))?.key(0)   //=> "a"
    package static func encodedDomain(_ json: [UInt8]) -> EncodedDomain? {
        json.withUnsafeBufferPointer { buffer in
            var writer = JSONToXML(buffer)
            guard let xml = writer.document() else { return nil }
            return EncodedDomain(
                xml: xml, keyText: writer.keys, keyRanges: writer.members.map(\.key), json: json,
                valueOffsets: writer.members.map(\.value))
        }
    }
}

/// Writes a JSON object in one pass as `XMLWriter` writes the dictionary `JSONReader`
/// reads from it: each object's entries go out in the order they come, and only an
/// object whose keys were not in byte order has its entries' bytes moved into it.
struct JSONToXML {
    /// An entry written: its key's bytes in `keys`, its bytes in the output, and where
    /// its value starts in the JSON.
    struct Member {
        var key: Range<Int>
        var entry: Range<Int>
        var value: Int
    }

    /// Deeper than this, the long way, which counts depth as the readers do.
    static let deepest = 64

    /// The reader whose grammar this writes: its cursor, and its numbers, `\u` escapes
    /// and white space, read as it reads them.
    var parser: JSONReader.Parser
    var bytes: UnsafeBufferPointer<UInt8> { parser.c.bytes }
    var i: Int {
        get { parser.c.offset }
        set { parser.c.offset = newValue }
    }
    /// The keys of the objects being written, decoded, one after another.
    var keys: [UInt8] = []
    /// The entries of the objects being written; the root's are left at the end.
    var members: [Member] = []

    /// The reader steps over a byte-order mark, as `JSONReader.read` does.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { parser = JSONReader.Parser(bytes: bytes) }

    /// The document; nil to give up. The root's entries are left in `members`.
    mutating func document() -> [UInt8]? {
        var out: [UInt8] = []
        // XML is about twice as long as the JSON of the same values.
        out.reserveCapacity(2 * bytes.count + 4096)
        out.append(contentsOf: XMLWriter.header)
        parser.skipSpace()
        guard parser.c.skip(UInt8(ascii: "{")), object(level: 0, root: true, into: &out) else { return nil }
        parser.skipSpace()
        guard i == bytes.count else { return nil }
        XMLWriter.put("</plist>\n", &out)
        return out
    }

    // MARK: Values

    /// Writes the value at `i` at `level`, as `XMLWriter.write` writes what `read` reads.
    mutating func value(level: Int, into out: inout [UInt8]) -> Bool {
        guard level <= Self.deepest else { return false }
        parser.skipSpace()
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            return object(level: level, root: false, into: &out)
        case UInt8(ascii: "["):
            i += 1
            return array(level: level, into: &out)
        case UInt8(ascii: "\""):
            guard let text = string() else { return false }
            XMLWriter.writeString(text, level: level, into: &out)
        case UInt8(ascii: "t"):
            guard parser.c.skip("true") else { return false }
            XMLWriter.writeBool(true, level: level, into: &out)
        case UInt8(ascii: "f"):
            guard parser.c.skip("false") else { return false }
            XMLWriter.writeBool(false, level: level, into: &out)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let number = try? parser.number() else { return false }
            XMLWriter.write(number, level: level, into: &out) { _ in }
        default: return false
        }
        return true
    }

    /// The object after its `{`: a tag's value, or a dictionary with its entries sorted.
    mutating func object(level: Int, root: Bool, into out: inout [UInt8]) -> Bool {
        parser.skipSpace()
        guard i < bytes.count else { return false }
        if bytes[i] == UInt8(ascii: "}"), !root {
            i += 1
            return !XMLWriter.open(.dict, empty: true, level: level, into: &out)
        }
        // A first key starting with `$` may make a tag, or `$dict`'s wrapper.
        let start = i
        guard bytes[i] == UInt8(ascii: "\""), let first = string() else { return false }
        if first.first == UInt8(ascii: "$") { return !root && tag(first, level: level, into: &out) }
        i = start
        _ = XMLWriter.open(.dict, empty: false, level: level, into: &out)
        let (firstMember, firstKey) = (members.count, keys.count)
        guard entries(level: level + 1, into: &out) else { return false }
        if !root {
            members.removeSubrange(firstMember...)
            keys.removeSubrange(firstKey...)
        }
        XMLWriter.close(.dict, level: level, into: &out)
        return true
    }

    /// The members of an object, from its first key's quote to its `}`, as entries at
    /// `level`, left on `members` in byte order of their keys.
    mutating func entries(level: Int, into out: inout [UInt8]) -> Bool {
        let (first, body) = (members.count, out.count)
        while true {
            parser.skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string() else { return false }
            let keyStart = keys.count
            keys.appendBytes(key)
            parser.skipSpace()
            guard parser.c.skip(UInt8(ascii: ":")) else { return false }
            let entryStart = out.count
            XMLWriter.writeKey(key, level: level, into: &out)
            parser.skipSpace()
            let valueStart = i
            guard value(level: level, into: &out) else { return false }
            members.append(Member(key: keyStart..<keys.count, entry: entryStart..<out.count, value: valueStart))
            parser.skipSpace()
            guard i < bytes.count else { return false }
            i += 1
            if bytes[i - 1] == UInt8(ascii: "}") { break }
            guard bytes[i - 1] == UInt8(ascii: ",") else { return false }
        }
        return sort(from: first, body: body, into: &out)
    }

    /// Puts the entries of `members[first...]`, written from `body` on, in byte order of
    /// their keys; false when a key is there twice (a reader keeps the last: the long way).
    mutating func sort(from first: Int, body: Int, into out: inout [UInt8]) -> Bool {
        guard let order = order(from: first) else { return false }
        guard !order.isEmpty else { return true }
        // Copies of this object's bytes and entries only: a slice of `members` kept while
        // writing it would copy every entry of the root for each object out of order.
        let written = Array(out[body...])
        out.removeSubrange(body...)
        let unsorted = Array(members[first...])
        for (place, index) in zip(first..., order) {
            var member = unsorted[index - first]
            let start = out.count
            out.append(contentsOf: written[(member.entry.lowerBound - body)..<(member.entry.upperBound - body)])
            member.entry = start..<out.count
            members[place] = member
        }
        return true
    }

    /// The indexes of `members[first...]` in byte order of their keys: none when they
    /// are in order already, the usual case, and nil when a key is there twice.
    func order(from first: Int) -> [Int]? {
        keys.withUnsafeBufferPointer { all in
            func precedes(_ a: Int, _ b: Int) -> Bool {
                bytesPrecede(
                    UnsafeBufferPointer(rebasing: all[members[a].key]).span,
                    UnsafeBufferPointer(rebasing: all[members[b].key]).span)
            }
            if (first + 1..<members.count).allSatisfy({ precedes($0 - 1, $0) }) { return [] }
            let order = (first..<members.count).sorted(by: precedes)
            return zip(order, order.dropFirst()).allSatisfy(precedes) ? order : nil
        }
    }

    /// `{"$date": "…"}`, `{"$data": "…"}` or `{"$real": "…"}` after its key, as `JSONReader`
    /// reads it; anything else is the long way.
    mutating func tag(_ key: UnsafeBufferPointer<UInt8>, level: Int, into out: inout [UInt8]) -> Bool {
        func named(_ name: StaticString) -> Bool {
            key.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        let kind = named("$date") ? 0 : named("$data") ? 1 : named("$real") ? 2 : nil
        parser.skipSpace()
        guard let kind, parser.c.skip(UInt8(ascii: ":")) else { return false }
        parser.skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let text = string() else { return false }
        parser.skipSpace()
        guard parser.c.skip(UInt8(ascii: "}")) else { return false }
        let value: PlistValue
        switch kind {
        case 0:
            guard let date = RFC3339.parse(text), PlistDate.representable.contains(date.secondsSince2001) else {
                return false
            }
            value = .date(date)
            guard !PropertyList.hasFractionalDate(value) else { return false }
            // A date spelled as XML spells it (`…T03:04:05Z`) is copied, not worked out again.
            if XMLDate.isCanonical(text) {
                XMLWriter.writeDate(level: level, into: &out) { $0.appendBytes(text) }
                return true
            }
        case 1:
            // Canonical text, what writers write, is copied into the lines: not decoded
            // and encoded again.
            if Base64.isCanonical(text, allowingSpace: false) == false {
                XMLWriter.writeData(level: level, into: &out) {
                    Base64.appendLines(canonical: text, lineLength: $0, indent: $1, into: &$2)
                }
                return true
            }
            guard let data = Base64.decode(text) else { return false }
            value = .data(data)
        default:
            switch String(decoding: text, as: UTF8.self) {
            case "nan": value = .double(.nan)
            case "inf", "+inf": value = .double(.infinity)
            case "-inf": value = .double(-.infinity)
            default: return false
            }
        }
        XMLWriter.write(value, level: level, into: &out) { _ in }
        return true
    }

    /// The elements of an array after its `[`.
    mutating func array(level: Int, into out: inout [UInt8]) -> Bool {
        parser.skipSpace()
        let empty = parser.c.skip(UInt8(ascii: "]"))
        guard XMLWriter.open(.array, empty: empty, level: level, into: &out) else { return true }
        while true {
            guard value(level: level + 1, into: &out) else { return false }
            parser.skipSpace()
            guard i < bytes.count else { return false }
            i += 1
            if bytes[i - 1] == UInt8(ascii: "]") { break }
            guard bytes[i - 1] == UInt8(ascii: ",") else { return false }
        }
        XMLWriter.close(.array, level: level, into: &out)
        return true
    }

    // MARK: Text

    /// The string at `i`, past its closing quote: well-formed UTF-8 XML can hold, its
    /// bytes in the JSON or, with escapes, decoded until the next string.
    mutating func string() -> UnsafeBufferPointer<UInt8>? {
        guard let (text, escaped) = try? parser.stringBytes(), isValidUTF8(text) else { return nil }
        // Only an escape can spell a byte XML cannot hold.
        return escaped && XMLWriter.hasUnwritable(text) ? nil : text
    }
}
