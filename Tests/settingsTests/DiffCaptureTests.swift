import Foundation
import XCTest
@testable import PlistCodecs
@testable import PlistModel

/// `diff`, `snapshot` and `capture` through the real binary, the replayed commands run by
/// a shell, the domains read back by plistlib.
final class DiffCaptureTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// Runs `script` in sh with the binary first on PATH, in the harness's folders.
    @discardableResult
    func sh(_ script: String, file: StaticString = #filePath, line: UInt = #line) -> Harness.Result {
        let path = Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = h.exec("/bin/sh", ["-c", script], environment: ["PATH": path])
        return r
    }

    func testDiffOfTwoDomainsAndItsExitStatus() {
        h.ok("write", "com.example.a", "k", "-int", "1")
        h.ok("write", "com.example.b", "k", "-int", "2")
        h.ok("write", "com.example.c", "k", "-int", "1")
        let r = h.run(["diff", "com.example.a", "com.example.b"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "-/k = 1\n+/k = 2\n")
        XCTAssertEqual(h.run(["diff", "com.example.a", "com.example.c"]).status, 0)
        XCTAssertEqual(h.run(["diff", "com.example.a", "com.example.none"]).stdout, "-/k = 1\n")
        XCTAssertEqual(h.run(["diff", "com.example.a"]).status, 2)
        XCTAssertEqual(h.run(["diff", "com.example.a", "com.example.b", "--commands", "--json"]).status, 2)
        let json = h.run(["diff", "com.example.a", "com.example.b", "--json"])
        XCTAssertEqual(json.stdout, #"{"domain":"com.example.a","path":"/k","change":"set","old":1,"new":2}"# + "\n")
    }

    /// The property the issue asks for: pasting `--commands` turns A into B exactly.
    func testReplayedCommandsTurnADomainIntoAFileExactly() throws {
        let target = h.config + "/target.plist"
        let b: PlistDictionary = [
            "bool": false, "int": 42, "big": .int(PlistInteger(unsigned: UInt64.max)), "double": 0.1,
            "date": .date(PlistDate(secondsSince2001: 12.5)), "whole": .date(PlistDate(secondsSince2001: 86400)),
            "data": .data([0, 1, 254]), "quote": "it's \"quoted\" $HOME `x`\nline", "-dash": "v", "": "empty key",
            "nested": ["deep": ["x": 1, "0": "zero", "a/b~c": true], "list": .array(["a", 1, ["k": "v"]])],
            "emptyDict": .dict([:]), "emptyList": .array([]), "nan": .double(.nan),
        ]
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data(BinaryWriter.encode(.dict(b)))))
        h.ok("write", "com.example.app", "nested", "-dict", "deep", "-string", "was a string")
        h.ok("write", "com.example.app", "gone", "-int", "1")
        h.ok("write", "com.example.app", "int", "-string", "41")
        let commands = h.run(["diff", "com.example.app", target, "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        let replay = sh("set -e\n" + commands.stdout)
        XCTAssertEqual(replay.status, 0, replay.stderr + commands.stdout)
        let after = h.run(["diff", "com.example.app", target])
        XCTAssertEqual(after.status, 0, after.stdout)
        XCTAssertEqual(h.plistlibCanon(h.path("com.example.app")), h.plistlibCanon(target))
    }

    func testSnapshotThenDiffShowsNewAndDeletedDomains() throws {
        h.ok("write", "com.example.kept", "k", "-int", "1")
        h.ok("write", "com.example.gone", "k", "-int", "1")
        let snap = h.config + "/before.json"
        h.ok("snapshot", "-o", snap)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: snap)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(h.run(["diff", snap]).status, 0)
        h.ok("write", "com.example.new", "k", "-bool", "true")
        h.ok("delete", "com.example.gone")
        h.ok("write", "com.example.kept", "k", "-int", "2")
        let r = h.run(["diff", snap])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stdout,
            "--- com.example.gone (deleted)\n-/k = 1\n--- com.example.kept\n-/k = 1\n+/k = 2\n"
                + "--- com.example.new (new)\n+/k = true\n")
        // Two snapshots compare the same way, and a named snapshot says nothing of others.
        h.ok("snapshot", "-o", h.config + "/after.json")
        XCTAssertEqual(h.run(["diff", snap, h.config + "/after.json"]).stdout, r.stdout)
        h.ok("snapshot", "com.example.kept", "-o", h.config + "/one.json")
        XCTAssertEqual(h.run(["diff", h.config + "/one.json"]).status, 0)
        // A snapshot against a domain is a usage error, and a broken file is one line.
        XCTAssertEqual(h.run(["diff", snap, "com.example.kept"]).status, 2)
        try Data("{\"settings-state\": 1, \"domains\": [".utf8).write(to: URL(fileURLWithPath: h.config + "/bad.json"))
        let bad = h.run(["diff", h.config + "/bad.json"])
        XCTAssertEqual(bad.status, 3)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }

    func testCaptureOfACommandPrintsItsChangesAsCommands() {
        h.ok("write", "com.example.app", "volume", "-int", "1")
        h.ok("write", "com.example.old", "k", "-int", "1")
        let settings = Harness.settings
        let script = """
            \(settings) write com.example.app volume -int 7
            \(settings) write com.example.app 'NSWindow Frame Main' -string '0 0 10 10'
            \(settings) write com.example.app lastUsedDate -date 2024-01-01T00:00:00Z
            \(settings) write com.example.new -p /ui/theme -string dark
            \(settings) delete com.example.old
            exit 3
            """
        let r = h.exec(settings, ["capture", "--", "/bin/sh", "-c", script])
        XCTAssertEqual(r.status, 3, "capture ends with the command's status")
        XCTAssertEqual(
            r.stdout,
            """
            settings write com.example.app volume -int 7
            settings delete com.example.old
            settings write com.example.new ui '<dict>
            \t<key>theme</key>
            \t<string>dark</string>
            </dict>'

            """)
        XCTAssertEqual(r.stderr, "settings: hid 2 changes to keys that change by themselves (--all shows them)\n")
        h.ok("write", "com.example.app", "volume", "-int", "1")
        let all = h.exec(
            settings,
            [
                "capture", "com.example.app", "--all", "--ignore", "vol*", "--", settings, "write",
                "com.example.app", "volume", "-int", "2",
            ])
        XCTAssertEqual(all.stdout, "")
        XCTAssertEqual(all.stderr, "settings: hid 1 change to keys that change by themselves (--all shows them)\n")
    }

    func testCaptureEndsOnCtrlCAndOnItsTimeout() throws {
        h.ok("write", "com.example.app", "volume", "-int", "1")
        let (process, out, _) = try h.start(["capture", "com.example.app"])
        WatchTests.waitUntilWaiting(process)
        h.ok("write", "com.example.app", "volume", "-int", "5")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "settings write com.example.app volume -int 5\n")
        let timed = h.exec(Harness.settings, ["capture", "--timeout", "0.1"])
        XCTAssertEqual(timed.status, 0)
        XCTAssertEqual(timed.stdout, "")
        XCTAssertEqual(timed.stderr, "settings: recording every domain for 0.1 s\n")
        XCTAssertEqual(h.exec(Harness.settings, ["capture", "--", "/no/such/program"]).status, 127)
        XCTAssertEqual(h.run(["capture", "--timeout", "-1"]).status, 2)
        XCTAssertEqual(h.run(["capture", "--ignor", "x"]).status, 2)
    }

    /// One file that does not parse is said once and left out; it does not stop a snapshot,
    /// a diff or a capture of all the others, nor show as a deleted domain.
    func testABrokenDomainIsSkippedNotFatal() throws {
        h.ok("write", "com.example.good", "k", "-int", "1")
        try Data("<plist><dict><key>k</key>".utf8).write(to: URL(fileURLWithPath: h.path("com.example.broken")))
        let snap = h.config + "-all.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: snap) }
        let r = h.run(["snapshot", "-o", snap])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("com.example.broken"), r.stderr)
        h.ok("write", "com.example.good", "k", "-int", "2")
        let d = h.run(["diff", snap])
        XCTAssertEqual(d.status, 3, "the broken file is reported; the rest compared")
        XCTAssertEqual(d.stdout, "--- com.example.good\n-/k = 1\n+/k = 2\n")
        let c = h.exec(
            Harness.settings, ["capture", "--", Harness.settings, "write", "com.example.good", "k", "-int", "3"])
        XCTAssertEqual(c.status, 0)
        XCTAssertEqual(c.stdout, "settings write com.example.good k -int 3\n")
        XCTAssertTrue(c.stderr.hasPrefix("settings: warning: cannot parse"), c.stderr)
    }
}
