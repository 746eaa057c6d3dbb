import PlistModel
import PlistCodecs
import SettingsStore

/// `import` and `export`: whole domains to and from property-list or JSON files.
enum TransferCommand {
    /// `import D PATH|- [--json] [--merge] [--exact]`: the dictionary at PATH (any plist
    /// format, or JSON) becomes the domain, or with `--merge` is merged into it deeply.
    static func importDomain(_ context: inout Context, _ arguments: [Token]) throws {
        var (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "import"))
        context.takeForce(&arguments)
        guard arguments.count >= 2 else {
            throw CLIError.usage("import needs a domain and a path (or - for standard input)")
        }
        try expectAtMost(2, arguments)
        let domain = try context.domainName(arguments[0])
        let path = arguments[1].text
        let name = path == "-" ? "standard input" : path
        let bytes: [UInt8]
        if path == "-" {
            do throws(Errno) { bytes = try context.streams.input() } catch {
                throw StoreError.unreadable(path: name, error)
            }
        } else {
            bytes = try PlistFiles.read(path)
        }
        var imported: PlistDictionary
        if options.json {
            let value: PlistValue
            do throws(JSONError) { value = try JSONReader.read(bytes) } catch {
                throw CLIError.json(error, source: name)
            }
            guard case .dict(let dict) = value else {
                throw CLIError.json(.value(.topLevelNotObject(value.type), pointer: ""), source: name)
            }
            imported = dict
        } else {
            imported = try PlistFiles.dictionary(from: bytes, name: name)
        }
        try context.update(domain) { values in
            if options.json, !options.exact,
                case .dict(let kept) = JSONIntegers.keepingReals(.dict(imported), where: .dict(values))
            {
                imported = kept
            }
            let result = options.merge ? merged(values, imported) : imported
            if values == result { return false }
            values = result
            return true
        }
        context.keepUntilExit(imported)
    }

    /// `old` with every key of `new` set, dictionaries in both merged key by key.
    static func merged(_ old: PlistDictionary, _ new: PlistDictionary) -> PlistDictionary {
        var result = old
        for entry in new.uniqueEntries {
            if case .dict(let inner)? = result[entry.key], case .dict(let incoming) = entry.value {
                result[entry.key] = .dict(merged(inner, incoming))
            } else {
                result[entry.key] = entry.value
            }
        }
        return result
    }

    /// `export D PATH|- [--json]`: a binary plist at PATH, or XML on standard output; with
    /// `--json`, JSON in either place.
    static func exportDomain(_ context: inout Context, _ arguments: [Token]) throws {
        let (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "export"))
        guard arguments.count >= 2 else {
            throw CLIError.usage("export needs a domain and a path (or - for standard output)")
        }
        try expectAtMost(2, arguments)
        let domain = try context.domainName(arguments[0])
        guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
            throw CLIError.domainMissing(arguments[0].text, file: domain.file)
        }
        context.keepUntilExit(values)
        let path = arguments[1].text
        if options.json {
            // Streamed in pieces: a big domain is not held a second time as text.
            let pretty = context.streams.outputIsTerminal && path == "-"
            if path == "-" {
                do {
                    try JSONWriter.encode(.dict(values), pretty: pretty, chunk: 1 << 20) { piece throws(Errno) in
                        try context.streams.output(piece)
                    }
                } catch let error as Errno {
                    throw CLIError.outputFailed(error)
                }
            } else {
                context.note(
                    try PlistFiles.write(to: path, lockTimeout: context.store.lockTimeout) { write in
                        try JSONWriter.encode(.dict(values), pretty: pretty, chunk: 1 << 20) { try write($0[...]) }
                    })
            }
        } else if path == "-" {
            context.output.append(contentsOf: try PropertyList.encode(.dict(values), as: .xml))
        } else {
            context.note(
                try PlistFiles.write(
                    try PropertyList.encode(.dict(values), as: .binary), to: path,
                    lockTimeout: context.store.lockTimeout))
        }
    }
}
