// libFuzzer entry point for one reader, chosen at compile time with
// -D FUZZ_XML, -D FUZZ_BINARY, -D FUZZ_OPENSTEP or -D FUZZ_JSON. The core's three modules are
// built with testing enabled (scripts/fuzz.sh), so it calls the internal readers directly.
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

//
// Every input must either parse or throw a PlistError (JSONError): a trap, a hang or a sanitizer
// report is a finding. A value that parses must also survive our own writers and read
// back equal, the one-key lookup must agree with the full read, and the binary editor
// must give what rebuilding the tree gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    #if FUZZ_XML
        let value = try? XMLReader.read(bytes)
        // What `export D PATH` writes straight from the text is what the values' way writes.
        if let straight = try? XMLReader.binary(bytes) {
            guard let value, straight == BinaryWriter.encode(value) else {
                fatalError("XML written straight as binary differs from its values' binary")
            }
        }
    #elseif FUZZ_BINARY
        let value = try? BinaryReader.read(bytes)
    #elseif FUZZ_JSON
        let value = try? JSONReader.read(bytes)
        // What the JSON reader takes, the JSON writer gives back exactly, compact or pretty.
        if let value {
            for pretty in [false, true] {
                guard (try? JSONReader.read(JSONWriter.encode(value, pretty: pretty))) == value else {
                    fatalError("JSON round trip changed a value")
                }
            }
        }
        // What an import writes straight as XML is what the values' way writes, key for key.
        if let document = JSONReader.encodedDomain(bytes) {
            guard case .dict(let dict)? = value, document.xml == XMLWriter.encode(.dict(dict)),
                (0..<document.count).map(document.key) == dict.keys,
                (0..<document.count).allSatisfy({ document.value($0) == dict[document.key($0)] })
            else { fatalError("JSON written straight as XML differs from its values' XML") }
        }
    #else
        let value = try? OpenStepReader.read(bytes)
    #endif
    // The one-key lookup must judge every input as the full reader does.
    #if FUZZ_XML || FUZZ_BINARY
        let looked = try? PropertyList.lookup(bytes, key: "a").0
        switch (try? PropertyList.read(bytes).0, looked) {
        case (nil, nil): break
        case (.dict(let d)?, .dictionary(let v)?): if d["a"] != v { fatalError("lookup found another value") }
        case (let root?, .notADictionary(let type)?): if root.type != type { fatalError("lookup saw another root") }
        default: fatalError("lookup and read disagree on validity")
        }
    #endif
    // The binary editor must give what rebuilding the tree gives, for a set and a removal.
    #if FUZZ_BINARY
        if case .dict(let dict)? = value, let (_, _, layout) = try? BinaryReader.lookupWithLayout(bytes.span, key: "a"),
            let editor = BinaryEditor(bytes.span, layout: layout, key: "a")
        {
            for change in [PlistValue.int(1), nil] {
                var expected = dict
                expected["a"] = change
                var out: [UInt8] = []
                // A failure is a finding: the reader checked the file the editor was made from.
                try! editor.write(change, from: bytes.span, chunk: 64) { out.append(contentsOf: $0) }
                guard (try? BinaryReader.read(out)) == .dict(expected) else {
                    fatalError("the editor changed another value")
                }
            }
        }
    #endif
    if let value {
        for format in [PlistFormat.xml, .binary] {
            guard let encoded = try? PropertyList.encode(value, as: format),
                let back = try? PropertyList.read(encoded, as: format)
            else {
                fatalError("our \(format.name) writer produced what our reader refuses")
            }
            // XML has one real type; compare through a second XML pass instead.
            if format == .binary && back != value { fatalError("binary round trip changed a value") }
        }
    }
    return 0
}
