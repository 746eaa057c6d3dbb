import PlistModel
import PlistCodecs
import SettingsStore

enum DeleteCommand {
    /// `delete D` removes the domain's file; `delete D K` one key; `delete D -p POINTER`
    /// one place inside a value (an array closes the gap).
    static func delete(_ context: inout Context, _ arguments: [Token]) throws {
        var (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "delete"))
        context.takeForce(&arguments)
        guard let domainToken = arguments.first else { throw CLIError.usage("delete needs a domain") }
        try expectAtMost(options.path == nil ? 2 : 1, arguments)
        let domain = try context.domainName(domainToken)
        guard let path = try options.placeInside() ?? arguments.dropFirst().first.map({ PlistKeyPath([$0.text]) })
        else {
            _ = context.layers(for: domain)
            guard try context.store.remove(domain, host: context.host) else {
                throw CLIError.deleteMissing(domain: domainToken.text)
            }
            return
        }
        try context.refuseManaged([path.segments[0]], in: domain)
        var removed = false
        try context.update(domain, key: path.segments[0]) { value in
            removed = try path.remove(in: &value)
            return removed
        }
        guard removed else {
            // A missing key or place is named.
            if options.path == nil { throw CLIError.keyMissing(domain: domainToken.text, key: path.segments[0]) }
            throw CLIError.pairMissing(domain: domainToken.text, key: path.pointer)
        }
    }
}
