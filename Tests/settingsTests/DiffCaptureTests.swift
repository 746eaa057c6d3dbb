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
            settings write com.example.new ui '<dict><key>theme</key><string>dark</string></dict>'

            """)
        XCTAssertEqual(
            r.stderr,
            "settings: hid 2 changes to keys that change by themselves (--all shows them): "
                + "com.example.app /NSWindow Frame Main, com.example.app /lastUsedDate\n")
        h.ok("write", "com.example.app", "volume", "-int", "1")
        let all = h.exec(
            settings,
            [
                "capture", "com.example.app", "--all", "--ignore", "vol*", "--", settings, "write",
                "com.example.app", "volume", "-int", "2",
            ])
        XCTAssertEqual(all.stdout, "")
        XCTAssertEqual(
            all.stderr,
            "settings: hid 1 change to keys that change by themselves (--all shows them): com.example.app /volume\n")
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

    // MARK: - Issue 49

    /// Whether `text` holds a byte a terminal may act on: C0 but the line break, DEL, C1.
    func hasRawControl(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        return scalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
    }

    /// Runs `script` with `sh -e` (dash) and the binary first on PATH, the script on
    /// standard input as `| sh -e` gives it (one argument of it could be too big).
    func shE(_ script: String, shell: String = "/bin/sh") -> Harness.Result {
        let path = Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return h.exec(shell, ["-e"], stdin: Data(script.utf8), environment: ["PATH": path])
    }

    /// Case 8: `-currentHost`, `-host` and ByHost paths name the ByHost file everywhere:
    /// the commands, the snapshot's names, and capture.
    func testByHostDomainsKeepTheirHostInCommandsSnapshotsAndCapture() throws {
        h.ok("-currentHost", "write", "com.example.bh", "k", "-int", "1")
        h.ok("-currentHost", "write", "com.example.bh", "gone", "-int", "1")
        h.ok("write", "com.example.bh", "k", "-int", "5")
        h.ok("-currentHost", "write", "com.example.other", "k", "-int", "2")
        let commands = h.run(["-currentHost", "diff", "com.example.bh", "com.example.other", "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        XCTAssertEqual(
            commands.stdout,
            "settings -currentHost delete com.example.bh gone\nsettings -currentHost write com.example.bh k -int 2\n")
        let replay = shE(commands.stdout)
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(h.run(["-currentHost", "diff", "com.example.bh", "com.example.other"]).status, 0)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.bh")), #"{"k": 5}"#, "the any-host file is untouched")

        // A snapshot names the ByHost file so, whichever way it was named, and reads it back.
        h.ok("-host", "mac1", "write", "com.example.bh", "k", "-int", "9")
        let current = try stateDomains(h.ok("-currentHost", "snapshot", "com.example.bh"))
        XCTAssertEqual(Array(current.keys), ["ByHost/com.example.bh."])
        XCTAssertEqual(current["ByHost/com.example.bh."] as? [String: Int], ["k": 2])
        let byPath = try stateDomains(h.ok("snapshot", "~/Library/Preferences/ByHost/com.example.bh.mac1.plist"))
        XCTAssertEqual(byPath as? [String: [String: Int]], ["ByHost/com.example.bh.mac1": ["k": 9]])
        let named = try stateDomains(h.ok("-host", "mac1", "snapshot", "com.example.bh"))
        XCTAssertEqual(named as? [String: [String: Int]], ["ByHost/com.example.bh.mac1": ["k": 9]])
        // A snapshot of everything holds the ByHost files too, and diff reads its names back.
        let snap = h.config + "/all.json"
        h.ok("snapshot", "-o", snap)
        let all = try stateDomains(String(contentsOfFile: snap, encoding: .utf8))
        XCTAssertEqual(all["ByHost/com.example.bh.mac1"] as? [String: Int], ["k": 9])
        XCTAssertEqual(all["com.example.bh"] as? [String: Int], ["k": 5])
        XCTAssertEqual(h.run(["diff", snap]).status, 0)
        h.ok("-host", "mac1", "write", "com.example.bh", "k", "-int", "10")
        XCTAssertEqual(h.run(["diff", snap]).stdout, "--- ByHost/com.example.bh.mac1\n-/k = 9\n+/k = 10\n")

        // capture sees a ByHost file change, named or not, and replays it with its host.
        let settings = Harness.settings
        let named1 = h.exec(
            settings,
            [
                "-currentHost", "capture", "com.example.bh", "--", settings, "-currentHost", "write", "com.example.bh",
                "k",
                "-int", "3",
            ])
        XCTAssertEqual(named1.status, 0, named1.stderr)
        XCTAssertEqual(named1.stdout, "settings -currentHost write com.example.bh k -int 3\n")
        let every = h.exec(
            settings, ["capture", "--", settings, "-host", "mac1", "write", "com.example.bh", "k", "-int", "4"])
        XCTAssertEqual(every.stdout, "settings -host mac1 write com.example.bh k -int 4\n", every.stderr)
    }

    /// The `domains` of a state file, as Foundation reads its JSON.
    func stateDomains(_ text: String) throws -> [String: Any] {
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try XCTUnwrap(root?["domains"] as? [String: Any], text)
    }

    /// Case 9: a value too big for one argument (Linux: 128 KiB) is replayed through
    /// standard input; a small one stays a readable `write` line.
    func testAValueOverAnArgumentsLimitIsReplayed() throws {
        let target = h.config + "/big.plist"
        let big: PlistDictionary = [
            "blob": .data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            "text": .string(String(repeating: "0123456789abcdef", count: 9_000)),
            "list": .array((0..<3_000).map { .string("item number \($0) of a long list") }),
            "small": 3,
        ]
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data(BinaryWriter.encode(.dict(big)))))
        let commands = h.run(["diff", "com.example.big", target, "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        XCTAssertTrue(commands.stdout.contains("settings write com.example.big small -int 3\n"), commands.stdout)
        for shell in ["/bin/sh", "/bin/bash"] {
            h.run(["delete", "com.example.big"])
            let replay = shE(commands.stdout, shell: shell)
            XCTAssertEqual(replay.status, 0, "\(shell): \(replay.stderr.prefix(500))")
            XCTAssertEqual(h.run(["diff", "com.example.big", target]).status, 0, shell)
            XCTAssertTrue(h.plistlibCanon(h.path("com.example.big")) == h.plistlibCanon(target), shell)
        }
    }

    /// Case 10: `diff FILE DOMAIN --commands` turns the file into the domain, as it says.
    func testCommandsOfAFileAgainstADomainWriteTheFile() throws {
        let file = h.config + "/backup.plist"
        let old: PlistDictionary = ["gone": 1, "k": 1, "nested": ["a": 1, "b": 2]]
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(XMLWriter.encode(.dict(old)))))
        h.ok("write", "com.example.app", "k", "-int", "2")
        h.ok("write", "com.example.app", "nested", "-dict", "a", "-int", "1")
        h.ok("write", "com.example.app", "new", "-bool", "true")
        let before = h.plistlibCanon(h.path("com.example.app"))
        let commands = h.run(["diff", file, "com.example.app", "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        XCTAssertFalse(commands.stdout.contains("com.example.app"), commands.stdout)
        let replay = shE(commands.stdout)
        XCTAssertEqual(replay.status, 0, replay.stderr + commands.stdout)
        XCTAssertEqual(h.run(["diff", file, "com.example.app"]).status, 0)
        XCTAssertEqual(h.plistlibCanon(file), before)
        XCTAssertEqual(h.plistlibCanon(h.path("com.example.app")), before, "the domain is untouched")
        // Standard input cannot be written back: said, not guessed.
        let piped = h.run(["diff", "-", "com.example.app", "--commands"], stdin: Data(XMLWriter.encode(.dict(old))))
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.stderr.contains("give the domain first"), piped.stderr)
    }

    /// Case 19: no raw ESC, BEL, CR or other control byte in the commands, and the
    /// commands shown are the ones that run.
    func testCommandsHoldNoRawControlBytes() throws {
        let target = h.config + "/ctl.plist"
        let b: PlistDictionary = [
            "title\u{1b}]0;pwned\u{07}": "x", "value": "red \u{1b}[31m\r\u{07}\u{7f}\u{9b}",
            "nested": ["a\rb": ["c\u{1b}": "d\u{85}"]], "list": .array(["\u{1b}[2J", 1]),
            "-dash\u{1b}": true, "tab\there": "line\nbreak",
        ]
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data(BinaryWriter.encode(.dict(b)))))
        let commands = h.run(["diff", "com.example.ctl", target, "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        XCTAssertFalse(hasRawControl(commands.stdout), commands.stdout)
        XCTAssertEqual(commands.stdout.split(separator: "\n").count, b.count, "one command a line")
        let replay = shE(commands.stdout)
        XCTAssertEqual(replay.status, 0, replay.stderr + commands.stdout)
        XCTAssertEqual(h.run(["diff", "com.example.ctl", target]).status, 0)
        XCTAssertEqual(h.plistlibCanon(h.path("com.example.ctl")), h.plistlibCanon(target))
        // capture prints them the same way.
        h.ok("write", "com.example.ctl", "k", "-int", "1")
        let settings = Harness.settings
        let captured = h.exec(
            settings, ["capture", "--", settings, "write", "com.example.ctl", "k", "-string", "bell\u{07}"])
        XCTAssertFalse(hasRawControl(captured.stdout), captured.stdout)
        XCTAssertEqual(captured.stdout, "settings write com.example.ctl k --exact --json '\"bell\\u0007\"'\n")
    }

    /// Case 23: `-g` is the global domain for capture and snapshot, as completion offers.
    func testCaptureAndSnapshotTakeTheGlobalDomainAsG() throws {
        h.ok("write", "-g", "k", "-int", "1")
        let snap = try stateDomains(h.ok("snapshot", "-g"))
        XCTAssertEqual(snap as? [String: [String: Int]], ["NSGlobalDomain": ["k": 1]])
        let settings = Harness.settings
        let r = h.exec(settings, ["capture", "-g", "--", settings, "write", "-g", "k", "-int", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "settings write NSGlobalDomain k -int 2\n")
    }

    /// Case 25: checkboxes whose names look like noise are shown; what is hidden is named.
    func testCaptureShowsCheckboxesAndNamesWhatItHides() {
        let settings = Harness.settings
        let script = """
            \(settings) write com.apple.dock show-recents -bool false
            \(settings) write com.apple.dock recent-apps -array a b
            \(settings) write com.apple.finder ShowRecentTags -bool false
            \(settings) write com.apple.Safari -p /History/enabled -bool true
            \(settings) write com.apple.Safari -p /History/items -array x
            \(settings) write com.apple.Safari 'NSWindow Frame Main' -string '0 0 10 10'
            """
        let r = h.exec(settings, ["capture", "--", "/bin/sh", "-c", script])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            settings write com.apple.Safari History '<dict><key>enabled</key><true/></dict>'
            settings write com.apple.dock show-recents -bool false
            settings write com.apple.finder ShowRecentTags -bool false

            """)
        XCTAssertEqual(
            r.stderr,
            "settings: hid 3 changes to keys that change by themselves (--all shows them): "
                + "com.apple.Safari /History/items, com.apple.Safari /NSWindow Frame Main, com.apple.dock /recent-apps\n"
        )
    }

    /// `capture --state` writes a desired state `apply` takes: the changed keys only, the
    /// noise left out, a real kept a real.
    func testCaptureStateWritesADesiredStateThatApplyTakes() throws {
        h.ok("write", "com.example.app", "volume", "-int", "1")
        h.ok("write", "com.example.app", "untouched", "-int", "1")
        h.ok("write", "com.example.app", "gone", "-int", "1")
        h.ok("write", "com.example.app", "ui", "-dict", "font", "-string", "mono")
        let settings = Harness.settings
        let state = h.config + "-capture.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: state) }
        let script = """
            \(settings) write com.example.app volume -int 7
            \(settings) write com.example.app ratio -float 1.0
            \(settings) write com.example.app -p /ui/theme -string dark
            \(settings) write com.example.app 'NSWindow Frame Main' -string '0 0 10 10'
            \(settings) delete com.example.app gone
            """
        let r = h.exec(settings, ["capture", "com.example.app", "--state", "-o", state, "--", "/bin/sh", "-c", script])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let text = try String(contentsOfFile: state, encoding: .utf8)
        XCTAssertTrue(text.contains("1.0"), text)
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertEqual(Set(root?.keys ?? [:].keys), ["com.example.app"])
        let app = root?["com.example.app"] as? [String: Any]
        // A leaf below the top is its pointer, so the keys beside it stay; a key removed
        // is null (issue 49: a desired state says absent).
        XCTAssertEqual(Set(app?.keys ?? [:].keys), ["volume", "ratio", "/ui/theme", "gone"], text)
        XCTAssertTrue(app?["gone"] is NSNull, text)
        // Applied elsewhere, it gives the same keys, types included, and takes the removed one.
        let fresh = Harness()
        defer { fresh.cleanUp() }
        fresh.ok("write", "com.example.app", "gone", "-int", "5")
        fresh.ok("write", "com.example.app", "ui", "-dict", "size", "-int", "12")
        let applied = fresh.run(["apply", state])
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertEqual(
            fresh.plistlibJSON(fresh.path("com.example.app")),
            #"{"ratio": 1.0, "ui": {"size": 12, "theme": "dark"}, "volume": 7}"#)
        // Without -o, to standard output.
        let out = h.exec(
            settings, ["capture", "--state", "--", settings, "write", "com.example.app", "volume", "-int", "8"])
        XCTAssertEqual(out.stdout, "{\n  \"com.example.app\": {\n    \"volume\": 8\n  }\n}\n", out.stderr)
    }

    /// The snapshot says `unreadable` only when some domain was, as the man page says.
    func testSnapshotListsUnreadableDomainsOnlyWhenThereAreSome() throws {
        h.ok("write", "com.example.good", "k", "-int", "1")
        XCTAssertFalse(h.ok("snapshot").contains("unreadable"))
        try Data("<plist><dict><key>k</key>".utf8).write(to: URL(fileURLWithPath: h.path("com.example.broken")))
        let r = h.run(["snapshot"])
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stdout.contains("\"unreadable\": [\n    \"com.example.broken\"\n  ]"), r.stdout)
    }

    /// Completion: diff offers files with the domains, capture -- a command, edit
    /// --format its two forms.
    func testCompletionOfDiffCaptureAndEditFormat() {
        h.ok("write", "com.example.app", "k", "1")
        let diff = h.ok("complete", "line", "diff", "")
        XCTAssertTrue(diff.hasPrefix("files\n"), diff)
        XCTAssertTrue(diff.contains("\ncom.example.app\n"), diff)
        XCTAssertTrue(h.ok("complete", "line", "diff", "com.example.app", "").hasPrefix("files\n"))
        XCTAssertTrue(h.ok("complete", "line", "capture", "--", "").hasPrefix("commands\n"))
        XCTAssertTrue(h.ok("complete", "line", "capture", "-g", "--", "ls", "").hasPrefix("files\n"))
        XCTAssertEqual(h.ok("complete", "line", "edit", "com.example.app", "--format", ""), "words\njson\nxml\n")
    }
}
