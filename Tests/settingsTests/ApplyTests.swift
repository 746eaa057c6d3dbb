import Foundation
import XCTest

/// `apply` through the binary: only what differs is written, a dropped key gets back what
/// it held, and a refusal writes nothing anywhere.
final class ApplyTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func mtime(_ domain: String) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: h.path(domain))[.modificationDate] as? Date
    }

    func testApplyWritesOnlyWhatDiffersAndChecksDrift() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "kept", "-string", "mine")
        h.ok("write", "com.example.right", "on", "-bool", "true")
        let want = h.file(
            "want.json",
            #"{"com.example.app": {"volume": 7, "/window/w": 800}, "com.example.right": {"on": true}, "#
                + #""com.example.new": {"n": 1.5, "when": {"$date": "2024-01-02T03:04:05Z"}}}"#)
        let check = h.run(["apply", want, "--check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("-/volume = 5\n+/volume = 7\n"), check.stdout)
        XCTAssertFalse(check.stdout.contains("com.example.right"), check.stdout)
        let untouched = h.snapshot()
        XCTAssertEqual(h.run(["apply", want, "--dry-run"]).stdout, check.stdout)
        XCTAssertEqual(h.snapshot(), untouched, "--dry-run and --check change nothing")
        let right = mtime("com.example.right")
        Thread.sleep(forTimeInterval: 0.02)
        XCTAssertEqual(h.run(["apply", want]).status, 0)
        XCTAssertEqual(mtime("com.example.right"), right, "an already-right domain is not written")
        XCTAssertEqual(
            h.plistlibJSON(h.path("com.example.app")),
            #"{"kept": "mine", "volume": 7, "window": {"w": 800}}"#)
        XCTAssertEqual(h.ok("read-type", "com.example.new", "n"), "Type is float\n")
        XCTAssertEqual(h.ok("read", "com.example.new", "when"), "2024-01-02 03:04:05 +0000\n")
        // Applied again: nothing to do, nothing printed, nothing written.
        let applied = h.snapshot()
        let again = h.run(["apply", want])
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(h.snapshot(), applied)
        XCTAssertEqual(h.run(["apply", want, "--check"]).status, 0)
        let mode = try FileManager.default.attributesOfItem(atPath: h.applyRecord(of: want))
        XCTAssertEqual(mode[.posixPermissions] as? Int, 0o600)
    }

    /// nix-darwin#88: a key dropped from the file gets back what it held before the first
    /// apply, or goes with the dictionaries made to hold it.
    func testADroppedKeyGetsBackWhatItHeld() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "kept", "-string", "mine")
        // One file, edited between applies: its record is its own (apply/<name>.json).
        let v1 = #"{"com.example.app": {"volume": 7, "/window/w": 800}, "com.example.b": {"on": true}}"#
        let app = h.file("app.json", v1)
        h.ok("apply", app)
        _ = h.file("app.json", #"{"com.example.app": {"volume": 9}, "com.example.b": {}}"#)
        h.ok("apply", app)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"kept": "mine", "volume": 9}"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.b")))
        _ = h.file("app.json", #"{"com.example.app": {}}"#)
        h.ok("apply", app)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"kept": "mine", "volume": 5}"#)
        // Another record's keys are its own.
        let first = h.file("1.json", v1)
        h.ok("apply", first, "--as", "team")
        h.ok("apply", app)
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "7\n")
        let none = h.file("none.json", #"{"com.example.app": {}, "com.example.b": {}}"#)
        h.ok("apply", none, "--as", "team")
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "5\n")
        XCTAssertEqual(h.run(["apply", none, "--as", "../escape"]).status, 2)
    }

    func testRefusalsWriteNothingInAnyDomain() {
        h.ok("write", "com.example.first", "k", "-int", "1")
        h.ok("write", "com.example.locked", "mine", "-int", "1")
        h.admin("managed", "com.example.locked.plist", "{ homepage = \"https://corp\"; }")
        let schemas = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: schemas + "/com.example.player.json",
            contents: Data(#"{"keys": {"volume": {"type": "integer", "minimum": 0, "maximum": 100}}}"#.utf8))
        let before = h.snapshot()
        let bad = h.file(
            "bad.json",
            #"{"com.example.first": {"k": 2}, "com.example.locked": {"homepage": "x"}, "com.example.player": {"volume": 101}}"#
        )
        let r = h.run(["apply", bad])
        XCTAssertEqual(r.status, 4, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        guard lines.count == 3 else { return XCTFail(r.stderr) }
        XCTAssertTrue(lines[0].contains("com.example.locked: homepage is managed by"), r.stderr)
        XCTAssertTrue(lines[1].contains("com.example.player: volume:"), r.stderr)
        XCTAssertTrue(lines[2].hasSuffix("2 problems; nothing was applied"), r.stderr)
        XCTAssertEqual(h.snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.applyRecord(of: bad)))
        // A bad file is one line.
        let broken = h.run(["apply", h.file("broken.json", "{\"a\": ")])
        XCTAssertEqual(broken.status, 3)
        XCTAssertEqual(broken.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(h.run(["apply", h.file("list.json", #"{"a": [1]}"#)]).status, 3)
        // A file path as a domain would reach outside the config folder.
        let outside = h.config + "-outside"
        let path = h.run(["apply", h.file("path.json", #"{"\#(outside)": {"k": 1}, "../up": {"k": 1}}"#)])
        XCTAssertEqual(path.status, 2, path.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside + ".plist"))
        XCTAssertEqual(h.snapshot(), before)
    }

    /// A domain that fails mid-way (a read-only file) leaves the ones before it applied,
    /// and the message says which; stdout lists only those.
    func testAFailureMidwaySaysWhatWasApplied() throws {
        h.ok("write", "com.example.b", "k", "-int", "1")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.path("com.example.b"))
        let want = h.file(
            "w.json", #"{"com.example.a": {"k": 1}, "com.example.b": {"k": 2}, "com.example.c": {"k": 3}}"#)
        let r = h.run(["apply", want])
        XCTAssertEqual(r.status, 4)
        XCTAssertTrue(r.stderr.contains("(applied com.example.a; the others were not touched)"), r.stderr)
        // Issue 49, case 21: stdout lists what was done, not the plan.
        XCTAssertTrue(r.stdout.contains("com.example.a"), r.stdout)
        XCTAssertFalse(r.stdout.contains("com.example.b") || r.stdout.contains("com.example.c"), r.stdout)
        XCTAssertEqual(h.ok("read", "com.example.a", "k"), "1\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.c")))
    }

    func testASnapshotAppliedRestoresIt() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let snap = h.config + "-snap.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: snap) }
        h.ok("snapshot", "com.example.app", "-o", snap)
        h.ok("write", "com.example.app", "volume", "-int", "6")
        h.ok("apply", snap)
        XCTAssertEqual(h.run(["diff", snap]).status, 0)
    }
}
