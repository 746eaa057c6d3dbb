import SettingsCore

enum PathsCommand {
    /// `paths D`: a JSON Pointer for every scalar and empty collection, one per line.
    static func paths(_ context: inout Context, _ arguments: [Token]) throws {
        guard let domainToken = arguments.first else { throw CLIError.usage("paths needs a domain") }
        try expectAtMost(1, arguments)
        let domain = try domainName(domainToken)
        guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
            throw CLIError.domainMissing(domainToken.text, file: domain.file)
        }
        for path in KeyPath.all(in: values, leavesOnly: true) { context.print(path.pointer) }
    }
}
