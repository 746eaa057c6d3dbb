import DesktopSettings
import SettingsStore

enum DomainsCommand {
    /// `domains`: one line, the names sorted and joined by ", "; then the desktop's
    /// schemas the user set a value of (`gsettings:…`), where the desktop has any. A
    /// desktop that cannot be read is a warning: the plist domains are still listed.
    static func domains(_ context: inout Context, _ arguments: [Token]) throws {
        try expectAtMost(0, arguments)
        var names = try context.store.domainNames()
        do throws(DesktopError) {
            names += try DesktopStore(environment: context.store.environment).domainsWithValues()
        } catch {
            context.warn(error.message)
        }
        context.print(names.joined(separator: ", "))
    }
}
