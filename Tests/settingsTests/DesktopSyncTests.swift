import Foundation
import XCTest

/// Issue 52: `sync carry 'gsettings:…'` carries desktop keys between machines with the
/// same per-key merge as plist domains, each machine in its own D-Bus session with its
/// own dconf database; what a machine's schema lacks stays in the repository untouched.
final class DesktopSyncTests: XCTestCase {
    var h: Harness!
    var world: SyncWorld!
    var sessions: [String: DesktopSession] = [:]

    override func setUpWithError() throws {
        h = Harness()
        world = try SyncWorld(h)
    }
    override func tearDown() {
        for session in sessions.values { session.stop() }
        world?.cleanUp()
        h.cleanUp()
    }

    /// A schema `org.example.sync` whose `count` goes up to `most`, with a key `extra`
    /// when `extra`, and with `org.example.only` beside it when `only`; compiled into a
    /// folder of its own.
    func schemas(_ name: String, most: Int, extra: Bool, only: Bool) -> String {
        let folder = world.work + "/\(name)-schemas"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var xml = """
            <schemalist>
              <schema id="org.example.sync" path="/org/example/sync/">
                <key name="count" type="i"><default>1</default><range min="0" max="\(most)"/></key>
                <key name="label" type="s"><default>''</default></key>

            """
        if extra { xml += "    <key name=\"extra\" type=\"s\"><default>''</default></key>\n" }
        xml += "  </schema>\n"
        if only {
            xml += """
                  <schema id="org.example.only" path="/org/example/only/">
                    <key name="flag" type="b"><default>false</default></key>
                  </schema>

                """
        }
        xml += "</schemalist>\n"
        XCTAssertTrue(
            FileManager.default.createFile(atPath: folder + "/org.example.sync.gschema.xml", contents: Data(xml.utf8)))
        XCTAssertEqual(h.exec("/usr/bin/env", ["glib-compile-schemas", "--strict", folder]).status, 0)
        return folder
    }

    /// Machine `name`'s session, its dconf service writing the machine's own folders.
    func session(_ name: String, schemas: String) throws -> DesktopSession {
        let session = try DesktopSession(
            h, extra: world.machine(name).merging(["GSETTINGS_SCHEMA_DIR": schemas]) { $1 }, tag: name)
        sessions[name] = session
        return session
    }

    @discardableResult
    func on(_ name: String, _ arguments: String..., status: Int32? = 0, line: UInt = #line) -> Harness.Result {
        world.run(name, arguments, status: status, extra: sessions[name]!.variables, line: line)
    }

    /// The repository's file of a domain, as its values, read by Foundation; nil when it
    /// has none.
    func repository(_ domain: String) throws -> [String: Any]? {
        let r = h.exec("/usr/bin/env", ["git", "--git-dir", world.remote, "show", "main:\(domain).plist"])
        guard r.status == 0 else { return nil }
        return try PropertyListSerialization.propertyList(from: Data(r.stdout.utf8), format: nil) as? [String: Any]
    }

    func testDesktopKeysTravelKeyByKeyAndWhatASchemaLacksStaysUntouched() throws {
        let a = try session("a", schemas: schemas("a", most: 10, extra: true, only: true))
        let b = try session("b", schemas: schemas("b", most: 5, extra: false, only: false))
        let patterns = ["gsettings:org.gnome.desktop.*", "gsettings:org.example.*"]
        world.run("a", ["sync", "init", world.remote] + patterns, extra: a.variables)
        on("a", "write", "gsettings:org.gnome.desktop.interface", "color-scheme", "prefer-dark")
        on("a", "write", "gsettings:org.gnome.desktop.session", "idle-delay", "600")
        on("a", "write", "gsettings:org.example.sync", "count", "8")
        on("a", "write", "gsettings:org.example.sync", "extra", "from a")
        on("a", "write", "gsettings:org.example.only", "flag", "true")
        on("a", "write", "gsettings:org.gnome.desktop.wm.preferences", "button-layout", "close:")
        XCTAssertTrue(on("a", "sync").stdout.contains("exported 5"))

        world.run("b", ["sync", "init", world.remote] + patterns, extra: b.variables)
        let first = on("b", "sync")
        XCTAssertEqual(b.gsettings("org.gnome.desktop.interface", "color-scheme"), "'prefer-dark'")
        XCTAssertEqual(b.gsettings("org.gnome.desktop.session", "idle-delay"), "uint32 600")
        XCTAssertEqual(b.gsettings("org.gnome.desktop.wm.preferences", "button-layout"), "'close:'")
        // b's schema allows no 8: its count stays, and the round says so.
        XCTAssertEqual(b.gsettings("org.example.sync", "count"), "1")
        XCTAssertTrue(first.stderr.contains("gsettings:org.example.sync: kept count as it is here"), first.stderr)
        XCTAssertEqual(b.tool(["dconf", "read", "/org/example/sync/extra"]).stdout, "")
        XCTAssertEqual(b.tool(["dconf", "read", "/org/example/only/flag"]).stdout, "")

        // b's own changes: a reset, and a key of the domain whose other key b's schema lacks.
        XCTAssertEqual(b.tool(["gsettings", "reset", "org.gnome.desktop.interface", "color-scheme"]).status, 0)
        on("b", "write", "gsettings:org.example.sync", "label", "from b")
        on("b", "sync")
        let synced = try XCTUnwrap(try repository("gsettings:org.example.sync"))
        XCTAssertEqual(synced["extra"] as? String, "from a", "a key b's schema lacks stays in the repository")
        XCTAssertEqual(synced["label"] as? String, "from b")
        XCTAssertEqual(synced["count"] as? Int, 8)
        XCTAssertEqual(try repository("gsettings:org.example.only")?["flag"] as? Bool, true)
        // Its one key reset: the domain holds nothing, and has no file there.
        XCTAssertNil(try repository("gsettings:org.gnome.desktop.interface"))
        XCTAssertEqual(try repository("gsettings:org.gnome.desktop.session")?["idle-delay"] as? Int, 600)

        on("a", "sync")
        XCTAssertEqual(a.gsettings("org.gnome.desktop.interface", "color-scheme"), "'default'")
        XCTAssertEqual(a.gsettings("org.example.sync", "label"), "'from b'")
        XCTAssertEqual(a.gsettings("org.example.sync", "extra"), "'from a'")
        XCTAssertEqual(a.gsettings("org.example.only", "flag"), "true")
        XCTAssertTrue(on("a", "history", "gsettings:org.example.sync").stdout.contains("settings sync"))

        // A conflict: both change one key; the repository's (pushed first) wins, logged.
        on("a", "write", "gsettings:org.gnome.desktop.session", "idle-delay", "900")
        on("b", "write", "gsettings:org.gnome.desktop.session", "idle-delay", "60")
        on("a", "sync")
        let conflicted = on("b", "sync")
        XCTAssertTrue(conflicted.stderr.contains("conflict at /idle-delay"), conflicted.stderr)
        XCTAssertEqual(b.gsettings("org.gnome.desktop.session", "idle-delay"), "uint32 900")
    }

