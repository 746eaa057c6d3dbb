import PlistModel

/// The values of an XML property list (`XMLReader.read`). While `building` is false a
/// value is checked as strictly as any other but no string, array or dictionary is built
/// for it (`XMLReader.lookup`: a value nobody asked for).
struct XMLTree: XMLConsumer {
    var building = true
    var progress: (() -> Void)?  // `read(utf8:)`'s, told every `XMLNodeReading.progressEntries` entries

    func openDict(_ r: XMLReader) -> PlistDictionary {
        var dict = PlistDictionary()
        // The root's entries, room for as many as the text could hold: memory only
        // reserved is never touched, where growing by doubling copied and touched it all.
        if building, r.depth == 0 { dict.reserveCapacity((r.bytes.count - r.pos) / 48) }
        return dict
    }

    func key(_ text: XMLReader.Text, in dict: inout PlistDictionary, _ r: XMLReader) throws(PlistError) -> String? {
        if let progress, (dict.count + 1) % XMLNodeReading.progressEntries == 0 { progress() }
        guard building else {
            try r.validate(text)
            return ""
        }
        return try r.string(text)
    }

    func add(_ key: String, _ value: PlistValue, to dict: inout PlistDictionary) {
        if building { dict.append(key: key, value: value) }
    }

    func closeDict(_ dict: PlistDictionary, _ r: XMLReader) -> PlistValue? { .dict(dict) }

    func openList(_ r: XMLReader) -> [PlistValue] { [] }
    func nextElement(in list: inout [PlistValue], _ r: XMLReader) {}
    func add(_ value: PlistValue, to list: inout [PlistValue]) { if building { list.append(value) } }
    func closeList(_ list: [PlistValue], _ r: XMLReader) -> PlistValue? { .array(list) }

    func string(_ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> PlistValue? {
        guard building else {
            try r.validate(text)
            return .string("")
        }
        return .string(try r.string(text))
    }

    func scalar(_ kind: XMLReader.Kind, _ text: XMLReader.Text, _ r: XMLReader) throws(PlistError) -> PlistValue? {
        try r.scalar(kind, text)
    }

    func openHalf(_ r: XMLReader) -> PlistDictionary {
        var dict = PlistDictionary()
        dict.reserveCapacity((r.bytes.count - r.pos) / 48)
        return dict
    }

    func half(_ dict: PlistDictionary) -> PlistDictionary? { dict }

    func join(_ half: PlistDictionary, to dict: inout PlistDictionary, _ r: XMLReader) -> Bool {
        dict.append(contentsOf: half)
        return true
    }
}

extension XMLReader {
    package static func read(
        _ input: [UInt8], inParallel: PropertyList.InParallel? = nil, halvesFrom: Int = halvesFrom
    ) throws(PlistError) -> PlistValue {
        let text = try TextDecoding.utf8(input, format: .xml)
        return try read(utf8: text.span, inParallel: inParallel, halvesFrom: halvesFrom)
    }

    /// `read` of UTF-8 text as it is (a mapping's: `progress` gives back the pages read).
    package static func read(
        utf8 text: Span<UInt8>, inParallel: PropertyList.InParallel? = nil, halvesFrom: Int = halvesFrom,
        progress: (() -> Void)? = nil
    ) throws(PlistError) -> PlistValue {
        try text.withUnsafeBufferPointer { buffer throws(PlistError) in
            // The tree leaves no document: there is always a value.
            let tree = try XMLWalk.read(buffer, inParallel: inParallel, halvesFrom: halvesFrom) { _ in
                XMLTree(progress: progress)
            }
            return tree!.value
        }
    }

    /// The value of one top-level key, reading the whole document as strictly as `read`
    /// but building only that value. `root` is built in full only when it is no dictionary.
    static func lookup(_ input: [UInt8], key: String) throws(PlistError) -> (root: PlistValue, found: PlistValue?) {
        let (root, found, _) = try lookup(try TextDecoding.utf8(input, format: .xml), wanted: Array(key.utf8))
        return (root, found)
    }

