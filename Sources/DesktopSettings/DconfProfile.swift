import SettingsStore

/// The dconf databases a user's values come from, as dconf's profile lists them: the
/// user's own database first (the one dconf's service writes), then read-only ones an
/// administrator compiled (`system-db:NAME` in /etc/dconf/db, `file-db:PATH`), whose
/// values are the `system` layer and whose `.locks` the `managed` one.
package struct DconfProfile {
    /// The user's database file, `$XDG_CONFIG_HOME/dconf/user` unless the profile names
    /// another; nil when the profile has none.
    package let userDatabase: String?
    /// The read-only databases, first the one that wins.
    package let systemDatabases: [String]

    package init(environment: Environment) {
        let configHome =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment.home + "/.config"
        var lines = ["user-db:user"]
        if let name = environment["DCONF_PROFILE"], !name.isEmpty {
            let path = name.hasPrefix("/") ? name : "/etc/dconf/profile/" + name
            lines = Self.lines(path) ?? []
        } else if let profile = Self.lines("/etc/dconf/profile/user") {
            lines = profile
        }
        var user: String?
        var system: [String] = []
        // The first database line may be the user's, the one dconf writes; a line that is
        // none is passed over, as dconf passes over it.
        for line in lines {
            if user == nil, system.isEmpty, line.hasPrefix("user-db:") {
                user = configHome + "/dconf/" + line.dropFirst("user-db:".count)
            } else if line.hasPrefix("system-db:") {
                system.append("/etc/dconf/db/" + line.dropFirst("system-db:".count))
            } else if line.hasPrefix("file-db:") {
                system.append(String(line.dropFirst("file-db:".count)))
            }
        }
        (userDatabase, systemDatabases) = (user, system)
    }

    /// A profile file's lines, comments and blanks left out; nil if it cannot be read.
    private static func lines(_ path: String) -> [String]? {
        guard let (bytes, _) = try? FileSystem.readFile(path) else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingSpaces
            return text.isEmpty ? nil : text
        }
    }
}

/// One dconf database file read: its values by full path, and its locks.
struct DconfDatabase {
    let path: String
    private let table: GVDB.Table?
    private let locks: GVDB.Table?

    /// An empty database in place of the file at `path` (one that cannot be read).
    init(nothingAt path: String) { (self.path, table, locks) = (path, nil, nil) }

    /// The file at `path`; an absent file is an empty database, as dconf takes it.
    init(_ path: String) throws(DesktopError) {
        self.path = path
        do throws(DesktopError) {
            table = try GVDB.file(path)
            locks = try table?.item(Array(".locks".utf8))?.subtable()
        } catch {
            throw error.file(path)
        }
    }

    /// The value at a key's full path (`/org/gnome/desktop/interface/color-scheme`).
    func value(_ key: String) throws(DesktopError) -> Variant? {
        do throws(DesktopError) {
            guard let item = try table?.item(Array(key.utf8)), item.type == UInt8(ascii: "v") else { return nil }
            return try item.value()
        } catch {
            throw error.file(path)
        }
    }

    func isLocked(_ key: String) throws(DesktopError) -> Bool {
        do throws(DesktopError) { return try locks?.item(Array(key.utf8)) != nil } catch { throw error.file(path) }
    }

    /// Every value at or under a folder path (`/org/gnome/`), by full path.
    func values(under folder: String) throws(DesktopError) -> [(key: String, value: Variant)] {
        guard let table else { return [] }
        let prefix = Array(folder.utf8)
        var found: [(String, Variant)] = []
        do throws(DesktopError) {
            let keys = try table.allKeys()
            for (item, key) in zip(table.allItems, keys) where item.type == UInt8(ascii: "v") {
                guard key.starts(with: prefix), key.first == UInt8(ascii: "/") else { continue }
                found.append((String(decoding: key, as: UTF8.self), try item.value()))
            }
        } catch {
            throw error.file(path)
        }
        return found
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
