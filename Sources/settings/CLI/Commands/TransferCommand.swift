import SettingsCore

/// `import` and `export`: whole domains to and from property-list files.
enum TransferCommand {
    /// `import D PATH|-`: the dictionary at PATH (any format) becomes the domain.
    static func importDomain(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count >= 2 else { throw CLIError.usage("import needs a domain and a path (or - for standard input)") }
        try expectAtMost(2, arguments)
        let domain = try domainName(arguments[0])
        let path = arguments[1].text
        let bytes = try PlistFiles.read(path)
        let imported = try PlistFiles.dictionary(from: bytes, name: path == "-" ? "standard input" : path)
        try context.store.update(domain, host: context.host) { values in
            if values == imported { return false }
            values = imported
            return true
        }
    }

    /// `export D PATH|-`: a binary plist at PATH, or XML on standard output.
    static func exportDomain(_ context: inout Context, _ arguments: [Token]) throws {
        guard arguments.count >= 2 else { throw CLIError.usage("export needs a domain and a path (or - for standard output)") }
        try expectAtMost(2, arguments)
        let domain = try domainName(arguments[0])
        guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
            throw CLIError.domainMissing(arguments[0].text)
        }
        let path = arguments[1].text
        if path == "-" {
            context.output.append(contentsOf: try PropertyList.encode(.dict(values), as: .xml))
        } else {
            try PlistFiles.write(try PropertyList.encode(.dict(values), as: .binary), to: path)
        }
    }
}
