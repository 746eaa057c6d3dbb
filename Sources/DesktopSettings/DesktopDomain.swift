/// A desktop domain as a command line names it: `gsettings:SCHEMA` for a GSettings schema,
/// `gsettings:SCHEMA:/PATH/` for a relocatable one at its path (gsettings' own spelling),
/// and `dconf:/PATH/` for a dconf folder, whose keys are every key under it, named by
/// their path below it (`desktop/interface/color-scheme` under `dconf:/org/gnome/`). The
/// prefixes cannot be a plist domain's name, which never holds a colon before a slash.
package struct DesktopDomain: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case schema(id: String, path: String?)
        case folder(String)
    }

    /// The name as it was given, for messages.
    package let name: String
    package let kind: Kind

    package static let schemaPrefix = "gsettings:", folderPrefix = "dconf:"

    /// Whether a domain argument names a desktop domain rather than a plist one.
    /// In any case: `GSETTINGS:…` is refused as a misspelling, never a plist file's name.
    package static func isDesktop(_ name: String) -> Bool {
        let start = name.prefix(schemaPrefix.count).lowercased()
        return start.hasPrefix(schemaPrefix) || start.hasPrefix(folderPrefix)
    }

    package init(_ name: String) throws(DesktopError) {
        self.name = name
        guard name.hasPrefix(Self.schemaPrefix) || name.hasPrefix(Self.folderPrefix) else {
            throw .badName(name, "gsettings: and dconf: are written in lower case")
        }
        if name.hasPrefix(Self.folderPrefix) {
            let path = String(name.dropFirst(Self.folderPrefix.count))
            guard Self.isFolder(path) else { throw .badPath(path) }
            kind = .folder(path)
            return
        }
        let rest = name.dropFirst(Self.schemaPrefix.count)
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let id = String(parts[0])
        guard !id.isEmpty else {
            throw .badName(name, "a schema's id follows gsettings:, as gsettings:org.gnome.desktop.interface")
        }
        guard id.utf8.allSatisfy({ Self.idBytes.contains($0) }) else { throw .noSuchSchema(id) }
        if parts.count == 2 {
            let path = String(parts[1])
            guard Self.isFolder(path) else { throw .badPath(path) }
            kind = .schema(id: id, path: path)
        } else {
            kind = .schema(id: id, path: nil)
        }
    }

    private static let idBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_".utf8)

    /// A dconf folder: starts and ends with `/`, with no `//`, each name in it one
    /// `isKeyName` allows.
    package static func isFolder(_ path: String) -> Bool {
        path.hasPrefix("/") && path.hasSuffix("/")
            && (path == "/"
                || path.dropFirst().dropLast().split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                    isKeyName(String($0))
                })
    }

    /// A key's name (or a folder's): not empty, no `/` (dconf's rule), and one dconf's own
    /// `dump` and `load` can carry, as GLib's key files hold keys: no `=`, `[`, `]`, line
    /// break or other control character, no space first or last.
    package static func isKeyName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last, first != " ", last != " "
        else {
            return false
        }
        return name.unicodeScalars.allSatisfy { scalar in
            !"/=[]".unicodeScalars.contains(scalar) && scalar.value >= 0x20 && scalar.value != 0x7F
        }
    }

    /// A key below a dconf folder: its folders' names and its own, each `isKeyName`.
    package static func isRelativeKey(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isKeyName(String($0)) }
    }
}
