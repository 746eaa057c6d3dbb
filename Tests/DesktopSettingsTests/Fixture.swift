import Foundation
import SettingsStore

@testable import DesktopSettings

/// The test schemas: `Fixtures/org.example.desktop.gschema.xml`, compiled by GLib's own
/// glib-compile-schemas into `Fixtures/gschemas.compiled`, with what gsettings printed of
/// them (`defaults.tsv`, `ranges.txt`) and what `dconf read` printed of values written as
/// text (`printing.tsv`).
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .path

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    /// Tab-separated lines as pairs.
    static func pairs(_ name: String) throws -> [(String, String)] {
        try text(name).split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// A store that sees only the fixture's schemas and an empty dconf.
    static func environment(_ extra: [String: String] = [:]) -> Environment {
        Environment(
            [
                "GSETTINGS_SCHEMA_DIR": folder, "HOME": "/nonexistent", "XDG_DATA_HOME": "/nonexistent",
                "XDG_DATA_DIRS": "/nonexistent", "XDG_CONFIG_HOME": "/nonexistent", "DCONF_PROFILE": "/nonexistent",
            ].merging(extra) { $1 })
    }

    static func schema() throws -> DesktopSchema {
        try SchemaSource(environment: environment()).schema("org.example.desktop")
    }
}
