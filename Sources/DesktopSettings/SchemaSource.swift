import PlistModel
import SettingsStore

/// Where GLib finds compiled GSettings schemas, in its order: `$GSETTINGS_SCHEMA_DIR`'s
/// folders, then `$XDG_DATA_HOME/glib-2.0/schemas`, then each of `$XDG_DATA_DIRS`'. The
/// first folder whose `gschemas.compiled` holds a schema gives it, as in GLib. Each file
/// is read once, when first asked for. A file that is not a compiled schema file at all is
/// passed over, as GLib passes over it (one stray cache must not hide every schema), and
/// kept in `skipped` for a warning.
package final class SchemaSource {
    package let folders: [String]
    private var roots: [String: GVDB.Table?] = [:]
    /// The files passed over, and why.
    package private(set) var skipped: [DesktopError] = []

    package init(environment: Environment) {
        var folders: [String] = []
        if let dirs = environment["GSETTINGS_SCHEMA_DIR"] {
            folders += dirs.split(separator: ":").map(String.init)
        }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment.home + "/.local/share"
        folders.append(dataHome + "/glib-2.0/schemas")
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share/:/usr/share/"
        for dir in dataDirs.split(separator: ":") where dir.hasPrefix("/") {
            folders.append((dir.hasSuffix("/") ? String(dir.dropLast()) : String(dir)) + "/glib-2.0/schemas")
        }
        var seen = Set<String>()
        self.folders = folders.filter { seen.insert($0).inserted }
    }

    /// The root table of one folder's compiled file; nil if it has none.
    private func root(_ folder: String) throws(DesktopError) -> GVDB.Table? {
        if let known = roots[folder] { return known }
        var table: GVDB.Table? = nil
        do throws(DesktopError) { table = try GVDB.file(folder + "/gschemas.compiled", skippingUnreadable: true) } catch
        {
            skipped.append(error)
        }
        roots[folder] = table
        return table
    }

    /// Passes over a folder's file found corrupt when read further than its header.
    private func passOver(_ folder: String, _ error: DesktopError) {
        roots[folder] = .some(nil)
        skipped.append(error.file(folder + "/gschemas.compiled"))
    }

    /// Whether any folder has a compiled file.
    package func hasSchemas() throws(DesktopError) -> Bool {
        for folder in folders where try root(folder) != nil { return true }
        return false
    }

    /// The schema with this id, from the first folder that has it.
    package func schema(_ id: String) throws(DesktopError) -> DesktopSchema {
        for folder in folders {
            guard let table = try root(folder) else { continue }
            do throws(DesktopError) {
                guard let item = try table.item(Array(id.utf8)) else { continue }
                return try DesktopSchema(id: id, table: try item.subtable(), folder: folder)
            } catch {
                passOver(folder, error)
            }
        }
        guard try hasSchemas() else { throw skipped.first ?? .noSchemas(searched: folders) }
        throw .noSuchSchema(id)
    }

    /// Every schema's id, sorted, each once.
    package func ids() throws(DesktopError) -> [String] {
        var ids = Set<String>()
        for folder in folders {
            guard let table = try root(folder) else { continue }
            do throws(DesktopError) {
                var found: [String] = []
                for item in table.allItems where item.type == UInt8(ascii: "H") {
                    found.append(String(decoding: try item.key(), as: UTF8.self))
                }
                ids.formUnion(found)
            } catch {
                passOver(folder, error)
            }
        }
        return ids.sorted { byteOrderPrecedes($0, $1) }
    }

    /// Every schema, each from the folder that gives it.
    package func all() throws(DesktopError) -> [DesktopSchema] {
        var schemas: [DesktopSchema] = []
        for id in try ids() { schemas.append(try schema(id)) }
        return schemas
    }
}