    /// A repository's file under a desktop prefix that names no fixed schema is no domain:
    /// never written into the config folder as a plist file. A schema's id is its bytes:
    /// a file of `org.example.SYNC` is another schema, which does not stop `org.example.sync`.
    func testHostileDesktopNamesInTheRepositoryAreNotDomains() throws {
        let a = try session("a", schemas: schemas("a", most: 10, extra: true, only: false))
        world.run("a", ["sync", "init", world.remote, "gsettings:org.example.*", "com.example.*"], extra: a.variables)
        on("a", "write", "gsettings:org.example.sync", "count", "2")
        on("a", "sync")
        let clone = world.work + "/hostile"
        XCTAssertEqual(h.exec("/usr/bin/env", ["git", "clone", "-q", world.remote, clone]).status, 0)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["count": 9], format: .xml, options: 0)
        for name in [
            "gsettings:org.example.sync:rel", "gsettings:org.example.a b", "GSETTINGS:org.example.sync",
            "dconf:org", "gsettings:org.example.SYNC",
        ] {
            XCTAssertTrue(FileManager.default.createFile(atPath: clone + "/\(name).plist", contents: plist))
        }
        let git = ["GIT_AUTHOR_NAME=x", "GIT_AUTHOR_EMAIL=x@x", "GIT_COMMITTER_NAME=x", "GIT_COMMITTER_EMAIL=x@x"]
        for command in [["add", "-A"], ["commit", "-qm", "names"], ["push", "-q"]] {
            let r = h.exec("/usr/bin/env", git + ["git", "-C", clone] + command)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("gsettings:org.example.sync:rel.plist in the repository is not a domain"))
        let planted = try FileManager.default.contentsOfDirectory(atPath: world.machine("a")["XDG_CONFIG_HOME"]!)
            .filter { $0.hasSuffix(".plist") }
        XCTAssertEqual(planted, [], "nothing written as a plist file")
        // The real schema still travels both ways.
        on("a", "write", "gsettings:org.example.sync", "count", "3")
        on("a", "sync")
        XCTAssertEqual(try repository("gsettings:org.example.sync")?["count"] as? Int, 3)
        XCTAssertEqual(try repository("gsettings:org.example.SYNC")?["count"] as? Int, 9, "left as it is")
        XCTAssertEqual(a.gsettings("org.example.sync", "count"), "3")
    }

    /// `sync --watch` runs a round a second after a desktop change, also for a user whose
    /// dconf folder did not exist when the watch started.
    func testWatchSeesTheFirstDesktopChangeOfAFreshUser() throws {
        let a = try session("a", schemas: schemas("a", most: 10, extra: false, only: false))
        world.run("a", ["sync", "init", world.remote, "gsettings:org.example.*"], extra: a.variables)
        on("a", "sync")
        let config = world.machine("a")["XDG_CONFIG_HOME"]!
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + "/dconf"), "a fresh user")
        let watch = try a.start(
            ["sync", "--watch", "--interval", "300"], output: FileHandle.nullDevice, errors: FileHandle.nullDevice,
            environment: world.environment("a", a.variables))
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(a.tool(["gsettings", "set", "org.example.sync", "count", "6"]).status, 0)
        let deadline = Date().addingTimeInterval(15)
        while try repository("gsettings:org.example.sync")?["count"] as? Int != 6, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(try repository("gsettings:org.example.sync")?["count"] as? Int, 6)
    }

    /// What cannot travel is refused in one line (status 2), never taken for a file's name.
    func testDconfFoldersAndSchemaPathsAreRefused() throws {
        for pattern in ["dconf:/org/gnome/", "gsettings:org.gnome.Terminal.Legacy.Profile:/org/x/"] {
            let r = world.run("a", ["sync", "carry", pattern], status: 2)
            XCTAssertTrue(r.stderr.contains("sync carries desktop keys as gsettings:SCHEMA"), r.stderr)
        }
        let upper = world.run("a", ["sync", "carry", "GSETTINGS:a"], status: 2)
        XCTAssertTrue(upper.stderr.contains("in lower case"), upper.stderr)
    }
}
