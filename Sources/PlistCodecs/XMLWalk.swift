import PlistModel

/// What an XML property list is read into. `XMLReader` checks the text (every error, and
/// its line, as any reading of it reports them) and `XMLWalk` walks its values in the
/// text's order, handing each to the consumer: the tree builds them (`XMLTree`), the text
/// consumer writes JSON or `read D`'s text as it goes (`XMLText`), the nodes consumer
/// makes a binary plist (`XMLNodeReading`). A walk is specialized for its consumer: no
/// value goes through a table of functions.
///
/// A hook that answers nil (or false) leaves the document to the values' way: the walk
/// stops and answers nil. `r` is the reader, at the value's end; its `depth` is the
/// value's level (a container's contents are one deeper).
protocol XMLConsumer {
    /// What a value is read into: the tree's `PlistValue`, nothing for a consumer that writes.
    associatedtype Value
    /// A dictionary being read, and its key while its value is read.
    associatedtype Dict
    associatedtype Key
    /// An array being read.
    associatedtype List
    /// What the reader of the root's second half hands over (see `XMLWalk.read`).
    associatedtype Half

    mutating func openDict(_ r: XMLReader) -> Dict
    /// A key (its value's tag read already).
    mutating func key(_ text: XMLReader.Text, in dict: inout Dict, _ r: XMLReader) throws(PlistError) -> Key?
    mutating func add(_ key: Key, _ value: Value, to dict: inout Dict)
    mutating func closeDict(_ dict: Dict, _ r: XMLReader) -> Value?

    mutating func openList(_ r: XMLReader) -> List
    /// Before each element is read.
    mutating func nextElement(in list: inout List, _ r: XMLReader)
    mutating func add(_ value: Value, to list: inout List)
    mutating func closeList(_ list: List, _ r: XMLReader) -> Value?

    /// A string's text, not yet checked as UTF-8 (`r.validate`).
    mutating func string(_ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> Value?
    /// Any other scalar, which `r.scalar` reads: a bool's (empty) text, or an integer's,
    /// real's, date's or data's.
    mutating func scalar(_ kind: XMLReader.Kind, _ text: XMLReader.Text, _ r: XMLReader) throws(PlistError)
        -> Value?

    /// The root dictionary as the second half's reader starts it, inside it.
    mutating func openHalf(_ r: XMLReader) -> Dict
    /// What that reader read, for the first; nil leaves the document.
    mutating func half(_ dict: Dict) -> Half?
    /// The other half's entries, after the root's own.
    mutating func join(_ half: Half, to dict: inout Dict, _ r: XMLReader) -> Bool
}

/// An XML document read into a consumer: the one walk of its values every consumer shares,
/// and the one way a big document is read on two threads (`read`).
struct XMLWalk<C: XMLConsumer> {
    var r: XMLReader
    var c: C
    /// Waits for the second half's reader: what it read (nil when it left the document)
    /// and where the root's `</dict>` ended.
    private var secondHalf: (() -> Result<(half: C.Half?, end: Int), PlistError>)?

    init(_ reader: XMLReader, _ consumer: C) {
        r = reader
        c = consumer
    }

    /// Reads the document in `buffer` into a consumer made by `make` (given the offset its
    /// reader starts at): its root's tag, unless `root` refuses it, its value and its end.
    ///
    /// A big document is read on two threads through `inParallel`: one reader from the
    /// start and one, with a consumer of its own, from a line in the middle that looks like
    /// an entry of the root (`\n\t<key>`, as every writer indents one). The first stops
    /// there only if an entry of the root really starts there; then the second's entries,
    /// read exactly as the first would have read them, follow its own (`C.join`).
    /// Otherwise the first reads on to the end and the second's work is dropped. Either way
    /// the answer, and the first error, are those of one reader: the second's error counts
    /// only once the first has reached it. Big is `halvesFrom` bytes or more.
    static func read(
        _ buffer: UnsafeBufferPointer<UInt8>, inParallel: PropertyList.InParallel?,
        halvesFrom: Int = XMLReader.halvesFrom, _ make: (_ from: Int) -> C,
        root: (XMLReader.Tag) -> Bool = { _ in true }
    ) throws(PlistError) -> (consumer: C, value: C.Value)? {
        var walk = XMLWalk(XMLReader(buffer), make(0))
        var join: (() -> Result<XMLReader.SecondHalf, PlistError>)?
        // Joined on every way out, and only then or where the first half ends (this
        // function's scope, not the `if`'s, which would join before reading): the other
        // reader reads this buffer.
        defer { _ = join?() }
        if let inParallel, buffer.count >= halvesFrom,
            let split = XMLReader.entryLine(in: buffer, after: buffer.count / 2)
        {
            // Made here, not on the other thread: that thread's allocations come from a
            // malloc heap of its own, whose freed top stays resident (it grows in 16 MB
            // steps, the program's `ProcessPolicy`); made here, it is given back once let go of.
            let room = Room(make(split)), reader = walk.r
            let wait = inParallel {
                // Taken out, so that it is the only reference and grows in place.
                var other = XMLWalk(reader, room.consumer.take()!)
                other.r.pos = split
                other.r.depth = 1
                do throws(PlistError) {
                    var dict = other.c.openHalf(other.r)
                    room.half = try other.entries(into: &dict) ? other.c.half(dict) : nil
                    return .success(XMLReader.SecondHalf(end: other.r.pos))
                } catch {
                    return .failure(error)
                }
            }
            join = wait
            walk.r.stopAt = split
            walk.secondHalf = { wait().map { (half: room.half.take(), end: $0.end) } }
        }
        let (tag, wrapped) = try walk.r.rootTag()
        guard root(tag), let value = try walk.value(tag) else { return nil }
        try walk.r.end(wrapped: wrapped)
        return (walk.c, value)
    }

