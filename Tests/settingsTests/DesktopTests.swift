import Foundation
import XCTest

@testable import DesktopSettings
@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsStore

/// Issue 52: the desktop's settings under the same verbs, against the real thing: GLib's
/// `gsettings` and dconf's `dconf` and service, in a private D-Bus session per test, on
/// every key of Debian's gsettings-desktop-schemas.
final class DesktopTests: XCTestCase {
    var h: Harness!
    var session: DesktopSession!
    override func setUpWithError() throws {
        h = Harness()
        session = try DesktopSession(h)
    }
    override func tearDown() {
        session?.stop()
        h.cleanUp()
    }

    /// The installed fixed schemas of the desktop (`org.gnome.desktop.*`), each with a
    /// value for every key that differs from its default where its rule allows one.
    func desktopSchemas() throws -> [(schema: DesktopSchema, values: [(DesktopKey, Variant)])] {
        let source = SchemaSource(environment: Environment(h.environment(session.variables)))
        var found: [(DesktopSchema, [(DesktopKey, Variant)])] = []
        for id in try source.ids() where id.hasPrefix("org.gnome.desktop.") {
            let schema = try source.schema(id)
            guard schema.path != nil else { continue }
            found.append((schema, try schema.keys().map { ($0, Self.changed($0)) }))
        }
        XCTAssertGreaterThan(found.count, 30, "gsettings-desktop-schemas must be installed")
        return found
    }

    /// A value the key allows, other than its default where that is simple to find.
    static func changed(_ key: DesktopKey) -> Variant {
        let value = key.defaultValue
        switch (key.allowed, value) {
        case (.enumeration(let names), _), (.choices(let names), .string):
            return names.first { Variant.string($0) != value }.map(Variant.string) ?? value
        case (.flags(let names), .array(let element, let items)):
            return .array(element, items.isEmpty ? names.prefix(1).map(Variant.string) : [])
        case (.range(let low, let high), _): return value == low ? high : low
        case (.any, .bool(let b)): return .bool(!b)
        case (.any, .signed(let n, let c)): return .signed(n == 0 ? 1 : 0, c)
        case (.any, .unsigned(let n, let c)): return .unsigned(n == 0 ? 1 : 0, c)
        case (.any, .double(let d)): return .double(d + 0.5)
        case (.any, .string(_, UInt8(ascii: "s"))): return .string("settings test")
        case (.any, .array(.basic(UInt8(ascii: "s")), let items)): return .array(.string, items + [.string("x'y")])
        default: return value
        }
    }

