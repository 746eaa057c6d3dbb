import PlistModel
import PlistCodecs
import SettingsStore

enum FindCommand {
    /// `find WORD`: every domain whose name, keys or string values contain WORD, any
    /// case. A domain whose name matches is shown whole; otherwise the top-level keys
    /// under which the word appears.
    static func find(_ context: inout Context, _ arguments: [Token]) throws {
        guard let word = arguments.first?.text else { throw CLIError.usage("find needs a word") }
        try expectAtMost(1, arguments)
        let needle = word.lowercased()
        var found = false
        for entry in try ReadCommand.everyDomain(&context).sortedEntries {
            guard case .dict(let values) = entry.value else { continue }
            var matches = PlistDictionary()
            if entry.key.lowercased().contains(needle) {
                matches = values
            } else {
                for item in values.sortedEntries
                where item.key.lowercased().contains(needle) || contains(item.value, needle) {
                    matches[item.key] = item.value
                }
            }
            guard !matches.isEmpty else { continue }
            found = true
            context.output.append(contentsOf: "Found \(matches.count) keys in domain '\(entry.key)': ".utf8)
            context.output.append(contentsOf: DefaultsPrinter.render(.dict(matches)))
        }
        if !found {
            context.error.append(contentsOf: "No domain, key, nor value containing '\(word)'\n".utf8)
        }
    }

    /// Whether a string anywhere in `value`, or a key of a nested dictionary, contains `needle`.
    private static func contains(_ value: PlistValue, _ needle: String) -> Bool {
        switch value {
        case .string(let s): return s.lowercased().contains(needle)
        case .array(let elements): return elements.contains { contains($0, needle) }
        case .dict(let dict):
            return dict.sortedEntries.contains { $0.key.lowercased().contains(needle) || contains($0.value, needle) }
        default: return false
        }
    }
}
