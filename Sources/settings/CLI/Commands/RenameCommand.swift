import PlistModel
import PlistCodecs
import SettingsStore

enum RenameCommand {
    /// `rename D OLD NEW`: moves a value to a new key, in one locked change.
    static func rename(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        context.takeForce(&arguments)
        guard arguments.count >= 3 else { throw CLIError.usage("rename needs a domain, an old key and a new key") }
        try expectAtMost(3, arguments)
        let domain = try context.domainName(arguments[0])
        let (old, new) = (arguments[1].text, arguments[2].text)
        try context.refuseManaged([old, new], in: domain)
        try context.update(domain) { values in
            guard let value = values.removeValue(forKey: old) else {
                throw CLIError.renameMissing(domain: arguments[0].text, key: old)
            }
            values[new] = value
            return true
        }
    }
}