    /// `gsettings list-recursively` of every schema, as schema → key → printed value.
    func listed() -> [String: [String: String]] {
        var values: [String: [String: String]] = [:]
        for line in session.tool(["gsettings", "list-recursively"]).stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            if parts.count == 3 { values[parts[0], default: [:]][parts[1]] = parts[2] }
        }
        return values
    }

    /// Every key of every desktop schema, written by `settings import --json` (typed by
    /// the schema), reads back the same in `gsettings`: types, enums, flags, tuples.
    func testEveryKeyWrittenIsWhatGsettingsGets() throws {
        var keys = 0
        let schemas = try desktopSchemas()
        for (schema, values) in schemas {
            var json = PlistDictionary()
            for (key, value) in values { json[key.name] = value.plistValue(typed: true) }
            let file = h.file(
                schema.id + ".json", String(decoding: JSONWriter.encode(.dict(json), pretty: false), as: UTF8.self))
            let r = session.run(["import", "gsettings:" + schema.id, file, "--json"])
            XCTAssertEqual(r.status, 0, "\(schema.id): \(r.stderr)")
        }
        let got = listed()
        for (schema, values) in schemas {
            for (key, value) in values {
                XCTAssertEqual(got[schema.id]?[key.name], value.gvariantText, "\(schema.id) \(key.name)")
                keys += 1
            }
        }
        XCTAssertGreaterThan(keys, 300)
    }

    /// `write` of each kind of type, one key at a time, as a user types it.
    func testWriteTakesWhatAUserTypes() throws {
        let cases: [([String], String, String, String)] = [
            (
                ["org.gnome.desktop.interface", "color-scheme", "prefer-dark"], "org.gnome.desktop.interface",
                "color-scheme", "'prefer-dark'"
            ),
            (
                ["org.gnome.desktop.session", "idle-delay", "600"], "org.gnome.desktop.session", "idle-delay",
                "uint32 600"
            ),
            (
                ["org.gnome.desktop.session", "idle-delay", "-int", "900"], "org.gnome.desktop.session", "idle-delay",
                "uint32 900"
            ),
            (
                ["org.gnome.desktop.input-sources", "sources", "[('xkb', 'us'), ('xkb', 'de')]"],
                "org.gnome.desktop.input-sources", "sources", "[('xkb', 'us'), ('xkb', 'de')]"
            ),
            (
                ["org.gnome.desktop.input-sources", "xkb-options", "-array", "caps:ctrl_modifier", "compose:ralt"],
                "org.gnome.desktop.input-sources", "xkb-options", "['caps:ctrl_modifier', 'compose:ralt']"
            ),
            (
                ["org.gnome.desktop.interface", "text-scaling-factor", "1.25"], "org.gnome.desktop.interface",
                "text-scaling-factor", "1.25"
            ),
            (
                ["org.gnome.desktop.privacy", "disable-camera", "-bool", "YES"], "org.gnome.desktop.privacy",
                "disable-camera", "true"
            ),
            (
                ["org.gnome.desktop.wm.preferences", "button-layout", "appmenu:close"],
                "org.gnome.desktop.wm.preferences", "button-layout", "'appmenu:close'"
            ),
            (
                ["org.gnome.desktop.interface", "font-name", "it's 12"], "org.gnome.desktop.interface", "font-name",
                "\"it's 12\""
            ),
        ]
        for (words, schema, key, expected) in cases {
            let r = session.run(["write", "gsettings:" + words[0]] + words.dropFirst())
            XCTAssertEqual(r.status, 0, "\(words): \(r.stderr)")
            XCTAssertEqual(session.gsettings(schema, key), expected, "\(words)")
            XCTAssertEqual(session.ok("read", "gsettings:" + schema, key, "--gvariant"), expected + "\n")
        }
        XCTAssertEqual(
            session.ok("read-type", "gsettings:org.gnome.desktop.session", "idle-delay"), "Type is integer (u)\n")
        XCTAssertEqual(
            session.ok("read", "gsettings:org.gnome.desktop.input-sources", "sources", "--json"),
            #"[["xkb","us"],["xkb","de"]]"# + "\n")
    }

    /// What gsettings and dconf write, `settings` reads: each key as `--gvariant` and as
    /// JSON; and `export --json` of a folder is `dconf dump` of it.
    func testWhatGLibWritesSettingsReads() throws {
        var keyFile = ""
        var expected: [(String, DesktopKey, Variant)] = []
        for (schema, values) in try desktopSchemas() {
            keyFile += "[\(schema.path!.dropFirst().dropLast())]\n"
            for (key, value) in values {
                keyFile += "\(key.name)=\(value.gvariantText)\n"
                expected.append((schema.id, key, value))
            }
            keyFile += "\n"
        }
        let load = session.tool(["dconf", "load", "/"], stdin: Data(keyFile.utf8))
        XCTAssertEqual(load.status, 0, load.stderr)
        // Each key read alone: every key in CI (`SETTINGS_DESKTOP_ALL=1`), a tenth here; the
        // whole domains are compared below either way.
        let all = ProcessInfo.processInfo.environment["SETTINGS_DESKTOP_ALL"] == "1"
        for (n, (id, key, value)) in expected.enumerated() where all || n % 10 == 0 {
            XCTAssertEqual(
                session.ok("read", "gsettings:" + id, key.name, "--gvariant"), value.gvariantText + "\n",
                "\(id) \(key.name)")
            let json = session.ok("read", "gsettings:" + id, key.name, "--json")
            XCTAssertEqual(try JSONReader.read(Array(json.utf8)), value.plistValue(typed: true), "\(id) \(key.name)")
        }
        for (schema, values) in try desktopSchemas() {
            let json = session.ok("read", "gsettings:" + schema.id, "--json")
            var expected = PlistDictionary()
            for (key, value) in values where value != key.defaultValue {
                expected[key.name] = value.plistValue(typed: true)
            }
            guard case .dict(let read) = try JSONReader.read(Array(json.utf8)) else { return XCTFail(json) }
            XCTAssertEqual(
                read.sortedEntries.filter { expected[$0.key] != nil }.map(\.key), expected.sortedEntries.map(\.key))
            for entry in expected.entries { XCTAssertEqual(read[entry.key], entry.value, "\(schema.id) \(entry.key)") }
        }
        // export --json of /org/gnome/ against dconf dump of it, key by key.
        let exported = try JSONReader.read(Array(session.ok("export", "dconf:/org/gnome/", "-", "--json").utf8))
        guard case .dict(let dict) = exported else { return XCTFail("not a dictionary") }
        var dumped: [String: String] = [:], section = ""
        for line in session.tool(["dconf", "dump", "/org/gnome/"]).stdout.split(separator: "\n") {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            dumped[(section == "/" ? "" : section + "/") + parts[0]] = parts[1]
        }
        XCTAssertEqual(dict.count, dumped.count)
        for entry in dict.entries {
            XCTAssertEqual(try Variant.natural(entry.value).gvariantText, dumped[entry.key], entry.key)
        }
    }

    /// `range` and `describe` print what gsettings prints, for every key in CI
    /// (`SETTINGS_DESKTOP_ALL=1`) or a sample of each rule here.
    func testRangeAndDescribeAreGsettings() throws {
        let all = ProcessInfo.processInfo.environment["SETTINGS_DESKTOP_ALL"] == "1"
        var seen = Set<String>(), checked = 0
        for (schema, values) in try desktopSchemas() {
            for (key, _) in values {
                let rule = "\(key.allowed)".prefix(5) + key.type.text
                guard all || seen.insert(String(rule)).inserted else { continue }
                let range = session.tool(["gsettings", "range", schema.id, key.name]).stdout
                XCTAssertEqual(
                    session.ok("range", "gsettings:" + schema.id, key.name), range, "\(schema.id) \(key.name)")
                let about = session.tool(["gsettings", "describe", schema.id, key.name]).stdout
                if about != "(null)\n" {
                    XCTAssertEqual(
                        session.ok("describe", "gsettings:" + schema.id, key.name), about, "\(schema.id) \(key.name)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    /// A value out of range, not among the choices or of the wrong type is refused by
    /// both, and nothing changes; `delete` is `gsettings reset`.
    func testRefusesWhatGsettingsRefusesAndDeleteResets() throws {
        for (schema, key, text) in [
            ("org.gnome.desktop.interface", "color-scheme", "dark"),
            ("org.gnome.desktop.interface", "text-scaling-factor", "9.0"),
            ("org.gnome.desktop.session", "idle-delay", "-5"),
            ("org.gnome.desktop.privacy", "disable-camera", "maybe"),
            ("org.gnome.desktop.input-sources", "sources", "[('xkb')]"),
        ] {
            XCTAssertNotEqual(session.tool(["gsettings", "set", schema, key, text]).status, 0, "\(key) \(text)")
            let before = session.gsettings(schema, key)
            let r = session.run(
                ["write", "gsettings:" + schema, key, "--", text].filter { $0 != "--" || text.hasPrefix("-") })
            XCTAssertEqual(r.status, 2, "\(key) \(text): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertEqual(session.gsettings(schema, key), before)
        }
        XCTAssertEqual(
            session.run(["write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark"]).status, 0)
        XCTAssertEqual(
            session.ok("read", "gsettings:org.gnome.desktop.interface", "color-scheme", "--source"), "user\n")
        XCTAssertEqual(session.run(["delete", "gsettings:org.gnome.desktop.interface", "color-scheme"]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
        XCTAssertEqual(session.tool(["dconf", "read", "/org/gnome/desktop/interface/color-scheme"]).stdout, "")
        XCTAssertEqual(
            session.ok("read", "gsettings:org.gnome.desktop.interface", "color-scheme", "--source"), "default\n")
    }

    /// A running application sees a write at once: `gsettings monitor` reports it.
    func testARunningApplicationSeesTheWrite() throws {
        let out = Pipe()
        let monitor = try session.start(
            ["gsettings", "monitor", "org.gnome.desktop.interface", "color-scheme"], program: "/usr/bin/env",
            output: out)
        defer { monitor.terminate() }
        // The monitor has subscribed once a change by gsettings itself reaches it.
        var seen = ""
        let deadline = Date().addingTimeInterval(10)
        var wrote = false
        while Date() < deadline, !seen.contains("prefer-dark") {
            if !wrote {
                Thread.sleep(forTimeInterval: 0.3)
                XCTAssertEqual(
                    session.run(["write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark"])
                        .status, 0)
                wrote = true
            }
            seen += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        XCTAssertEqual(seen, "color-scheme: 'prefer-dark'\n")
    }

    /// dconf's locks are the managed layer and its system databases the system layer;
    /// a locked key is refused (4), as dconf refuses it.
    func testLocksAreManagedAndSystemDatabasesAreTheSystemLayer() throws {
        let keys = h.files + "/site.d"
        try FileManager.default.createDirectory(atPath: keys + "/locks", withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\ncolor-scheme='prefer-dark'\nfont-name='Sans 9'\n".write(
            toFile: keys + "/00-site", atomically: true, encoding: .utf8)
        try "/org/gnome/desktop/interface/color-scheme\n".write(
            toFile: keys + "/locks/00", atomically: true, encoding: .utf8)
        XCTAssertEqual(session.tool(["dconf", "compile", h.files + "/site", keys]).status, 0)
        let profile = h.file("profile", "user-db:user\nfile-db:\(h.files)/site\n")
        let locked = try DesktopSession(h, extra: ["DCONF_PROFILE": profile])
        defer { locked.stop() }
        let d = "gsettings:org.gnome.desktop.interface"
        XCTAssertEqual(locked.ok("read", d, "font-name", "--source"), "system\n")
        XCTAssertEqual(locked.ok("read", d, "font-name"), "Sans 9\n")
        XCTAssertEqual(locked.ok("read", d, "color-scheme", "--source"), "managed\n")
        let r = locked.run(["write", d, "color-scheme", "default"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("locked"), r.stderr)
        XCTAssertEqual(locked.gsettings("org.gnome.desktop.interface", "color-scheme"), "'prefer-dark'")
        XCTAssertEqual(locked.run(["write", d, "font-name", "Sans 11"]).status, 0)
        XCTAssertEqual(locked.gsettings("org.gnome.desktop.interface", "font-name"), "'Sans 11'")
    }

    /// With no desktop (no D-Bus session, no dconf, no schemas) a desktop domain says so
    /// in one line with status 3; plist domains behave as ever. A corrupt schema file is
    /// named; a missing schema or key is status 1.
    func testNoDesktopIsOneLineAndStatusThree() throws {
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": h.files]
        for (words, extra, status, words2) in [
            (
                ["write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark"], noBus, Int32(3),
                "D-Bus"
            ),
            (
                ["read", "gsettings:org.gnome.desktop.interface", "color-scheme"],
                ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"], 3, "no GSettings schemas"
            ),
            (["read", "gsettings:org.example.none", "k"], [:], 1, "no GSettings schema named org.example.none"),
            (["read", "gsettings:org.gnome.desktop.interface", "nokey"], [:], 1, "has no key nokey"),
            (
                ["read", "gsettings:org.gnome.Terminal.Legacy.Profile", "font"],
                ["GSETTINGS_SCHEMA_DIR": Self.fixtures], 1, "no GSettings schema"
            ),
            (
                ["read", "gsettings:org.example.desktop.profile", "font"], ["GSETTINGS_SCHEMA_DIR": Self.fixtures], 2,
                "relocatable"
            ),
            (["read", "dconf:/a//b/", "k"], [:], 2, "not a dconf folder"),
            (["write", "dconf:/a/", "k=v", "1"], [:], 2, "not a dconf key name"),
            (["write", "dconf:/a/", "line\nbreak", "1"], [:], 2, "not a dconf key name"),
            (["write", "dconf:/a[1]/", "k", "1"], [:], 2, "not a dconf folder"),
        ] {
            let r = session.run(words, extra: extra)
            XCTAssertEqual(r.status, status, "\(words) \(extra): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(words2), r.stderr)
        }
        // No dconf program is needed (dconf's service is spoken to on the bus); a bus that
        // has no dconf service says so, in one line, with status 3.
        XCTAssertEqual(
            session.run(
                ["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "30"], extra: ["PATH": "/nonexistent"]
            ).status, 0)
        let bare = try DesktopSession(h, tag: "bare", dconf: "")
        defer { bare.stop() }
        let unserved = bare.run(["write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark"])
        XCTAssertEqual(unserved.status, 3, unserved.stderr)
        XCTAssertEqual(unserved.stderr.split(separator: "\n").count, 1, unserved.stderr)
        XCTAssertTrue(unserved.stderr.contains("dconf's service cannot be reached"), unserved.stderr)
        // Reads need no session: the files are read directly.
        XCTAssertEqual(
            session.run(["read", "gsettings:org.gnome.desktop.interface", "color-scheme"], extra: noBus).stdout,
            "default\n")
        // Plist domains are untouched by any of it.
        XCTAssertEqual(session.run(["write", "com.example.app", "k", "1"], extra: noBus).status, 0)
        XCTAssertEqual(session.run(["read", "com.example.app", "k"], extra: noBus).stdout, "1\n")
        // A corrupt compiled file is named, in one line.
        let folder = h.files + "/corrupt"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("GVariant".utf8 + Array(repeating: 0xFF, count: 40)).write(
            to: URL(fileURLWithPath: folder + "/gschemas.compiled"))
        // One that is not a compiled file at all is passed over, as GLib passes over it:
        // the schema comes from the next folder, and a warning names the file.
        let r = session.run(
            ["read", "gsettings:org.gnome.desktop.interface", "color-scheme"], extra: ["GSETTINGS_SCHEMA_DIR": folder])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "default\n")
        XCTAssertTrue(r.stderr.contains(folder + "/gschemas.compiled is corrupt"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        // One cut short (its header whole, its tables not) is passed over too.
        let cut = h.files + "/cut"
        try FileManager.default.createDirectory(atPath: cut, withIntermediateDirectories: true)
        let real = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/glib-2.0/schemas/gschemas.compiled"))
        try real.prefix(3000).write(to: URL(fileURLWithPath: cut + "/gschemas.compiled"))
        let fromNext = session.run(
            ["read", "gsettings:org.gnome.desktop.interface", "color-scheme"], extra: ["GSETTINGS_SCHEMA_DIR": cut])
        XCTAssertEqual(fromNext.status, 0, fromNext.stderr)
        XCTAssertEqual(fromNext.stdout, "default\n")
        XCTAssertEqual(fromNext.stderr.split(separator: "\n").count, 1, fromNext.stderr)
        // The only one there is: named, status 3.
        let only = session.run(
            ["read", "gsettings:org.gnome.desktop.interface", "color-scheme"],
            extra: ["GSETTINGS_SCHEMA_DIR": folder, "XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"])
        XCTAssertEqual(only.status, 3, only.stderr)
        XCTAssertTrue(only.stderr.contains(folder + "/gschemas.compiled is corrupt"), only.stderr)
        XCTAssertEqual(only.stderr.split(separator: "\n").count, 1, only.stderr)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DesktopSettingsTests/Fixtures").path

    /// A relocatable schema at its path; a dconf folder of keys under it, typed by what
    /// they hold; `domains` lists the desktop schemas the user set a value of.
    func testRelocatableSchemasFoldersAndDomains() throws {
        let env = ["GSETTINGS_SCHEMA_DIR": Self.fixtures]
        let d = "gsettings:org.example.desktop.profile:/org/example/profiles/one/"
        XCTAssertEqual(session.run(["write", d, "columns", "120"], extra: env).status, 0)
        XCTAssertEqual(session.tool(["dconf", "read", "/org/example/profiles/one/columns"]).stdout, "120\n")
        XCTAssertEqual(session.run(["read", d, "columns"], extra: env).stdout, "120\n")
        XCTAssertEqual(session.run(["write", d, "columns", "5"], extra: env).status, 2)
        XCTAssertEqual(session.ok("write", "dconf:/my/app/", "volume", "5"), "")
        XCTAssertEqual(session.ok("write", "dconf:/my/app/", "name", "hello world"), "")
        XCTAssertEqual(session.ok("write", "dconf:/my/app/", "volume", "7"), "")
        XCTAssertEqual(session.tool(["dconf", "read", "/my/app/volume"]).stdout, "7\n")
        XCTAssertEqual(session.tool(["dconf", "read", "/my/app/name"]).stdout, "'hello world'\n")
        XCTAssertEqual(session.ok("read", "dconf:/my/", "--json"), #"{"app/name":"hello world","app/volume":7}"# + "\n")
        XCTAssertEqual(session.ok("write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark"), "")
        XCTAssertEqual(session.ok("domains"), "gsettings:org.gnome.desktop.interface\n")
        XCTAssertEqual(session.ok("delete", "dconf:/my/"), "")
        XCTAssertEqual(session.tool(["dconf", "dump", "/my/"]).stdout, "")
    }

    /// Completion offers the installed schemas, a schema's keys, a key's choices, and the
    /// user's dconf folders.
    func testCompletesSchemasKeysChoicesAndFolders() throws {
        func words(_ line: String...) -> [String] {
            Array(session.run(["complete", "line"] + line).stdout.split(separator: "\n").dropFirst().map(String.init))
        }
        XCTAssertEqual(words("read", "gsettings:org.gnome.desktop.interf"), ["gsettings:org.gnome.desktop.interface"])
        XCTAssertTrue(words("read", "gsettings:org.gnome.desktop.interface", "color-").contains("color-scheme"))
        XCTAssertEqual(
            words("write", "gsettings:org.gnome.desktop.interface", "color-scheme", ""),
            ["default", "prefer-dark", "prefer-light"])
        XCTAssertEqual(words("write", "gsettings:org.gnome.desktop.privacy", "disable-camera", ""), ["true", "false"])
        XCTAssertEqual(session.ok("write", "dconf:/my/app/", "volume", "5"), "")
        XCTAssertEqual(words("read", "dconf:/my/"), ["dconf:/my/", "dconf:/my/app/"])
        XCTAssertEqual(words("read", "dconf:/my/app/", ""), ["volume"])
        XCTAssertFalse(
            words("read", "").contains { $0.hasPrefix("gsettings:") }, "an empty word completes plist domains")
        // `sync carry` offers the fixed schemas it can carry, no folder and no schema's path.
        let carried = words("sync", "carry", "gsettings:org.gnome.desktop.interf")
        XCTAssertEqual(carried, ["gsettings:org.gnome.desktop.interface"])
        XCTAssertEqual(words("sync", "carry", "dconf:/my/"), [])
    }

    /// `capture -- CMD` while a script runs `gsettings set` (and `dconf write`, and a
    /// reset) prints exactly one command per key, and those commands replayed in a fresh
    /// session make `dconf dump /` the same.
    func testCaptureOfGsettingsReplaysToTheSameDump() throws {
        let start = "dconf write /org/gnome/desktop/interface/text-scaling-factor 1.5"
        let changes = [
            "gsettings set org.gnome.desktop.interface color-scheme prefer-dark",
            "gsettings set org.gnome.desktop.session idle-delay 42",
            "gsettings set org.gnome.desktop.input-sources sources \"[('xkb', 'us'), ('xkb', 'de+neo')]\"",
            "gsettings set org.gnome.desktop.input-sources xkb-options \"['compose:ralt']\"",
            "gsettings set org.gnome.desktop.interface font-name \"Cantarell 11\"",
            "gsettings set org.gnome.desktop.privacy disable-camera true",
            "gsettings set org.gnome.desktop.peripherals.mouse speed -0.25",
            "gsettings set org.gnome.desktop.wm.preferences button-layout 'appmenu:minimize,close'",
            "gsettings set org.gnome.desktop.a11y.magnifier caret-tracking push",
            "dconf write /my/app/size 'uint32 7'",
            "dconf write /my/app/name \"'a b'\"",
            "gsettings reset org.gnome.desktop.interface text-scaling-factor",
        ]
        XCTAssertEqual(session.tool(["sh", "-c", start]).status, 0)
        let r = session.run(["capture", "--", "sh", "-c", changes.joined(separator: " && ")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let commands = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(commands.count, changes.count, r.stdout)
        let dump = session.tool(["dconf", "dump", "/"]).stdout

        let fresh = Harness()
        defer { fresh.cleanUp() }
        let other = try DesktopSession(fresh)
        defer { other.stop() }
        XCTAssertEqual(other.tool(["sh", "-c", start]).status, 0)
        let replay = fresh.exec(
            "/bin/sh", ["-c", r.stdout],
            environment: other.variables.merging([
                "PATH": Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            ]) { $1 })
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(other.tool(["dconf", "dump", "/"]).stdout, dump)
    }

    /// A verb that does not take desktop domains yet says so, and never takes the name
    /// for a plist file's.
    func testOtherVerbsRefuseDesktopDomainsAndMakeNoFile() throws {
        for words in [
            ["rename", "gsettings:org.gnome.desktop.interface", "a", "b"],
            ["conflicts", "gsettings:org.gnome.desktop.interface"],
        ] {
            let r = session.run(words)
            XCTAssertEqual(r.status, 2, "\(words): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is a desktop domain, which this verb does not take yet"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }, [])
    }

    /// `watch` reports what dconf's service changes in the domain, one line a key, as a
    /// plist domain's watch does; nothing within the timeout is status 124.
    func testWatchReportsWhatGsettingsChanges() throws {
        let out = Pipe()
        let watch = try session.start(
            ["watch", "gsettings:org.gnome.desktop.interface", "--count", "3", "--timeout", "20"], output: out)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark"]).status, 0)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(session.run(["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "48"]).status, 0)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(session.tool(["gsettings", "reset", "org.gnome.desktop.interface", "color-scheme"]).status, 0)
        watch.waitUntilExit()
        XCTAssertEqual(watch.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "color-scheme\tprefer-dark\ncursor-size\t48\ncolor-scheme\t(deleted)\n")
        let idle = session.run(["watch", "dconf:/org/gnome/", "--timeout", "0.3"])
        XCTAssertEqual(idle.status, 124, idle.stderr)
        let unknown = session.run(["watch", "gsettings:org.gnome.desktop.interface", "nosuchkey", "--timeout", "5"])
        XCTAssertEqual(unknown.status, 1, unknown.stderr)
    }

    /// `watch --exec` on a desktop domain runs the command once a batch, with the batch on
    /// its input and `SETTINGS_CHANGED`; what the command writes itself, through
    /// `settings` or through `gsettings`, does not run it again.
    func testWatchExecRunsOnceABatchAndNotOnItsOwnWrites() throws {
        let log = h.file("exec.log", "")
        let command =
            "{ cat; echo \"[$SETTINGS_DOMAIN] $SETTINGS_CHANGED\"; } >> \(log); "
            + "\(Harness.settings) write gsettings:org.gnome.desktop.interface cursor-size 48 && "
            + "gsettings set org.gnome.desktop.interface font-name 'Sans 13'"
        let err = Pipe()
        let watch = try session.start(
            ["watch", "gsettings:org.gnome.desktop.interface", "--exec", command, "--count", "2", "--timeout", "20"],
            errors: err)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark"]).status, 0)
        // The command's own writes land and are seen; the next outside change runs it again.
        let deadline = Date().addingTimeInterval(10)
        while session.gsettings("org.gnome.desktop.interface", "font-name") != "'Sans 13'", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "enable-animations", "false"]).status, 0)
        watch.waitUntilExit()
        XCTAssertEqual(
            watch.terminationStatus, 0, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        XCTAssertEqual(
            try String(contentsOfFile: log, encoding: .utf8),
            "color-scheme\tprefer-dark\n[gsettings:org.gnome.desktop.interface] /color-scheme\n"
                + "enable-animations\t0\n[gsettings:org.gnome.desktop.interface] /enable-animations\n")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "48")
    }

    /// `edit` of a desktop domain: the user's values as JSON, the edit made through dconf
    /// (a key dropped is reset), a value the schema refuses sent back to the person with
    /// nothing written, and a `$gvariant` value edited in a `dconf:` folder.
    func testEditWritesThroughDconfAndRefusesWhatTheSchemaRefuses() throws {
        let interface = "gsettings:org.gnome.desktop.interface"
        _ = session.ok("write", interface, "cursor-size", "32")
        _ = session.ok("write", interface, "color-scheme", "prefer-dark")
        _ = session.ok("write", "gsettings:org.gnome.desktop.session", "idle-delay", "600")
        let text = h.file("shown.json", "")
        let shown = session.run(["edit", interface], extra: ["EDITOR": "sh -c 'cp \"$0\" \"$TEXT\"'", "TEXT": text])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: text, encoding: .utf8),
            "{\n  \"color-scheme\": \"prefer-dark\",\n  \"cursor-size\": 32\n}\n")

        let edited = session.run(["edit", interface], extra: ["EDITOR": "sed -i -e s/32/40/ -e /color-scheme/d"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "40")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
        XCTAssertTrue(session.ok("history", interface).contains("settings edit"))

        for (sed, said) in [
            ("s/40/\\\"big\\\"/", "cursor-size"), ("s/cursor-size/no-such-key/", "has no key no-such-key"),
        ] {
            let refused = session.run(
                ["edit", interface], stdin: Data("q\n".utf8), extra: ["EDITOR": "sed -i \(sed)"])
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("the domain is unchanged"), refused.stderr)
            XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "40")
        }

        let folder = session.run(
            ["edit", "dconf:/org/gnome/desktop/session/"], extra: ["EDITOR": "sed -i s/600/700/"])
        XCTAssertEqual(folder.status, 0, folder.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.session", "idle-delay"), "uint32 700")
        let hostless = session.run(["-currentHost", "edit", interface], extra: ["EDITOR": "true"])
        XCTAssertEqual(hostless.status, 2, hostless.stderr)
    }

    /// One desired-state file holds desktop and plist keys; `apply` makes both true,
    /// `--check` then finds nothing; dropping a key gives it back what it held before
    /// (its schema's default when it held nothing), and a key someone changed since is
    /// left as they set it.
    func testApplyHoldsDesktopAndPlistKeysAndPrunes() throws {
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "32"]).status, 0)
        let first = h.file(
            "home.json",
            #"""
            {"gsettings:org.gnome.desktop.interface": {"color-scheme": "prefer-dark", "cursor-size": 48},
             "gsettings:org.gnome.desktop.input-sources": {"sources": [["xkb", "us"], ["xkb", "de"]]},
             "gsettings:org.gnome.desktop.session": {"idle-delay": 600},
             "com.example.app": {"volume": 3}}
            """#)
        XCTAssertEqual(session.run(["apply", first, "--check"]).status, 1)
        let r = session.run(["apply", first])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("--- gsettings:org.gnome.desktop.interface\n"), r.stdout)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "48")
        XCTAssertEqual(
            session.gsettings("org.gnome.desktop.input-sources", "sources"), "[('xkb', 'us'), ('xkb', 'de')]")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.session", "idle-delay"), "uint32 600")
        XCTAssertEqual(session.ok("read", "com.example.app", "volume"), "3\n")
        XCTAssertEqual(session.run(["apply", first, "--check"]).status, 0)
        // Someone changes one of the keys the apply set.
        XCTAssertEqual(session.tool(["gsettings", "set", "org.gnome.desktop.session", "idle-delay", "900"]).status, 0)
        let second = h.file(
            "home.json",
            #"{"gsettings:org.gnome.desktop.interface": {"color-scheme": "prefer-dark"}, "com.example.app": {}}"#)
        let pruned = session.run(["apply", second])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertTrue(
            pruned.stderr.contains("idle-delay was changed since it was applied: left as it is"), pruned.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "32", "the value before")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.input-sources", "sources"), "@a(ss) []", "the default")
        XCTAssertEqual(session.tool(["dconf", "read", "/org/gnome/desktop/input-sources/sources"]).stdout, "")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.session", "idle-delay"), "uint32 900", "their value")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'prefer-dark'")
    }

    /// A value the schema refuses stops the whole apply before anything is written; a
    /// dconf that fails mid-apply leaves the record of what each key held, so the run
    /// after it converges and a later prune still gives the first values back.
    func testApplyRefusesBeforeWritingAndSurvivesAFailingDconf() throws {
        let bad = h.file(
            "bad.json",
            #"{"com.example.app": {"volume": 3}, "gsettings:org.gnome.desktop.interface": {"color-scheme": "dark"}}"#)
        let refused = session.run(["apply", bad])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertEqual(session.run(["read", "com.example.app"]).status, 1, "nothing written")
        // A dconf service that fails: the apply fails with one line, status 4.
        let broken = try DesktopSession(h, tag: "broken", dconf: "/bin/false")
        defer { broken.stop() }
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "32"]).status, 0)
        let desired = h.file(
            "desired.json",
            #"{"gsettings:org.gnome.desktop.interface": {"cursor-size": 64, "color-scheme": "prefer-dark"}}"#)
        let failed = broken.run(["apply", desired, "--as", "home"])
        XCTAssertEqual(failed.status, 4, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("ca.desrt.dconf exited with status 1"), failed.stderr)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "32")
        XCTAssertEqual(session.run(["apply", desired, "--as", "home"]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "64")
        let empty = h.file("empty.json", "{}")
        XCTAssertEqual(session.run(["apply", empty, "--as", "home"]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "32")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
    }

    /// `snapshot` of named desktop domains, `diff` of it with now, and `apply` of it gives
    /// each domain back exactly: keys set since go back to their defaults.
    func testSnapshotDiffAndRestoreOfDesktopDomains() throws {
        let d = "gsettings:org.gnome.desktop.interface"
        XCTAssertEqual(session.ok("write", d, "cursor-size", "40"), "")
        XCTAssertEqual(session.ok("write", "dconf:/my/app/", "size", "-int", "3"), "")
        let snapshot = h.files + "/desk.json"
        XCTAssertEqual(session.ok("snapshot", d, "dconf:/my/app/", "-o", snapshot), "")
        let dump = session.tool(["dconf", "dump", "/"]).stdout
        XCTAssertEqual(session.run(["diff", snapshot]).status, 0)
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "64"]).status, 0)
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "color-scheme", "prefer-dark"]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "write", "/my/app/name", "'x'"]).status, 0)
        let changed = session.run(["diff", snapshot])
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(
            changed.stdout,
            "--- gsettings:org.gnome.desktop.interface\n+/color-scheme = \"prefer-dark\"\n"
                + "-/cursor-size = 40\n+/cursor-size = 64\n--- dconf:/my/app/\n+/name = \"x\"\n")
        let between = session.run(["diff", d, "gsettings:org.gnome.desktop.session"])
        XCTAssertEqual(between.status, 1, between.stderr)
        let restored = session.run(["apply", snapshot])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(session.tool(["dconf", "dump", "/"]).stdout, dump)
        XCTAssertEqual(session.run(["diff", snapshot]).status, 0)
    }

    /// `history` shows the writes made through settings and a change made behind its back
    /// (by gsettings), in order; `undo` takes them back through dconf, the outside change
    /// too, and `redo` makes them again.
    func testHistoryUndoAndRedoOfDesktopChanges() throws {
        let d = "gsettings:org.gnome.desktop.interface"
        XCTAssertEqual(session.ok("write", d, "cursor-size", "40"), "")
        XCTAssertEqual(session.ok("write", d, "color-scheme", "prefer-dark"), "")
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "64"]).status, 0)
        XCTAssertEqual(session.ok("write", d, "font-name", "Sans 9"), "")
        let lines = session.ok("history", d).split(separator: "\n").filter { !$0.hasPrefix("20") }
        XCTAssertEqual(
            lines,
            [
                "+/cursor-size = 40", "+/color-scheme = \"prefer-dark\"", "-/cursor-size = 40", "+/cursor-size = 64",
                "+/font-name = \"Sans 9\"",
            ])
        XCTAssertTrue(session.ok("history", d).contains("outside change"))
        XCTAssertEqual(session.run(["undo", d]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "font-name"), "'Cantarell 11'")
        XCTAssertEqual(session.run(["undo", d, "--steps", "2"]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "40")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
        XCTAssertEqual(session.run(["redo", d]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "64")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'prefer-dark'")
        // A key changed since the change undone is left as it is.
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "24"]).status, 0)
        let undo = session.run(["undo", d])
        XCTAssertTrue(undo.stderr.contains("changed since; left as it is") || undo.status == 0, undo.stderr)
        // An outside change undone is known for what it took back: the next undo goes on
        // to the write before it.
        XCTAssertEqual(session.ok("write", d, "cursor-size", "30"), "")
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "31"]).status, 0)
        XCTAssertTrue(session.ok("undo", d).contains("outside change"))
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "30")
        let before = session.run(["undo", d])
        XCTAssertEqual(before.status, 0, before.stderr)
        XCTAssertNotEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "30")
    }

    /// Writers through the store at once take turns on the domain's journal: each entry
    /// holds its own key only, none is taken for an outside change, and undo takes back
    /// the last writer's key alone.
    func testWritersAtOnceKeepTheirOwnHistory() throws {
        let d = "gsettings:org.gnome.desktop.interface"
        XCTAssertEqual(session.ok("write", d, "cursor-size", "10"), "")
        let writes = [
            ["cursor-size", "20"], ["gtk-theme", "A"], ["icon-theme", "B"], ["font-name", "Sans 7"],
            ["cursor-blink-time", "900"], ["clock-format", "12h"],
        ]
        let processes = try writes.map { words in try session.start(["write", d] + words) }
        for process in processes {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let history = session.ok("history", d)
        XCTAssertFalse(history.contains("outside change"), history)
        let entries = history.split(separator: "\n").filter { $0.hasPrefix("20") }
        XCTAssertEqual(entries.count, 1 + writes.count, history)
        let changed = history.split(separator: "\n").filter { $0.hasPrefix("+") }
        XCTAssertEqual(changed.count, 1 + writes.count, "one key an entry: \(history)")
        let undo = session.ok("undo", d)
        XCTAssertEqual(undo.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.count, 1, undo)
        let kept = writes.filter { words in
            session.gsettings("org.gnome.desktop.interface", words[0]).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
                == words[1]
        }
        XCTAssertEqual(kept.count, writes.count - 1, "only the last writer's key taken back")
    }

    /// What an outside attack on the first version found, each now as it should be.
    func testWhatTheOutsideAttackFound() throws {
        let d = "gsettings:org.gnome.desktop.interface"
        // --json is JSON (from standard input with -), and `-string --json` the string.
        XCTAssertEqual(session.run(["write", d, "gtk-theme", "--json", #""Adwaita""#]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "gtk-theme"), "'Adwaita'")
        XCTAssertEqual(session.run(["write", d, "gtk-theme", "--json", "-"], stdin: Data(#""X\ty""#.utf8)).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "gtk-theme"), "'X\\ty'")
        XCTAssertEqual(session.run(["write", d, "gtk-theme", "--exact", "--json", #""line1\nline2""#]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "gtk-theme"), "'line1\\nline2'")
        XCTAssertEqual(session.run(["write", d, "gtk-theme", "-string", "--json"]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "gtk-theme"), "'--json'")
        // Key names cannot smuggle another folder into dconf load's text, nor a NUL.
        let hostile = h.file("i.json", #"{"a": "1", "x]\n[org/gnome/desktop/interface/color-scheme": "prefer-dark"}"#)
        XCTAssertEqual(session.run(["import", "dconf:/org/myapp/", hostile, "--json"]).status, 2)
        let nul = h.file("n.json", #"{"desktop/interface/color-scheme\u0000x": "prefer-dark"}"#)
        XCTAssertEqual(session.run(["import", "dconf:/org/gnome/", nul, "--json"]).status, 2)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
        XCTAssertEqual(session.tool(["dconf", "dump", "/org/myapp/"]).stdout, "")
        // A string with a NUL is refused before dconf is asked.
        XCTAssertEqual(session.run(["write", d, "gtk-theme", "--json", #""a\u0000b""#]).status, 2)
        // A stored value its key does not allow is read as GSettings reads it: the default.
        XCTAssertEqual(
            session.tool(["dconf", "write", "/org/gnome/desktop/interface/cursor-blink-time", "50"]).status, 0)
        XCTAssertEqual(
            session.ok("read", d, "cursor-blink-time", "--gvariant"),
            session.gsettings("org.gnome.desktop.interface", "cursor-blink-time") + "\n")
        XCTAssertEqual(session.ok("read", d, "cursor-blink-time", "--source"), "default\n")
        XCTAssertEqual(session.run(["validate", d]).status, 1)
        // In a dconf folder a type flag says the type: a replayed capture makes the same value.
        XCTAssertEqual(session.tool(["dconf", "write", "/org/raw/k", "uint32 5"]).status, 0)
        XCTAssertEqual(session.run(["write", "dconf:/org/raw/", "k", "-int", "6"]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "read", "/org/raw/k"]).stdout, "6\n")
        XCTAssertEqual(session.run(["write", "dconf:/org/raw/", "k", "7"]).status, 0)
        XCTAssertEqual(
            session.tool(["dconf", "read", "/org/raw/k"]).stdout, "7\n", "an untyped word keeps the type held")
        XCTAssertEqual(session.run(["write", "dconf:/org/raw/", "-p", "/-k", "-int", "1"]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "read", "/org/raw/-k"]).stdout, "1\n")
        // One word is a one-string list for a list of strings (a flag's name).
        XCTAssertEqual(
            session.run(["write", "gsettings:org.gnome.desktop.input-sources", "xkb-options", "compose:ralt"]).status, 0
        )
        XCTAssertEqual(session.gsettings("org.gnome.desktop.input-sources", "xkb-options"), "['compose:ralt']")
        // What is not a desktop write says so with status 2 or 3, in one line, and makes no file.
        for (words, extra, status) in [
            (
                ["write", d, "color-scheme", "prefer-dark"], ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"],
                Int32(3)
            ),
            (["write", d, "color-scheme", "prefer-dark"], ["DBUS_SESSION_BUS_ADDRESS": "garbage:::"], 3),
            (["write", "GSETTINGS:org.gnome.desktop.interface", "color-scheme", "prefer-dark"], [:], 2),
            (["read", "gsettings:", "k"], [:], 2),
            (["-currentHost", "write", d, "color-scheme", "prefer-dark"], [:], 2),
            (["write", d, "color-scheme", "prefer-dark", "--force"], [:], 2),
            (["sync", "carry", "dconf:/org/gnome/"], [:], 2),
        ] {
            let r = session.run(words, extra: extra)
            XCTAssertEqual(r.status, status, "\(words) \(extra): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }, [])
        // A service that says it stored a value it did not store (dconf's own, writing
        // another user's folder) is not believed.
        let liar = try DesktopSession(
            h, tag: "liar", dconf: "/usr/bin/env XDG_CONFIG_HOME=\(h.files)/elsewhere /usr/libexec/dconf-service")
        defer { liar.stop() }
        let lied = liar.run(["write", d, "color-scheme", "prefer-light"])
        XCTAssertEqual(lied.status, 4, lied.stderr)
        XCTAssertTrue(lied.stderr.contains("does not hold it"), lied.stderr)
    }

    /// What the third attack found of the bus: an apply on a bus with no dconf service
    /// writes no plist domain either; a bus that fails before the change is sent cannot be
    /// reached (status 3), and one that stops answering after it may have made it (status
    /// 4, said so); each of several addresses is tried in turn.
    func testABusThatFailsIsSaidForWhatItIs() throws {
        let bare = try DesktopSession(h, tag: "bare", dconf: "")
        defer { bare.stop() }
        let desired = h.file(
            "both.json", #"{"com.example.app": {"a": 1}, "gsettings:org.gnome.desktop.interface": {"cursor-size": 40}}"#
        )
        let unserved = bare.run(["apply", desired])
        XCTAssertEqual(unserved.status, 3, unserved.stderr)
        XCTAssertEqual(session.run(["read", "com.example.app"]).status, 1, "no plist domain written")

        // A bus that greets, answers Hello, and closes when the change comes.
        let socket = h.files + "/fake-bus"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", "-c",
            """
            import socket, struct, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
            print("ready", flush=True)
            for mode in ("close-at-once", "close-after-hello"):
                c, _ = s.accept()
                if mode == "close-at-once":
                    c.close(); continue
                data = b""
                while b"\\r\\n" not in data: data += c.recv(4096)
                c.sendall(b"OK 0123456789abcdef0123456789abcdef\\r\\n")
                data = b""
                while len(data) < 16: data += c.recv(4096)
                c.sendall(b"l\\x02\\x00\\x01" + struct.pack("<III", 0, 1, 8) + bytes([5, 1, 117, 0]) + struct.pack("<I", 1))
                c.recv(65536); c.close()
            """,
            socket,
        ]
        let out = Pipe()
        server.standardOutput = out
        try FileManager.default.createDirectory(atPath: h.files, withIntermediateDirectories: true)
        try server.run()
        defer { server.terminate() }
        _ = out.fileHandleForReading.availableData
        let fake = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"]
        let closed = session.run(["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "41"], extra: fake)
        XCTAssertEqual(closed.status, 3, closed.stderr)
        XCTAssertTrue(closed.stderr.contains("cannot be reached"), closed.stderr)
        let silent = session.run(["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "42"], extra: fake)
        XCTAssertEqual(silent.status, 4, silent.stderr)
        XCTAssertTrue(silent.stderr.contains("did not answer the change"), silent.stderr)
        XCTAssertEqual(silent.stderr.split(separator: "\n").count, 1, silent.stderr)

        let several = session.run(
            ["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "43"],
            extra: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent;" + session.variables["DBUS_SESSION_BUS_ADDRESS"]!
            ])
        XCTAssertEqual(several.status, 0, several.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "43")
    }

    /// What the second outside attack found besides: `apply --check` and `--dry-run` need no
    /// session (they only read); a maybe-string key reads GVariant text as gsettings does,
    /// any other word as the string; refusals are in words.
    func testChecksNeedNoSessionMaybesAreTextAndRefusalsAreWords() throws {
        let d = "gsettings:org.gnome.desktop.interface"
        XCTAssertEqual(session.ok("write", d, "cursor-size", "40"), "")
        let desired = h.file("drift.json", #"{"gsettings:org.gnome.desktop.interface": {"cursor-size": 41}}"#)
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": h.files]
        let check = session.run(["apply", desired, "--check"], extra: noBus)
        XCTAssertEqual(check.status, 1, check.stderr)
        XCTAssertTrue(check.stdout.contains("cursor-size"), check.stdout)
        XCTAssertEqual(session.run(["apply", desired, "--dry-run"], extra: noBus).status, 0)

        let fixture = ["GSETTINGS_SCHEMA_DIR": Self.fixtures]
        for (word, stored) in [
            ("nothing", "@ms nothing"), ("'x'", "@ms 'x'"), ("just 'y'", "@ms 'y'"), ("plain", "@ms 'plain'"),
        ] {
            let r = session.run(["write", "gsettings:org.example.desktop", "maybe", word], extra: fixture)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(session.tool(["dconf", "read", "/org/example/desktop/maybe"]).stdout, stored + "\n", word)
        }
        for (key, word, said) in [
            ("clock-show-seconds", "2", "not a boolean"), ("cursor-size", "'x'", "not an integer (int32)"),
        ] {
            let r = session.run(["write", d, key, word])
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(said), r.stderr)
        }
        // A plist file named as a desktop domain is no domain: not listed, not made.
        XCTAssertEqual(session.ok("write", "com.example.x", "k", "v"), "")
        for stray in ["Gsettings:zz", "gsettings:org.gnome.desktop.interface", " dconf:x"] {
            try FileManager.default.copyItem(atPath: h.path("com.example.x"), toPath: h.config + "/\(stray).plist")
        }
        XCTAssertEqual(
            session.ok("domains").split(separator: "\n").filter { $0.contains(":") }.count, 1, "the schema only")
        let spaced = session.run(["write", " gsettings:org.gnome.desktop.interface", "k", "v"])
        XCTAssertEqual(spaced.status, 2, spaced.stderr)
        // Nor in the ByHost folder: not in a snapshot, and not made by an apply.
        try FileManager.default.createDirectory(atPath: h.config + "/ByHost", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: h.path("com.example.x"), toPath: h.config + "/ByHost/gsettings:org.gnome.desktop.interface..plist")
        let snapshot = h.file("all.json", "")
        XCTAssertEqual(session.run(["snapshot", "-o", snapshot]).status, 0)
        XCTAssertFalse(try String(contentsOfFile: snapshot, encoding: .utf8).contains("ByHost/gsettings"))
        let byHost = h.file("byhost.json", #"{"ByHost/gsettings:new.": {"z": 1}}"#)
        XCTAssertEqual(session.run(["apply", byHost]).status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.config + "/ByHost/gsettings:new..plist"))
        // A tuple of the wrong length is said in words.
        let tuple = session.run(["write", "gsettings:org.gnome.desktop.input-sources", "sources", "[('a', 'b', 'c')]"])
        XCTAssertEqual(tuple.status, 2, tuple.stderr)
        XCTAssertTrue(tuple.stderr.contains("(a string, a string) has 2"), tuple.stderr)
    }

    /// dconf's profile as dconf reads it: a line that is no database is passed over, CRLF
    /// lines are lines, and an empty user database is an empty one.
    func testProfilesAndDatabasesAsDconfReadsThem() throws {
        XCTAssertEqual(session.ok("write", "gsettings:org.gnome.desktop.interface", "cursor-size", "40"), "")
        let profile = h.file("profile", "garbage\r\nuser-db:user\r\n")
        XCTAssertEqual(
            session.run(
                ["read", "gsettings:org.gnome.desktop.interface", "cursor-size"], extra: ["DCONF_PROFILE": profile]
            ).stdout,
            "40\n")
        let empty = h.files + "/empty-config"
        try FileManager.default.createDirectory(atPath: empty + "/dconf", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: empty + "/dconf/user", contents: Data())
        let r = session.run(
            ["read", "gsettings:org.gnome.desktop.interface", "cursor-size"], extra: ["XDG_CONFIG_HOME": empty])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "24\n")
        // A system database that is not one is passed over with one warning, as dconf
        // passes over it: the user's value is read, and a write goes through.
        let corrupt = h.file("corrupt-db", "not a database at all, and long enough to be read as one")
        let withCorrupt = h.file("profile-corrupt", "user-db:user\nfile-db:\(corrupt)\n")
        let read = session.run(
            ["read", "gsettings:org.gnome.desktop.interface", "cursor-size"], extra: ["DCONF_PROFILE": withCorrupt])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout, "40\n")
        XCTAssertTrue(read.stderr.contains(corrupt + " is corrupt"), read.stderr)
        XCTAssertEqual(read.stderr.split(separator: "\n").count, 1, read.stderr)
        let wrote = session.run(
            ["write", "gsettings:org.gnome.desktop.interface", "cursor-size", "41"],
            extra: ["DCONF_PROFILE": withCorrupt])
        XCTAssertEqual(wrote.status, 0, wrote.stderr)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "41")
    }

    /// What a second outside attack found: a changed or reset value with no JSON twin
    /// (`uint32`, a tuple) replays from `capture`; `null` in a desired state is remembered
    /// and given back; with no session `apply` writes nothing, plist keys included.
    func testWhatTheSecondAttackFound() throws {
        XCTAssertEqual(session.tool(["dconf", "write", "/org/x/u", "uint32 7"]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "write", "/org/x/t", "(1, 'a')"]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "write", "/org/x/gone", "uint32 1"]).status, 0)
        let start = session.tool(["dconf", "dump", "/"]).stdout
        let script = #"dconf write /org/x/u "uint32 8"; dconf write /org/x/t "(2, 'b')"; dconf reset /org/x/gone"#
        let r = session.run(["capture", "--", "sh", "-c", script])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 3, r.stdout)
        let dump = session.tool(["dconf", "dump", "/"]).stdout
        let fresh = Harness()
        defer { fresh.cleanUp() }
        let other = try DesktopSession(fresh)
        defer { other.stop() }
        XCTAssertEqual(other.tool(["dconf", "load", "/"], stdin: Data(start.utf8)).status, 0)
        let path = Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        let replay = fresh.exec(
            "/bin/sh", ["-e", "-c", r.stdout], environment: other.variables.merging(["PATH": path]) { $1 })
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(other.tool(["dconf", "dump", "/"]).stdout, dump)

        // null removes, and is given back when dropped.
        XCTAssertEqual(
            session.tool(["gsettings", "set", "org.gnome.desktop.interface", "cursor-size", "40"]).status, 0)
        let removing = h.file(
            "n.json", #"{"gsettings:org.gnome.desktop.interface": {"cursor-size": null}, "dconf:/org/x/": null}"#)
        XCTAssertEqual(session.run(["apply", removing]).status, 0)
        XCTAssertEqual(session.tool(["dconf", "dump", "/org/x/"]).stdout, "")
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "24")
        let dropped = h.file("n.json", #"{"gsettings:org.gnome.desktop.interface": {}, "dconf:/org/x/": {}}"#)
        XCTAssertEqual(session.run(["apply", dropped]).status, 0)
        XCTAssertEqual(session.gsettings("org.gnome.desktop.interface", "cursor-size"), "40")
        XCTAssertEqual(session.tool(["dconf", "read", "/org/x/u"]).stdout, "uint32 8\n")

        // No session: nothing is written, the plist key included.
        let both = h.file(
            "a.json", #"{"com.example.app": {"k": 1}, "gsettings:org.gnome.desktop.interface": {"cursor-size": 30}}"#)
        let none = session.run(["apply", both], extra: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": h.files])
        XCTAssertEqual(none.status, 3, none.stderr)
        XCTAssertEqual(none.stderr.split(separator: "\n").count, 1, none.stderr)
        XCTAssertEqual(session.run(["read", "com.example.app"]).status, 1)
    }
}
