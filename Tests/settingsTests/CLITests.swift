import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The real binary in a temporary XDG_CONFIG_HOME: stdout, stderr, status, files.
final class CLITests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// `~` is the run's `$HOME` for every verb and for completion alike (completion once
    /// read the test process's own), and a named domain never looks the home folder up: with
    /// `$HOME` unset, `read` of one does not open /etc/passwd.
    func testTildeIsTheRunsHomeAndOnlyPathsLookItUp() throws {
        try FileManager.default.createDirectory(atPath: h.config + "/home/Prefs", withIntermediateDirectories: true)
        h.ok("write", "~/Prefs/app", "k", "v")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.config + "/home/Prefs/app.plist"))
        XCTAssertEqual(h.ok("complete", "keys", "~/Prefs/app"), "k\n")
        XCTAssertEqual(h.ok("complete", "values", "~/Prefs/app", "k"), "")
        h.ok("write", "com.t", "k", "1")
        let (r, calls) = h.traced(["read", "com.t", "k"], unset: ["HOME"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "1\n")
        let paths = calls.compactMap(\.path)
        XCTAssertTrue(paths.contains(h.path("com.t")), "the trace saw the read: \(calls)")
        XCTAssertFalse(paths.contains("/etc/passwd"), "a named domain looked up the home folder: \(calls)")
        // A path under `~` does look it up, and the trace sees that.
        let home = h.traced(["read", "~/Prefs/app", "k"], unset: ["HOME"]).calls
        XCTAssertTrue(home.contains { $0.name == "open" && $0.path == "/etc/passwd" }, "\(home)")
    }

    func testTheNewcomerExample() {
        h.ok("write", "com.example.app", "music", "-bool", "true")
        h.ok("write", "com.example.app", "musicVolume", "-float", "75")
        XCTAssertEqual(h.ok("read", "com.example.app"), "{\n    music = 1;\n    musicVolume = 75;\n}\n")
        XCTAssertEqual(h.ok("read-type", "com.example.app", "music"), "Type is boolean\n")
        h.ok("delete", "com.example.app", "musicVolume")
        XCTAssertEqual(h.ok("read", "com.example.app"), "{\n    music = 1;\n}\n")
        XCTAssertEqual(h.ok("domains"), "com.example.app\n")
    }

    func testEveryTypeFlag() {
        let rows: [(flags: [String], bare: String, type: String)] = [
            (["-bool", "YES"], "1", "boolean"), (["-boolean", "no"], "0", "boolean"),
            (["-int", "-42"], "-42", "integer"),
            (["-integer", "9223372036854775807"], "9223372036854775807", "integer"),
            (["-float", "75.1"], "75.1", "float"), (["-double", "5e-324"], "5e-324", "float"),
            (["-string", "hello world"], "hello world", "string"),
            (["-data", "0A0b0c"], "{length = 3, bytes = 0x0a0b0c}", "data"),
            (["-date", "2020-10-10 06:15:40 +0000"], "2020-10-10 06:15:40 +0000", "date"),
            (["-date", "2020-10-10T06:15:40Z"], "2020-10-10 06:15:40 +0000", "date"),
            (["-array", "a", "-int", "1"], "(\n    a,\n    1\n)", "array"),
            (["-dict", "k", "v", "n", "-bool", "true"], "{\n    k = v;\n    n = 1;\n}", "dictionary"),
            (["plain text"], "plain text", "string"), (["true"], "true", "string"), (["5"], "5", "string"),
        ]
        for (i, row) in rows.enumerated() {
            let key = "key\(i)"
            let r = h.run(["write", "com.t", key] + row.flags)
            XCTAssertEqual(r.status, 0, "\(row.flags): \(r.stderr)")
            XCTAssertEqual(h.ok("read", "com.t", key), row.bare + "\n", "\(row.flags)")
            XCTAssertEqual(h.ok("read-type", "com.t", key), "Type is \(row.type)\n", "\(row.flags)")
        }
    }

    func testReadLayoutOfANestedDomain() {
        h.ok("write", "com.t", "Name", "Keynote")
        h.ok("write", "com.t", "count", "-int", "42")
        h.ok("write", "com.t", "dashed", "en-CN")
        h.ok("write", "com.t", "langs", "-array", "en-CN", "en")
        h.ok("write", "com.t", "ratio", "-double", "0.5")
        h.ok("write", "com.t", "tile", "-dict", "tile-type", "file-tile")
        h.ok("write", "com.t", "when", "-date", "2020-10-10 06:15:40 +0000")
        XCTAssertEqual(
            h.ok("read", "com.t"),
            """
            {
                Name = Keynote;
                count = 42;
                dashed = "en-CN";
                langs =     (
                    "en-CN",
                    en
                );
                ratio = "0.5";
                tile =     {
                    "tile-type" = "file-tile";
                };
                when = "2020-10-10 06:15:40 +0000";
            }

            """)
        XCTAssertEqual(h.ok("read", "com.t", "tile"), "{\n    \"tile-type\" = \"file-tile\";\n}\n")
    }

    func testMissingDomainAndKey() {
        var r = h.run(["read", "com.none"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: Domain com.none does not exist\n")
        XCTAssertEqual(r.stdout, "")
        h.ok("write", "com.t", "a", "1")
        r = h.run(["read", "com.t", "b"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: The domain/default pair of (com.t, b) does not exist\n")
        r = h.run(["read-type", "com.t", "b"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: The domain/default pair of (com.t, b) does not exist\n")
        r = h.run(["delete", "com.none"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: Domain (com.none) not found. Defaults have not been changed.\n")
        r = h.run(["delete", "com.t", "b"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: Key b does not exist in domain com.t; leaving defaults unchanged.\n")
        // A path domain says which file it looked for (issue 19).
        r = h.run(["read", "/etc/passwd"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: Domain /etc/passwd does not exist (no file /etc/passwd.plist)\n")
        // A verb that changes nothing never says "leaving defaults unchanged".
        r = h.run(["read", "com.t", "a", "extra"])
        XCTAssertEqual(r.stderr, "settings: Unexpected argument extra.\n")
    }

    func testDeleteDomainAndLastKey() {
        h.ok("write", "com.t", "a", "1")
        h.ok("write", "com.u", "a", "1")
        h.ok("delete", "com.t")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.t")))
        h.ok("remove", "com.u", "a")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.u")), "the last key takes the file with it")
        XCTAssertEqual(h.ok("domains"), "\n")
    }

    func testVerbsAreCaseInsensitiveAndHelpIsComplete() {
        h.ok("WRITE", "com.t", "a", "-int", "1")
        XCTAssertEqual(h.ok("Read", "com.t", "a"), "1\n")
        let help = h.ok("help")
        for word in [
            "read", "read-type", "write", "delete", "import", "export", "domains", "-currentHost", "-host",
            "<value_rep>",
        ]
            + TypeTable.allFlags
        {
            XCTAssertTrue(help.contains(word), "help lacks \(word)")
        }
        XCTAssertEqual(h.ok("--help"), help)
        XCTAssertEqual(h.ok("-h"), help)
        XCTAssertTrue(h.ok("--version").hasPrefix("settings "))
        let r = h.run(["frobnicate"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("settings: unknown verb 'frobnicate'"))
        XCTAssertEqual(h.run([]).status, 2)
    }

    /// Each bad value: one clear line, status 2, every file byte for byte as it was.
    func testBadValuesChangeNothing() {
        h.ok("write", "com.t", "keep", "-int", "7")
        let before = h.snapshot()
        let rows: [([String], String)] = [
            (["write", "com.t", "k", "-int", "abc"], "invalid value 'abc' for -int"),
            (["write", "com.t", "k", "-int", "99999999999999999999"], "invalid value '99999999999999999999' for -int"),
            (["write", "com.t", "k", "-bool", "maybe"], "invalid value 'maybe' for -bool"),
            (["write", "com.t", "k", "-date", "yesterday"], "invalid value 'yesterday' for -date"),
            (["write", "com.t", "k", "-data", "zz"], "invalid value 'zz' for -data"),
            (["write", "com.t", "k", "-float", "1e40"], "invalid value '1e40' for -float"),
            (["write", "com.t", "k", "-int"], "-int needs a value"),
            (["write", "com.t", "k", "-string", "a", "b"], "Unexpected argument b; leaving defaults unchanged."),
            (["write", "com.t", "k", "a", "b"], "Unexpected argument b; leaving defaults unchanged."),
            (
                ["write", "com.t", "k", "-integr", "1"],
                "Unexpected argument 1; leaving defaults unchanged. ('-integr' is not a type flag; did you mean -integer?)"
            ),
            (["write", "com.t", "k", "-array", "-array", "x"], "-array cannot be nested"),
            (["write", "com.t", "k", "-dict", "lonely"], "needs a value"),
            (
                ["write", "com.t", "k", "<integer>x</integer>"],
                "Could not parse: <integer>x</integer>.  Try single-quoting it."
            ),
            (
                ["write", "com.t", "k"],
                "no value after the key k: give one, as in write <domain> k <value>; leaving defaults unchanged."
            ),
            (["write", "com.t"], "write needs a domain, a key and a value"),
            (["read", "com.t", "keep", "extra"], "Unexpected argument extra"),
        ]
        for (arguments, message) in rows {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments)")
            XCTAssertTrue(r.stderr.hasPrefix("settings: ") && r.stderr.contains(message), "\(arguments): \(r.stderr)")
            // One line; a usage error's ends pointing at help.
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "\(arguments): \(r.stderr)")
            XCTAssertEqual(h.snapshot(), before, "\(arguments) changed a file")
        }
    }

    func testBadDomainNames() {
        let before = h.snapshot()
        for name in ["", ".", "..", ".hidden", "bad\u{7}name", "a/"] {
            let r = h.run(["write", name, "k", "v"])
            XCTAssertEqual(r.status, 2, name)
            XCTAssertTrue(r.stderr.hasPrefix("settings: invalid domain"), r.stderr)
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1)
        }
        XCTAssertEqual(h.run(["-host", "../up", "read", "com.t"]).status, 2)
        XCTAssertEqual(h.snapshot(), before)
    }

    /// Issue 19: a domain with a `/` in it is a file relative to the current folder, as
    /// the README's CI example writes `./App/Info.plist`; a bare name stays a domain.
    func testRelativePathsAreFilesInTheCurrentFolder() throws {
        let work = h.config + "/work"
        try FileManager.default.createDirectory(atPath: work + "/App", withIntermediateDirectories: true)
        let inWork = { (arguments: [String]) in
            self.h.exec("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", work, Harness.settings] + arguments)
        }
        XCTAssertEqual(inWork(["write", "./App/Info.plist", "-p", "/CFBundleVersion", "-string", "42"]).status, 0)
        XCTAssertEqual(inWork(["read", "App/Info", "CFBundleVersion"]).stdout, "42\n")
        XCTAssertEqual(inWork(["write", "../up.plist", "k", "v"]).status, 0)
        XCTAssertEqual(h.ok("read", h.config + "/up.plist", "k"), "v\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/App/Info.plist"))
        XCTAssertEqual(inWork(["write", "Info", "k", "v"]).status, 0)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: h.path("Info")), "a bare name is a domain in the config folder")
    }

    func testCorruptDomainFileIsReportedAndKept() throws {
        let junk = Data("<plist><dict><key>a</key><integer>1</integer>".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: h.path("com.bad"), contents: junk))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: h.path("com.bad"))
        for arguments in [
            ["read", "com.bad"], ["write", "com.bad", "b", "2"], ["delete", "com.bad", "a"],
            ["read-type", "com.bad", "a"],
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 3, "\(arguments)")
            XCTAssertTrue(r.stderr.hasPrefix("settings: cannot parse \(h.path("com.bad")): XML line 1:"), r.stderr)
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1)
            XCTAssertEqual(FileManager.default.contents(atPath: h.path("com.bad")), junk)
        }
        XCTAssertTrue(
            FileManager.default.createFile(atPath: h.path("com.arr"), contents: Data("<plist><array/></plist>".utf8)))
        let r = h.run(["read", "com.arr"])
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stderr.contains("not a dictionary"), r.stderr)
    }

    func testGlobalHostAndPathDomains() throws {
        h.ok("write", "-g", "a", "-int", "1")
        h.ok("write", "NSGlobalDomain", "b", "-int", "2")
        XCTAssertEqual(h.ok("read", "Apple Global Domain"), "{\n    a = 1;\n    b = 2;\n}\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path(".GlobalPreferences")))
        h.ok("-currentHost", "write", "com.t", "c", "-int", "3")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.config + "/ByHost/com.t..plist"))
        h.ok("-host", "box", "write", "com.t", "d", "-int", "4")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.config + "/ByHost/com.t.box.plist"))
        XCTAssertEqual(h.ok("-currentHost", "read", "com.t", "c"), "3\n")
        XCTAssertEqual(h.run(["read", "com.t"]).status, 1, "ByHost values are not in the any-host file")
        // A path domain's folder must exist: it is never made.
        let missing = h.run(["write", h.config + "/files/thing", "e", "-int", "5"])
        XCTAssertEqual(missing.status, 4)
        XCTAssertEqual(
            missing.stderr, "settings: cannot write \(h.config)/files/thing.plist: No such file or directory\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.config + "/files"))
        try? FileManager.default.createDirectory(atPath: h.config + "/files", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: h.config + "/home", withIntermediateDirectories: true)
        h.ok("write", h.config + "/files/thing", "e", "-int", "5")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.config + "/files/thing.plist"))
        XCTAssertEqual(h.ok("read", h.config + "/files/thing.plist", "e"), "5\n")
        h.ok("write", "~/prefs", "f", "six")
        XCTAssertEqual(h.ok("read", h.config + "/home/prefs", "f"), "six\n")
        XCTAssertEqual(h.ok("read").contains("NSGlobalDomain =     {"), true)
    }

    func testInvokedAsDefaults() throws {
        let link = h.config + "/bin/defaults"
        try FileManager.default.createDirectory(atPath: h.config + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Harness.settings)
        XCTAssertEqual(h.exec(link, ["write", "com.t", "a", "-int", "1"]).status, 0)
        XCTAssertEqual(h.exec(link, ["read", "com.t", "a"]).stdout, "1\n")
        XCTAssertEqual(h.exec(link, ["read", "com.none"]).stderr, "defaults: Domain com.none does not exist\n")
        XCTAssertTrue(h.exec(link, ["help"]).stdout.contains("'defaults' [-currentHost"))
    }

    func testWriteWholeDomainFromXML() {
        h.ok("write", "com.t", "old", "1")
        h.ok("write", "com.t", "<dict><key>a</key><integer>5</integer><key>b</key><true/></dict>")
        XCTAssertEqual(h.ok("read", "com.t"), "{\n    a = 5;\n    b = 1;\n}\n")
        h.ok("write", "com.t", "n", "<integer>5</integer>")
        XCTAssertEqual(h.ok("read-type", "com.t", "n"), "Type is integer\n")
        h.ok("write", "com.t", "doc", "<?xml version=\"1.0\"?><plist version=\"1.0\"><real>2.5</real></plist>")
        XCTAssertEqual(h.ok("read-type", "com.t", "doc"), "Type is float\n")
    }
}