    /// `lookup`, with the places of the top-level keys (`PropertyList.lookupPlaces`).
    static func lookupPlaces(_ input: [UInt8], key: String, seed: SipHash13.Seed) throws(PlistError) -> (
        root: PlistValue, found: PlistValue?, places: [KeyPlace]?
    ) {
        let text = try TextDecoding.utf8(input, format: .xml)
        // Places are offsets in the file: only text that is the file's own bytes has them.
        let asIs = text.count == input.count && input.count < Int(UInt32.max) && text == input
        return try lookup(text, wanted: Array(key.utf8), places: asIs ? seed : nil)
    }

    /// `places`: the seed to hash the keys of the places by, when they are wanted; the
    /// places are nil once a key is found that a read could not go straight to.
    private static func lookup(_ text: [UInt8], wanted: [UInt8], places seed: SipHash13.Seed? = nil)
        throws(PlistError) -> (root: PlistValue, found: PlistValue?, places: [KeyPlace]?)
    {
        try text.withUnsafeBufferPointer { buffer throws(PlistError) in
            var walk = XMLWalk(XMLReader(buffer), XMLTree(building: false))
            var found: PlistValue?
            var places: [KeyPlace]? = seed == nil ? nil : []
            let (tag, wrapped) = try walk.r.rootTag()
            var root = PlistValue.dict(PlistDictionary())
            if tag.kind != .dict {
                walk.c.building = true
                root = try walk.value(tag)!
            } else if !tag.selfClosing {
                try walk.r.enter()
                var entry = Entry()
                while try walk.r.nextEntry(&entry) {
                    let (keyText, valueFrom, valueTag) = (entry.key, entry.valueFrom, entry.valueTag)
                    let match = walk.r.withBytes(keyText) { $0.elementsEqual(wanted) }
                    if !match { try walk.r.validate(keyText) }
                    walk.c.building = match
                    let value = try walk.value(valueTag)
                    if match { found = value }
                    if let seed, places != nil {
                        guard let place = walk.r.place(keyText, valueFrom, seed: seed) else {
                            places = nil
                            continue
                        }
                        places!.append(place)
                    }
                }
                walk.r.depth -= 1
            }
            try walk.r.end(wrapped: wrapped)
            return (root, found, places)
        }
    }

    /// Where a top-level key and its value (just read, up to `pos`) lie; nil for a key a
    /// read could not find again as `<key>text</key>`.
    private func place(_ keyText: Text, _ valueFrom: Int, seed: SipHash13.Seed) -> KeyPlace? {
        guard case .slice(let range) = keyText, range.lowerBound >= 5, matches(range.lowerBound - 5, "<key>"),
            matches(range.upperBound, "</key>")
        else { return nil }
        let hash = KeyPlace.hash(of: UnsafeBufferPointer(rebasing: bytes[range]), seed: seed)
        return KeyPlace(
            hash: hash, from: UInt32(range.lowerBound), to: UInt32(range.upperBound), valueFrom: UInt32(valueFrom),
            valueTo: UInt32(pos))
    }

    /// See `PropertyList.value(at:key:xml:)`. `window` starts at the key's `<key>`.
    static func value(at place: KeyPlace, key: String, window: UnsafeBufferPointer<UInt8>) -> KeyPlace.Found {
        let keyLength = Int(place.to) - Int(place.from)
        let valueFrom = Int(place.valueFrom) - Int(place.from) + 5
        guard place.from >= 5, keyLength >= 0, valueFrom >= 5 + keyLength + 6, valueFrom < window.count else {
            return .broken
        }
        var walk = XMLWalk(XMLReader(window), XMLTree())
        guard walk.r.matches(0, "<key>"), walk.r.matches(5 + keyLength, "</key>") else { return .broken }
        guard key.utf8.elementsEqual(window[5..<(5 + keyLength)]) else { return .otherKey }
        // As deep as the file's own reading had it: inside the root dictionary.
        walk.r.depth = 1
        walk.r.pos = valueFrom
        do throws(PlistError) {
            let tag = try walk.r.openTag()
            guard tag.kind != .key, tag.kind != .plist, let value = try walk.value(tag) else { return .broken }
            return walk.r.pos == window.count ? .value(value) : .broken
        } catch {
            return .broken
        }
    }
}
