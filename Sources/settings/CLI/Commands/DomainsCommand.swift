import SettingsStore

enum DomainsCommand {
    /// `domains`: one line, the names sorted and joined by ", ".
    static func domains(_ context: inout Context, _ arguments: [Token]) throws {
        try expectAtMost(0, arguments)
        context.print(try context.store.domainNames().joined(separator: ", "))
    }
}
