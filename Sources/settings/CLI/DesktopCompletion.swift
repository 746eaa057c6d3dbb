import DesktopSettings
import SettingsStore

/// Completion of desktop domains: the installed schemas' names after `gsettings:`, the
/// user's dconf folders after `dconf:`, a schema's keys, and a key's choices.
enum DesktopCompletion {
    /// Desktop domain names for a word being typed that starts one (`g`, `gsettings:org.`,
    /// `dconf:/`); none for an empty word, which plist domains fill.
    static func domains(_ current: String, _ context: Context) -> [(String, String)] {
        let store = DesktopStore(environment: context.store.environment)
        var names: [(String, String)] = []
        let schemaPrefix = DesktopDomain.schemaPrefix, folderPrefix = DesktopDomain.folderPrefix
        if !current.isEmpty, schemaPrefix.hasPrefix(current) || current.hasPrefix(schemaPrefix) {
            for schema in (try? store.schemas.all()) ?? [] {
                names.append(
                    schema.path == nil
                        ? (schemaPrefix + schema.id + ":/", "relocatable: add its path")
                        : (schemaPrefix + schema.id, ""))
            }
        }
        if !current.isEmpty, folderPrefix.hasPrefix(current) || current.hasPrefix(folderPrefix) {
            names += ((try? store.folders()) ?? []).map { (folderPrefix + $0, "") }
        }
        return names
    }

    /// A schema's keys, or the keys under a folder.
    static func keys(of domain: String, _ context: Context) -> [String] {
        let store = DesktopStore(environment: context.store.environment)
        guard let place = try? store.place(try DesktopDomain(domain)) else { return [] }
        if let schema = place.schema { return ((try? schema.keys()) ?? []).map(\.name) }
        return ((try? store.effectiveValues(place)) ?? []).map(\.key)
    }

    /// A key's choices (an enum's names, a flag's, `true` and `false`), or its range as a message.
    static func values(of domain: String, key: String, _ context: Context) -> ([(String, String)], String?) {
        let store = DesktopStore(environment: context.store.environment)
        guard let place = try? store.place(try DesktopDomain(domain)), let found = try? store.key(place, key) else {
            return ([], nil)
        }
        switch found.allowed {
        case .enumeration(let names), .choices(let names), .flags(let names): return (names.map { ($0, "") }, nil)
        case .range: return ([], "value (\(found.rangeText.dropFirst("range ".count)))")
        case .any:
            if found.type == .boolean { return (["true", "false"].map { ($0, "") }, nil) }
            if found.type == .string { return ([], "value (a string, as it is: no quotes needed)") }
            return ([], "value (\(found.type.phrase), as GVariant text: \(found.defaultValue.gvariantText))")
        }
    }
}
