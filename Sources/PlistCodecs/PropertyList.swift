import PlistModel
/// Reading and writing whole property lists in any of the three formats.
///
///     let (value, format) = try PropertyList.read(bytes)    // format sniffed
///     let xml = PropertyList.encode(value, as: .xml)
public enum PropertyList {
    /// Reads bytes in whichever format they are: `bplist00` is binary, text starting
    /// with `<` is XML, other text is OpenStep.
    ///
    ///     try PropertyList.read(Array("{ volume = 70; }".utf8))   //=> (["volume": "70"], .openStep)
    ///
    /// - Parameter bytes: a whole file; XML and OpenStep may be UTF-8 or UTF-16 with a BOM.
    /// - Returns: the root value and the format it was in.
    /// - Throws: `PlistError`: the code of the first rule broken, with its line (text) or
    ///   byte offset (binary); `.unknownFormat` for bytes like none of the three.
    public static func read(_ bytes: [UInt8]) throws(PlistError) -> (PlistValue, PlistFormat) {
        let format = sniff(bytes)
        return (try read(bytes, as: format), format)
    }

    /// What a lookup of one top-level key found.
    public enum Lookup: Sendable, Equatable {
        /// The root is a dictionary; the key's value, or nil when it has none.
        case dictionary(PlistValue?)
        /// The root is of another type.
        case notADictionary(ValueType)
    }

    /// The value of one top-level key. The whole input is read and checked as strictly
    /// as `read` does, but only that value is built: a one-key `read` of a big domain
    /// costs little more memory than the file.
    ///
    ///     try PropertyList.lookup(bytes, key: "volume").0   //=> .dictionary(.int(70))
    ///
    /// - Parameters:
    ///   - bytes: a whole file, in any of the three formats.
    ///   - key: the top-level key, compared as UTF-8 bytes.
    /// - Returns: the key's value (nil when absent) or the root's type when it is no
    ///   dictionary, and the format.
    /// - Throws: `PlistError`, as `read`.
    public static func lookup(_ bytes: [UInt8], key: String) throws(PlistError) -> (Lookup, PlistFormat) {
        let format = sniff(bytes)
        let (root, found): (PlistValue, PlistValue?)
        switch format {
        case .xml: (root, found) = try XMLReader.lookup(bytes, key: key)
        case .binary: (root, found) = try BinaryReader.lookup(bytes, key: key)
        case .openStep:
            root = try OpenStepReader.read(bytes)
            if case .dict(let dict) = root { found = dict[key] } else { found = nil }
        }
        guard case .dict = root else { return (.notADictionary(root.type), format) }
        return (.dictionary(found), format)
    }

    /// Runs `work` on another thread and gives back a function that waits for its answer
    /// (the store's threads: the codecs start none of their own).
    package typealias InParallel = (
        _ work: @escaping () -> Result<XMLReader.SecondHalf, PlistError>
    ) -> () -> Result<XMLReader.SecondHalf, PlistError>

    /// `read`, a big XML document on two threads at once through `inParallel` (see
    /// `XMLReader`): the same answer, and the same first error.
    package static func read(
        _ bytes: [UInt8], inParallel: InParallel?, halvesFrom: Int = XMLReader.halvesFrom
    ) throws(PlistError) -> (PlistValue, PlistFormat) {
        let format = sniff(bytes)
        guard format == .xml, let inParallel else { return try read(bytes) }
        return (try XMLReader.read(bytes, inParallel: inParallel, halvesFrom: halvesFrom), format)
    }

    /// The value in `bytes`, read as `format` (no sniffing).
    ///
    /// - Throws: `PlistError`, with the code and place of the first fault.
    public static func read(_ bytes: [UInt8], as format: PlistFormat) throws(PlistError) -> PlistValue {
        switch format {
        case .xml: return try XMLReader.read(bytes)
        case .binary: return try BinaryReader.read(bytes)
        case .openStep: return try OpenStepReader.read(bytes)
        }
    }

    /// XML or binary; OpenStep is read but never written (Apple's writers dropped it too).
    ///
    ///     try PropertyList.encode(["volume": 70], as: .binary).prefix(8)   //=> "bplist00" as bytes
    ///
    /// - Parameters:
    ///   - value: the root; any value (defaults' files hold a dictionary).
    ///   - format: `.xml` or `.binary`.
    ///   - capacity: the expected size (the old file's, say): reserving it up front spares
    ///     the copies, and the doubled buffer, of growing to it.
    /// - Throws: `PlistError.unsupported(.openStep)` for OpenStep.
    public static func encode(_ value: PlistValue, as format: PlistFormat, capacity: Int = 4096) throws(PlistError)
        -> [UInt8]
    {
        switch format {
        case .xml: return XMLWriter.encode(value, capacity: capacity)
        case .binary: return BinaryWriter.encode(value, capacity: capacity)
        case .openStep: throw PlistError.unsupported(format)
        }
    }

    /// `bplist0` and any eighth byte is binary; text whose first character is `<` is XML, unless it is an
    /// OpenStep data literal such as `<0a0b>`; other text is OpenStep.
    package static func sniff(_ bytes: [UInt8]) -> PlistFormat {
        if BinaryReader.hasHeader(bytes) { return .binary }
        guard let text = try? TextDecoding.utf8(bytes, format: .xml) else { return .xml }
        var i = 0
        while i < text.count, isSpace(text[i]) { i += 1 }
        guard i < text.count, text[i] == UInt8(ascii: "<") else { return .openStep }
        i += 1
        while i < text.count, hexDigitValue(text[i]) != nil || isSpace(text[i]) { i += 1 }
        return i < text.count && text[i] == UInt8(ascii: ">") ? .openStep : .xml
    }
}
