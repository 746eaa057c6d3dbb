import PlistCodecs
import PlistModel
import SettingsStore

/// The desktop's settings as a round carries them (`gsettings:SCHEMA` domains named by a
/// `sync carry` pattern): read and written through the desktop's own store, which the
/// command line gives the round, so this library neither reads dconf nor runs it.
///
/// A desktop domain travels as a plist domain does, per key, with two differences. Its
/// schema decides: a domain whose schema is not installed here, or a key this machine's
/// schema lacks (an older version), stays in the repository untouched (neither imported,
/// nor exported, nor taken for removed), as a key kept local does; a key dconf locks
/// here stays too. And its live values are the user's own (what `gsettings reset` would
/// remove), so a key back at its default is a removed key.
package protocol SyncDesktop {
    /// The desktop domains holding a value the user set, by name (`gsettings:ID`).
    func domains() throws(DesktopProblem) -> [String]
    /// The domain's keys as this machine's schema has them, and those dconf locks here;
    /// nil when its schema is not installed here.
    func keys(of name: String) -> (known: [String], locked: [String])?
    /// The values the user set in the domain.
    func values(of name: String) throws(DesktopProblem) -> PlistDictionary
    /// Why this machine's schema refuses `value` for `key`; nil when it takes it.
    func refusal(of name: String, key: String, value: PlistValue) -> String?
    /// Sets (a value) and resets (nil) keys of the domain, each checked first.
    func write(_ name: String, _ changes: [(key: String, value: PlistValue?)]) throws(DesktopProblem)
}

/// Why the desktop could not be read or written, in one line.
package struct DesktopProblem: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}

extension SyncRound {
    /// The prefix of the desktop domains a round carries.
    static let desktopPrefix = "gsettings:"

    /// A fixed schema's domain (`gsettings:ID`, an ID as GLib allows one: letters, digits,
    /// `.` and `-`), the only desktop domains that travel; a relocatable schema's path or
    /// a `dconf:` folder has no schema to check another machine's values against.
    static func isDesktopName(_ name: String) -> Bool {
        guard name.hasPrefix(desktopPrefix) else { return false }
        let id = name.utf8.dropFirst(desktopPrefix.utf8.count)
        return !id.isEmpty
            && id.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }

    /// The carried desktop domains, each as a live domain whose bytes are its user values
    /// encoded as the repository keeps them (read once: the apply reads them again).
    func readDesktop(_ rules: SyncRules, into live: inout [String: Live], _ report: inout SyncReport) {
        guard let desktop, rules.patterns.contains(where: { $0.hasPrefix(Self.desktopPrefix) }) else { return }
        let names: [String]
        do throws(DesktopProblem) { names = try desktop.domains() } catch {
            report.notes.append("\(error.message): the desktop's settings left out of this round")
            report.desktopUnread = true
            return
        }
        for name in names where Self.isDesktopName(name) && rules.carries(name) {
            guard case .success(let local) = localKeys(name, rules) else { continue }
            let key = DomainKey.folded(name)
            do throws(DesktopProblem) {
                guard let bytes = Plan.encoded(try desktop.values(of: name)) else { continue }
                live[key] = Live(
                    name: name, print: SyncState.print(bytes, local.text), local: local, path: "", held: bytes)
            } catch {
                report.notes.append("\(error.message): \(name) left out of this round")
                live[key] = Live(name: name, print: nil, local: local, path: "", held: nil)
            }
        }
    }

    /// The keys of a desktop domain that stay here: the ignore file's, those dconf locks
    /// here, and those this machine's schema lacks.
    func desktopLocalKeys(_ name: String, _ rules: SyncRules) -> Result<LocalKeys, RuleProblem> {
        guard let keys = desktop?.keys(of: name) else {
            return .failure(RuleProblem(message: "its schema is not installed here"))
        }
        var local = rules.localKeys(name, schema: nil, managed: nil)
        local.names.formUnion(keys.locked.map(ExactKey.init))
        local.known = Set(keys.known.map(ExactKey.init))
        return .success(local)
    }

    /// Applies one desktop domain's merge to the user's values as they are now, as
    /// `apply` does a plist domain's: a key written since the round read it keeps the new
    /// value, one this machine's schema refuses stays as it is here. Returns the keys
    /// refused, with their value here; throws when the desktop could not be written.
    func applyDesktop(_ domain: Plan.Domain, _ report: inout SyncReport, refusals: inout [String])
        throws(DesktopProblem) -> [(key: String, kept: PlistValue?)]
    {
        guard let desktop else { throw DesktopProblem("no desktop to write to") }
        let current = try desktop.values(of: domain.name)
        var changes: [(key: String, value: PlistValue?)] = []
        var refused: [(key: String, kept: PlistValue?)] = []
        PlistDictionary.walk([current, domain.liveBefore, domain.liveAfter]) { key, values in
            let (now, before, after) = (values[0], values[1], values[2])
            guard before != after, now == before else { return }
            if let after, let problem = desktop.refusal(of: domain.name, key: key, value: after) {
                report.refused.insert(domain.name)
                refusals.append(Self.refusalNote(domain.name, key, after, problem))
                refused.append((key, before))
            } else {
                changes.append((key, after))
            }
        }
        if !changes.isEmpty {
            try desktop.write(domain.name, changes)
            report.imported.append(domain.name)
        }
        return refused
    }
}
