import Foundation
import XCTest
@testable import settings

/// `apply` as dotfiles use it (issue 49): one file per app, each its own record; a run
/// killed or doubled loses no value it must give back; a person's own later value is
/// theirs; a snapshot applied is a restore; `null` says absent; what is printed was done.
final class ApplyTrustTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func json(_ domain: String) -> String { h.plistlibJSON(h.path(domain)) }

    /// Case 3: `apply editor.json; apply term.json; apply editor.json` keeps both apps'
    /// settings, and a one-off from standard input reverts nothing.
    func testTwoFilesKeepTheirOwnRecords() {
        let editor = h.file("editor.json", #"{"com.example.editor": {"tabs": 4}}"#)
        let term = h.file("term.json", #"{"com.example.term": {"font": "mono"}}"#)
        h.ok("apply", editor)
        h.ok("apply", term)
        h.ok("apply", editor)
        XCTAssertEqual(json("com.example.editor"), #"{"tabs": 4}"#)
        XCTAssertEqual(json("com.example.term"), #"{"font": "mono"}"#)
        let oneOff = h.run(["apply", "-", "--dry-run"], stdin: Data(#"{"com.example.x": {"k": 1}}"#.utf8))
        XCTAssertEqual(oneOff.status, 0, oneOff.stderr)
        XCTAssertFalse(oneOff.stdout.contains("editor") || oneOff.stdout.contains("term"), oneOff.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.applyRecord(of: editor)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.applyRecord(of: term)))
    }

    /// Case 3: a file applied under a record that holds another domain is refused, with a
    /// line naming `--as`; naming the domain as `{}` gives its keys back.
    func testAFileThatNoLongerNamesADomainIsRefused() {
        h.ok("write", "com.example.term", "font", "-string", "serif")
        let both = h.file("both.json", #"{"com.example.editor": {"tabs": 4}, "com.example.term": {"font": "mono"}}"#)
        h.ok("apply", both)
        _ = h.file("both.json", #"{"com.example.editor": {"tabs": 4}}"#)
        let before = h.snapshot()
        let refused = h.run(["apply", both])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--as NAME"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains(#""com.example.term": {}"#), refused.stderr)
        XCTAssertEqual(h.snapshot(), before)
        _ = h.file("both.json", #"{"com.example.editor": {"tabs": 4}, "com.example.term": {}}"#)
        h.ok("apply", both)
        XCTAssertEqual(json("com.example.term"), #"{"font": "serif"}"#)
    }

    /// Case 5: a key the apply set and a person changed since is theirs when the file
    /// drops it: left as they set it, with a warning.
    func testPruningKeepsAValueChosenSince() {
        h.ok("write", "com.example.app", "theme", "-string", "light")
        let f = h.file("app.json", #"{"com.example.app": {"theme": "dark", "size": 12}}"#)
        h.ok("apply", f)
        h.ok("write", "com.example.app", "theme", "-string", "solarized")
        _ = h.file("app.json", #"{"com.example.app": {}}"#)
        let r = h.run(["apply", f])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("/theme changed since apply set it; left as it is"), r.stderr)
        XCTAssertEqual(json("com.example.app"), #"{"theme": "solarized"}"#)
    }

    /// Case 4: a run killed between two domains (the second one's file locked, so the run
    /// waits there) is run again: the record still knows what the first domain held.
    func testAKilledApplyLosesNoValueToGiveBack() throws {
        h.ok("write", "com.example.a", "k", "-int", "1")
        h.ok("write", "com.example.b", "k", "-int", "1")
        let f = h.file("ab.json", #"{"com.example.a": {"k": 2}, "com.example.b": {"k": 2}}"#)
        // Holds b's file lock, as a writer of b would.
        let holder = try h.holdingLock(on: h.path("com.example.b"))
        defer { if holder.isRunning { holder.terminate() } }
        let (apply, _, _) = try h.start(["apply", f])
        let deadline = Date().addingTimeInterval(10)
        while h.ok("read", "com.example.a", "k") != "2\n", Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(h.ok("read", "com.example.a", "k"), "2\n")
        kill(apply.processIdentifier, SIGKILL)
        apply.waitUntilExit()
        holder.terminate()
        holder.waitUntilExit()
        h.ok("apply", f)
        _ = h.file("ab.json", #"{"com.example.a": {}, "com.example.b": {}}"#)
        h.ok("apply", f)
        XCTAssertEqual(json("com.example.a"), #"{"k": 1}"#, "a gets back what it held before the first run")
        XCTAssertEqual(json("com.example.b"), #"{"k": 1}"#)
    }

    /// Case 4: applies of one file at once take turns; every prior value is given back.
    /// Before, each read the record and the domains on its own: one that planned after
    /// another had written took the desired value for the one held before, and saved last.
    func testOverlappingAppliesLoseNoPriorValue() {
        let harness = h!
        let names = (0..<8).map { "com.example.d\($0)" }
        var lost: [String] = []
        for round in 0..<6 {
            for name in names { h.ok("write", name, "k", "-int", "1") }
            try? FileManager.default.removeItem(atPath: h.applyRecord(of: h.files + "/many.json"))
            let f = h.file("many.json", "{" + names.map { #""\#($0)": {"k": 2}"# }.joined(separator: ", ") + "}")
            // Started a few milliseconds apart, so one plans while another writes.
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                Thread.sleep(forTimeInterval: Double(i) * Double(round + 1) * 0.003)
                let r = harness.exec(Harness.settings, ["apply", f])
                XCTAssertEqual(r.status, 0, r.stderr)
            }
            _ = h.file("many.json", "{" + names.map { #""\#($0)": {}"# }.joined(separator: ", ") + "}")
            h.ok("apply", f)
            for name in names where h.ok("read", name, "k") != "1\n" { lost.append("round \(round): \(name)") }
        }
        XCTAssertEqual(lost, [], "prior values lost")
    }

    /// Case 11: a place the record holds that can no longer be given back (its dictionary
    /// is now a string, an array shortened) is left, with a warning, and never blocks
    /// a later apply.
    func testAStaleRecordNeverBlocksApply() {
        let f = h.file(
            "win.json", #"{"com.example.app": {"/win/w": 800, "/list/2": 9}, "com.example.other": {"k": 1}}"#)
        h.ok("write", "com.example.app", "list", "-array", "1", "2", "3")
        h.ok("apply", f)
        // The desired file now sets win whole, as a string.
        _ = h.file(
            "win.json", #"{"com.example.app": {"win": "fullscreen", "/list/2": 9}, "com.example.other": {"k": 1}}"#)
        let replaced = h.run(["apply", f])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "win"), "fullscreen\n")
        // The person shortens the array; the file drops its pointer.
        h.ok("write", "com.example.app", "list", "-array", "1")
        _ = h.file("win.json", #"{"com.example.app": {"win": "fullscreen"}, "com.example.other": {"k": 2}}"#)
        let stale = h.run(["apply", f])
        XCTAssertEqual(stale.status, 0, stale.stderr)
        XCTAssertTrue(stale.stderr.contains("/list/2"), stale.stderr)
        XCTAssertEqual(h.ok("read", "com.example.other", "k"), "2\n")
        // And again: the stale place is no longer in the record.
        let again = h.run(["apply", f])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
    }

    /// Case 11: the person writes the dictionary as a string; the file drops the pointer.
    func testAPointerUnderAValueNoLongerADictionaryIsLeft() {
        let f = h.file("w.json", #"{"com.example.app": {"/win/w": 800}}"#)
        h.ok("apply", f)
        h.ok("write", "com.example.app", "win", "-string", "mine")
        _ = h.file("w.json", #"{"com.example.app": {}}"#)
        let r = h.run(["apply", f])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "win"), "mine\n")
    }

    /// Case 14: one domain named twice is refused before anything is written.
    func testOneDomainNamedTwiceIsRefused() {
        let f = h.file("g.json", #"{"-g": {"a": 1}, "NSGlobalDomain": {"a": 2}}"#)
        let r = h.run(["apply", f])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("name one domain"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path(".GlobalPreferences")))
    }

    /// Cases 7 and 15: a snapshot applied is a restore, its keys taken as they are: a key
    /// made since goes, a domain made since goes, and `--check` agrees with `diff`.
    func testASnapshotAppliedIsARestore() {
        h.ok("write", "com.example.paths", "/usr/bin/python3", "-bool", "true")
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let snap = h.config + "-all.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: snap) }
        h.ok("snapshot", "-o", snap)
        h.ok("write", "com.example.app", "made", "-string", "since")
        h.ok("write", "com.example.app", "volume", "-int", "6")
        h.ok("write", "com.example.new", "k", "-int", "1")
        h.ok("delete", "com.example.paths")
        XCTAssertEqual(h.run(["apply", snap, "--check"]).status, 1)
        let r = h.run(["apply", snap])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(json("com.example.paths"), #"{"/usr/bin/python3": true}"#)
        XCTAssertEqual(json("com.example.app"), #"{"volume": 5}"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.new")))
        let diff = h.run(["diff", snap])
        XCTAssertEqual(diff.status, 0, diff.stdout + diff.stderr)
        let check = h.run(["apply", snap, "--check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    /// `null` says absent: a key, a pointer, a whole domain; not a place inside a value.
    func testNullSaysAbsent() {
        h.ok("write", "com.example.app", "gone", "-int", "1")
        h.ok("write", "com.example.app", "win", "-dict", "w", "-int", "1", "h", "-int", "2")
        h.ok("write", "com.example.old", "k", "-int", "1")
        let f = h.file("n.json", #"{"com.example.app": {"gone": null, "/win/w": null}, "com.example.old": null}"#)
        let dry = h.run(["apply", f, "--dry-run"])
        XCTAssertTrue(dry.stdout.contains("-/gone = 1"), dry.stdout)
        h.ok("apply", f)
        XCTAssertEqual(json("com.example.app"), #"{"win": {"h": 2}}"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.old")))
        XCTAssertEqual(h.run(["apply", f, "--check"]).status, 0)
        let inside = h.run(["apply", h.file("in.json", #"{"com.example.app": {"win": {"w": null}}}"#)])
        XCTAssertEqual(inside.status, 2, inside.stderr)
        XCTAssertTrue(inside.stderr.contains(#""/win/w": null"#), inside.stderr)
    }

    /// Case 8: a ByHost domain in a state or desired file is applied to its ByHost file,
    /// and the plain domain is left alone.
    func testByHostDomainsAreAppliedToTheirFile() {
        h.ok("write", "com.example.app", "plain", "-int", "1")
        h.ok("-currentHost", "write", "com.example.app", "volume", "-int", "5")
        let snap = h.config + "-host.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: snap) }
        h.ok("-currentHost", "snapshot", "com.example.app", "-o", snap)
        h.ok("-currentHost", "write", "com.example.app", "volume", "-int", "6")
        h.ok("apply", snap)
        XCTAssertEqual(h.ok("-currentHost", "read", "com.example.app", "volume"), "5\n")
        XCTAssertEqual(json("com.example.app"), #"{"plain": 1}"#)
        let desired = h.file("bh.json", #"{"ByHost/com.example.app.": {"volume": 9}}"#)
        h.ok("apply", desired)
        XCTAssertEqual(h.ok("-currentHost", "read", "com.example.app", "volume"), "9\n")
        XCTAssertEqual(json("com.example.app"), #"{"plain": 1}"#)
        XCTAssertEqual(h.run(["apply", desired, "--check"]).status, 0)
    }

    /// The record a file is applied under: its name without its extension; a Nix store
    /// path's without its hash, so every build keeps one record; nothing that leaves the
    /// records' folder.
    func testTheRecordIsNamedAfterTheFile() {
        XCTAssertEqual(ApplyCommand.recordName(of: "/home/me/dotfiles/editor.json"), "editor")
        XCTAssertEqual(ApplyCommand.recordName(of: "term"), "term")
        XCTAssertEqual(ApplyCommand.recordName(of: "-"), "stdin")
        XCTAssertEqual(
            ApplyCommand.recordName(of: "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-settings.json"), "settings")
        XCTAssertEqual(
            ApplyCommand.recordName(of: "/tmp/0123456789abcdfghijklmnpqrsvwxyz-settings.json"),
            "0123456789abcdfghijklmnpqrsvwxyz-settings")
        XCTAssertEqual(ApplyCommand.recordName(of: "../.hidden.json"), "_hidden")
        XCTAssertEqual(ApplyCommand.recordName(of: "/x/a b\u{1}.json"), "a_b_")
        XCTAssertEqual(ApplyCommand.recordName(of: "/x/.json"), "_json")
    }

    /// Case 14, found from outside: two spellings that differ only in case are one
    /// domain (the store finds a file in any case), refused as one named twice; so is a
    /// place inside another the file sets.
    func testOneDomainOrPlaceSaidTwoWaysIsRefused() {
        let cased = h.run(["apply", h.file("c.json", #"{"com.ex.A": {"k": 1}, "com.ex.a": {"k": 2}}"#)])
        XCTAssertEqual(cased.status, 2, cased.stderr)
        XCTAssertTrue(cased.stderr.contains("name one domain"), cased.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }, [])
        let inside = h.run(["apply", h.file("i.json", #"{"com.ex.a": {"arr": [1, 2, 3], "/arr/2": 9}}"#)])
        XCTAssertEqual(inside.status, 2, inside.stderr)
        XCTAssertTrue(inside.stderr.contains("/arr/2: inside /arr, which the file also sets"), inside.stderr)
        // A 100,000-segment pointer is named in one short line.
        let long = "/" + Array(repeating: "a", count: 100_000).joined(separator: "/")
        let deep = h.run(["apply", h.file("d.json", #"{"com.ex.a": {"\#(long)": 1}}"#)])
        XCTAssertEqual(deep.status, 2)
        XCTAssertLessThan(deep.stderr.utf8.count, 1000, String(deep.stderr.prefix(300)))
    }

    /// Case 8, found from outside: `-currentHost apply` applies the file's plain domains to
    /// their ByHost files, as `-currentHost snapshot` names them.
    func testCurrentHostApplyWritesTheByHostFile() {
        h.ok("write", "com.ex.h", "k", "-int", "1")
        h.ok("-currentHost", "write", "com.ex.h", "k", "-int", "2")
        let f = h.file("b.json", #"{"com.ex.h": {"k": 9}}"#)
        XCTAssertEqual(h.run(["-currentHost", "apply", f, "--check"]).status, 1)
        h.ok("-currentHost", "apply", f)
        XCTAssertEqual(h.ok("-currentHost", "read", "com.ex.h", "k"), "9\n")
        XCTAssertEqual(h.ok("read", "com.ex.h", "k"), "1\n", "the plain domain is left alone")
        XCTAssertEqual(h.run(["-currentHost", "apply", f, "--check"]).status, 0)
        // A null too reaches the ByHost file.
        h.ok("-currentHost", "apply", h.file("b.json", #"{"com.ex.h": {"k": null}}"#))
        XCTAssertEqual(h.run(["-currentHost", "read", "com.ex.h", "k"]).status, 1)
        XCTAssertEqual(h.ok("read", "com.ex.h", "k"), "1\n")
    }

    /// A record that does not parse, or is of another version, says how to go on.
    func testABrokenRecordSaysHowToGoOn() throws {
        let f = h.file("r.json", #"{"com.ex.a": {"k": 1}}"#)
        try FileManager.default.createDirectory(atPath: h.state + "/settings/apply", withIntermediateDirectories: true)
        for text in ["", #"{"settings-apply": 2, "domains": {}}"#] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: h.applyRecord(of: f)))
            let r = h.run(["apply", f])
            XCTAssertEqual(r.status, 3, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("--as NAME") || r.stderr.contains("this version"), r.stderr)
        }
    }

    /// Found from outside, a second time: Unicode case variants (the Kelvin sign) are one
    /// domain too; one place given twice (as a key and a pointer, or with null) is refused;
    /// a snapshot with -currentHost is refused, never a restore that deletes plain domains.
    func testSecondRoundOfOutsideFindings() throws {
        let kelvin = h.run(["apply", h.file("k.json", #"{"com.ex.K": {"x": 1}, "com.ex.\u212a": {"x": 2}}"#)])
        XCTAssertEqual(kelvin.status, 2, kelvin.stderr)
        for text in [#"{"D": {"a": 1, "/a": 2}}"#, #"{"D": {"a": null, "/a": 2}}"#, #"{"D": {"/a~1b": 1, "a/b": 2}}"#] {
            let twice = h.run(["apply", h.file("t.json", text)])
            XCTAssertEqual(twice.status, 2, text + twice.stderr)
            XCTAssertTrue(twice.stderr.contains("given twice"), twice.stderr)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }, [])
        h.ok("write", "com.ex.a", "k", "-int", "1")
        let snap = h.files + "/all.json"
        h.ok("snapshot", "-o", snap)
        let hosted = h.run(["-currentHost", "apply", snap])
        XCTAssertEqual(hosted.status, 2, hosted.stderr)
        XCTAssertEqual(h.ok("read", "com.ex.a", "k"), "1\n")
    }

    /// A record of another form stops the run in one line that says how to go on, and a
    /// place that is not `{…}` is never read as one.
    func testEveryBrokenRecordSaysHowToGoOn() throws {
        let f = h.file("ed.json", #"{"com.ex.r": {"k": 5}}"#)
        h.ok("apply", f)
        let bad = [
            #"{"settings-apply": 2, "domains": {}}"#, #"{"settings-apply": 1}"#,
            #"{"settings-apply": 1, "domains": []}"#, #"{"settings-apply": 1, "domains": {"com.ex.r": 5}}"#,
            #"{"settings-apply": 1, "domains": {"com.ex.r": {"/k": 5}}}"#,
        ]
        for text in bad {
            try Data(text.utf8).write(to: URL(fileURLWithPath: h.applyRecord(of: f)))
            let r = h.run(["apply", f])
            XCTAssertEqual(r.status, 3, text + r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("remove it to start this record afresh, or apply with --as NAME"), r.stderr)
            XCTAssertEqual(r.stderr.components(separatedBy: "cannot use").count, 2, "said once: " + r.stderr)
        }
    }

    /// Case 22: a record or state file without "domains" says so.
    func testAFileWithoutDomainsSaysSo() throws {
        let state = h.file("s.json", #"{"settings-state": 1}"#)
        let r = h.run(["apply", state])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains(#"it has no "domains" dictionary"#), r.stderr)
        let desired = h.file("x.json", "{}")
        try FileManager.default.createDirectory(
            atPath: h.state + "/settings/apply", withIntermediateDirectories: true)
        try Data(#"{"settings-apply": 1}"#.utf8).write(to: URL(fileURLWithPath: h.applyRecord(of: desired)))
        let record = h.run(["apply", desired])
        XCTAssertEqual(record.status, 3, record.stderr)
        XCTAssertTrue(record.stderr.contains(#"it has no "domains" dictionary"#), record.stderr)
        XCTAssertFalse(record.stderr.contains("not a dictionary"), record.stderr)
    }
}

extension Harness {
    /// The record a file is applied under with no `--as`: its name without its extension.
    func applyRecord(of file: String) -> String {
        state + "/settings/apply/" + URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + ".json"
    }
}