    /// The second half's consumer, made by the first thread and taken by the second, and
    /// what it read, handed back.
    private final class Room: @unchecked Sendable {
        var consumer: C?
        var half: C.Half?
        init(_ consumer: C) { self.consumer = consumer }
    }

    /// Reads the value whose tag was just read into the consumer; nil when it leaves the
    /// document.
    mutating func value(_ tag: XMLReader.Tag) throws(PlistError) -> C.Value? {
        switch tag.kind {
        case .dict:
            var dict = c.openDict(r)
            if !tag.selfClosing {
                try r.enter()
                defer { r.depth -= 1 }
                guard try entries(into: &dict) else { return nil }
                if r.stoppedAt, let wait = secondHalf {
                    // This reader stopped where the other began, at an entry of the root:
                    // the other's entries follow this one's, and it read the root's end.
                    // Joined once and let go of, so that what it read, once joined, can be too.
                    r.stoppedAt = false
                    secondHalf = nil
                    let (half, end) = try wait().get()
                    guard let half, c.join(half, to: &dict, r) else { return nil }
                    r.pos = end
                }
            }
            return c.closeDict(dict, r)
        case .array:
            var list = c.openList(r)
            if !tag.selfClosing {
                try r.enter()
                defer { r.depth -= 1 }
                while let element = try r.nextElement() {
                    c.nextElement(in: &list, r)
                    guard let value = try value(element) else { return nil }
                    c.add(value, to: &list)
                }
            }
            return c.closeList(list, r)
        case .true, .false:
            if !tag.selfClosing { try r.closeTag(tag.kind) }
            return try c.scalar(tag.kind, .slice(r.pos..<r.pos), r)
        case .string:
            guard !tag.selfClosing else { return try c.string(.slice(r.pos..<r.pos), r) }
            let text = try r.text()
            try r.closeTag(.string)
            return try c.string(text, r)
        case .key:
            throw r.fail(.keyOutsideDictionary)
        case .plist:
            throw r.fail(.nestedPlist)
        case .integer, .real, .date, .data:
            guard !tag.selfClosing else { throw r.fail(.emptyElement("\(XMLReader.name(tag.kind))")) }
            let text = try r.text()
            try r.closeTag(tag.kind)
            return try c.scalar(tag.kind, text, r)
        }
    }

    /// A dictionary's entries, up to and with its `</dict>`; for the root, only up to
    /// `stopAt` when an entry starts exactly there (`stoppedAt` is set). False when the
    /// consumer leaves the document.
    mutating func entries(into dict: inout C.Dict) throws(PlistError) -> Bool {
        var entry = XMLReader.Entry()
        while try r.nextEntry(&entry) {
            guard let key = try c.key(entry.key, in: &dict, r), let value = try value(entry.valueTag) else {
                return false
            }
            c.add(key, value, to: &dict)
        }
        return true
    }
}

extension XMLReader {
    /// What the reader of the root's second half tells the first: where the root's
    /// `</dict>` ended. What it read waits for the first in its consumer's hand-over
    /// (`XMLWalk.read`), so this one type serves every consumer's `InParallel`.
    package struct SecondHalf { var end: Int }

    /// The size from which a document given `inParallel` is read in halves: below it a
    /// second thread costs more than it saves. The readers take it as a parameter, so that
    /// tests read small documents in halves too.
    package static let halvesFrom = 1 << 20

    /// The `<` of the first `\n\t<key>` from `start` on, or nil.
    /// Line breaks are found eight bytes at a time: a document without such a line is
    /// looked at to its end.
    static func entryLine(in text: UnsafeBufferPointer<UInt8>, after start: Int) -> Int? {
        let reader = XMLReader(text)
        var i = start
        while i < text.count {
            i = ByteWords.first(in: text, from: i) {
                ByteWords.equal($0, UInt8(ascii: "\n"))
            } matching: {
                $0 == UInt8(ascii: "\n")
            }
            if reader.matches(i, "\n\t<key>") { return i + 2 }
            i += 1
        }
        return nil
    }
}
