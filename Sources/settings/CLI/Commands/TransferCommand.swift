import PlistModel
import PlistCodecs
import SettingsStore

/// `import` and `export`: whole domains to and from property-list or JSON files.
enum TransferCommand {
    /// `import D PATH|- [--json] [--replace | --merge] [--exact]`: each top-level key of
    /// the dictionary at PATH (any plist format, or JSON) is set in the domain, and keys
    /// the file does not have are kept, as macOS imports (CFPreferencesSetMultiple with
    /// nothing to remove). `--replace` makes the file the whole domain; `--merge` merges
    /// dictionaries deeply, key by key inside them.
    static func importDomain(_ context: inout Context, _ arguments: [Token]) throws {
        var (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "import"))
        context.takeForce(&arguments)
        guard !(options.replace && options.merge) else { throw CLIError.usage("give one of --replace and --merge") }
        guard arguments.count >= 2 else {
            throw CLIError.usage("import needs a domain and a path (or - for standard input)")
        }
        try expectAtMost(2, arguments)
        let domain = try context.domainName(arguments[0])
        let (bytes, name) = try importBytes(arguments[1].text, &context)
        // Into a domain with no file, JSON is written straight as XML, its values never
        // built (and only then: a domain that has a file is not written so twice);
        // whatever that way cannot write exactly goes on.
        var document: EncodedDomain?
        func encoded() -> EncodedDomain? {
            document = JSONReader.encodedDomain(bytes)
            return document
        }
        if options.json, try context.create(domain, encoded) {
            context.keepUntilExit((bytes, document))
            return
        }
        var imported = try importedDictionary(bytes, json: options.json, name: name)
        try context.update(domain) { values in
            if options.json, !options.exact,
                case .dict(let kept) = JSONIntegers.keepingReals(.dict(imported), where: .dict(values))
            {
                imported = kept
            }
            let result =
                options.replace ? imported : options.merge ? merged(values, imported) : topLevelMerged(values, imported)
            if values == result { return false }
            values = result
            return true
        }
        context.keepUntilExit(imported)
    }

    /// An import's file (`-`: standard input) and the name its errors give it.
    static func importBytes(_ path: String, _ context: inout Context) throws -> (bytes: [UInt8], name: String) {
        let name = path == "-" ? "standard input" : path
        guard path == "-" else { return (try PlistFiles.read(path), name) }
        do throws(Errno) { return (try context.streams.input(), name) } catch {
            throw StoreError.unreadable(path: name, error)
        }
    }

    /// An import's dictionary: JSON (`--json`, whose top level must be an object) or any
    /// property-list format.
    static func importedDictionary(_ bytes: [UInt8], json: Bool, name: String) throws -> PlistDictionary {
        guard json else { return try PlistFiles.dictionary(from: bytes, name: name) }
        let value: PlistValue
        do throws(JSONError) { value = try JSONReader.read(bytes) } catch { throw CLIError.json(error, source: name) }
        guard case .dict(let dict) = value else {
            throw CLIError.json(.value(.topLevelNotObject(value.type), pointer: ""), source: name)
        }
        return dict
    }

    /// `old` with every top-level key of `new` set to `new`'s value.
    static func topLevelMerged(_ old: PlistDictionary, _ new: PlistDictionary) -> PlistDictionary {
        old.overlaid(by: new) { _, incoming in incoming }
    }

    /// `old` with every key of `new` set, dictionaries in both merged key by key.
    static func merged(_ old: PlistDictionary, _ new: PlistDictionary) -> PlistDictionary {
        old.overlaid(by: new) { existing, incoming in
            if case .dict(let inner) = existing, case .dict(let more) = incoming { return .dict(merged(inner, more)) }
            return incoming
        }
    }

    /// `export D PATH|- [--json]`: a binary plist at PATH, or XML on standard output; with
    /// `--json`, JSON in either place. A domain that does not exist exports as an empty
    /// dictionary, status 0, as CFPreferences gives an unknown domain (Salt's macdefaults
    /// reads a domain this way before its first write). `--with-defaults` exports what
    /// readers see: the machine-wide layers and the schema's defaults applied.
    static func exportDomain(_ context: inout Context, _ arguments: [Token]) throws {
        let (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "export"))
        guard arguments.count >= 2 else {
            throw CLIError.usage("export needs a domain and a path (or - for standard output)")
        }
        try expectAtMost(2, arguments)
        let domain = try context.domainName(arguments[0])
        let path = arguments[1].text
        // JSON is pretty for a person reading it.
        let pretty = context.streams.outputIsTerminal && path == "-"
        // Refused before anything is written: XML with such a character would be refused
        // by every reader, our own included.
        func checkedForXML(_ values: PlistDictionary) throws {
            for entry in values.entries {
                if case .controlCharacter(let c)? = PropertyList.unstorable(
                    key: entry.key, value: entry.value, format: .xml)
                {
                    throw CLIError.notXML(domain: arguments[0].text, character: c)
                }
            }
        }
        // Streamed in pieces, to standard output or into the file: a big domain is never
        // whole in memory as text, nor as values when its file can be written straight.
        func written(_ text: DomainText) throws {
            if path == "-" {
                do { try text.write { try context.streams.output(Array($0)) } } catch let error as Errno {
                    throw CLIError.outputFailed(error)
                }
            } else {
                context.note(
                    try PlistFiles.write(to: path, lockTimeout: context.store.lockTimeout) { try text.write(to: $0) })
            }
            context.keepUntilExit(text)
        }
        let form: DomainText.Form = options.json ? .json : path == "-" ? .xml : .binary
        guard options.withDefaults || (options.json && pretty) else {
            try written(
                try context.store.output(of: domain, host: context.host, as: form) { values in
                    if form == .xml { try checkedForXML(values) }
                })
            return
        }
        var values = try context.store.load(domain, host: context.host)?.values ?? PlistDictionary()
        if options.withDefaults { values = context.mergedView(of: domain, user: values) }
        guard options.json, pretty else {
            if form == .xml { try checkedForXML(values) }
            try written(DomainText(values, as: form))
            return
        }
        context.keepUntilExit(values)
        // Pretty, for a person at a terminal: streamed in pieces too.
        do {
            try JSONWriter.encode(.dict(values), pretty: true, chunk: 1 << 20) { piece throws(Errno) in
                try context.streams.output(piece)
            }
        } catch let error as Errno {
            throw CLIError.outputFailed(error)
        }
    }
}
