import Foundation
import XCTest

/// Issue 23 §2: the copies Syncthing, Nextcloud and Dropbox leave beside a domain are never
/// domains, and `conflicts --resolve` merges them back per key, losing nothing.
final class ConflictCopyTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    let syncthing = "com.app.sync-conflict-20241122-101500-ABCDEF7"
    let nextcloud = "com.app (conflicted copy 2024-11-22 101500)"
    let dropbox = "com.app (Ann's conflicted copy 2024-11-22)"

    /// A copy of the domain as it is now, then `change` applied to the copy with plistlib.
    private func copy(_ name: String, _ change: String) {
        let source = h.path("com.app"), target = h.config + "/" + name + ".plist"
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; d = plistlib.load(open(sys.argv[1], 'rb')); \(change); "
                    + "plistlib.dump(d, open(sys.argv[2], 'wb'), fmt=plistlib.FMT_BINARY)",
                source, target,
            ])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testConflictCopiesAreNeverDomains() {
        h.ok("write", "com.app", "word", "needle")
        for name in [syncthing, nextcloud, dropbox] { copy(name, "d['word'] = 'needle'") }
        XCTAssertEqual(h.ok("domains"), "com.app\n")
        let completion = h.ok("complete", "domains")
        XCTAssertTrue(completion.contains("com.app\n"), completion)
        XCTAssertFalse(completion.contains("conflict"), completion)
        XCTAssertEqual(h.ok("find", "needle").components(separatedBy: "Found").count - 1, 1)
        XCTAssertFalse(h.ok("read").contains("sync-conflict"))
        for name in [syncthing, nextcloud] {
            let r = h.run(["read", name])
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains("conflict copy of com.app"), r.stderr)
            XCTAssertEqual(h.run(["write", name, "k", "v"]).status, 1)
        }
        XCTAssertEqual(
            h.ok("conflicts"),
            "com.app\t\(dropbox).plist\ncom.app\t\(nextcloud).plist\ncom.app\t\(syncthing).plist\n")
        XCTAssertEqual(h.ok("conflicts", "com.other"), "")
    }

    func testResolveAddsTheCopysKeysKeepsTheDomainsValuesAndRemovesTheCopy() throws {
        h.ok("write", "com.app", "shared", "-int", "1")
        h.ok("write", "com.app", "same", "x")
        copy(syncthing, "d['shared'] = 2; d['only_copy'] = [1, 2]; d['nested'] = {'k': True}")
        h.ok("write", "com.app", "mine", "-bool", "true")
        let out = h.ok("conflicts", "--resolve", "com.app")
        XCTAssertTrue(out.contains("com.app: kept shared = 1; the copy had 2\n"), out)
        XCTAssertTrue(out.contains("merged and removed \(syncthing).plist"), out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.config + "/" + syncthing + ".plist"))
        XCTAssertEqual(
            h.plistlibJSON(h.path("com.app")),
            #"{"mine": true, "nested": {"k": true}, "only_copy": [1, 2], "same": "x", "shared": 1}"#)
        XCTAssertEqual(h.ok("conflicts"), "")
    }

    /// A key with a newline or another control character is printed escaped: the copy
    /// comes from another machine, and its keys must not forge lines on a terminal.
    func testAKeyOfTheCopyCannotForgeALine() throws {
        h.ok("write", "com.app", "a\nsettings: forged\t", "mine")
        copy(syncthing, "d['a\\nsettings: forged\\t'] = 'theirs'")
        let out = h.ok("conflicts", "--resolve", "com.app")
        XCTAssertTrue(
            out.contains(#"com.app: kept a\u000asettings: forged\u0009 = "mine"; the copy had "theirs""#), out)
        XCTAssertEqual(out.split(separator: "\n").count, 2, out)
    }

    func testACopyThatDoesNotParseIsLeftAndSaid() throws {
        h.ok("write", "com.app", "a", "1")
        try "not a plist".write(toFile: h.config + "/" + syncthing + ".plist", atomically: true, encoding: .utf8)
        let r = h.run(["conflicts", "--resolve"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.config + "/" + syncthing + ".plist"))
        XCTAssertEqual(h.ok("read", "com.app", "a"), "1\n")
    }

    /// `watch` ignores a conflict copy appearing beside its domain: its first line is the
    /// domain's own change.
    func testWatchIgnoresConflictCopies() throws {
        h.ok("write", "com.app", "a", "1")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["watch", "com.app", "--count", "1", "--timeout", "10", "--debounce", "0"]
        process.environment = h.environment([:])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        copy(syncthing, "d['a'] = 'copy'")
        Thread.sleep(forTimeInterval: 0.5)
        h.ok("write", "com.app", "b", "2")
        process.waitUntilExit()
        let line = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(line.contains("b") && !line.contains("copy"), line)
    }
}
