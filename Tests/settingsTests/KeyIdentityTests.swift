import Foundation
import XCTest

/// Keys are bytes (issue 47): "é" precomposed (U+00E9, C3 A9) and decomposed ("e" U+0301,
/// 65 CC 81) are two keys of a property list, as they are to Apple's readers and to plistlib,
/// though Swift's `String` takes them for one. Each verb, through the binary, keeps them two;
/// the files are read back by plistlib, and text is compared as bytes (XCTAssertEqual on two
/// `String`s would take them for equal too).
final class KeyIdentityTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    let domain = "com.example.keys"
    /// Precomposed, then decomposed; plistlib's canonical form names them c3a9 and 65cc81.
    let composed = "\u{E9}", decomposed = "e\u{301}"

    func canon(_ path: String? = nil, file: StaticString = #filePath, line: UInt = #line) -> String {
        h.plistlibCanon(path ?? h.path(domain), file: file, line: line)
    }

    func assertBytes(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            Array(a.utf8), Array(b.utf8), "\(a.debugDescription) against \(b.debugDescription)", file: file, line: line)
    }

    /// Runs `script` in sh with the binary first on PATH, in the harness's folders.
    func sh(_ script: String) -> Harness.Result {
        let path = Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return h.exec("/bin/sh", ["-c", script], environment: ["PATH": path])
    }

    /// A file of these bytes in the harness's folder; its path.
    func file(_ name: String, _ text: String) -> String {
        let path = h.config + "-" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// The domain with both keys: the precomposed one 1, the decomposed one 2.
    func writeBoth() {
        h.ok("write", domain, composed, "-int", "1")
        h.ok("write", domain, decomposed, "-int", "2")
        XCTAssertEqual(canon(), "{65cc81=i:2,c3a9=i:1}")
    }

    func testWriteReadDeleteAndRenameKeepTheTwoKeysApart() {
        writeBoth()
        assertBytes(h.ok("read", domain, composed), "1\n")
        assertBytes(h.ok("read", domain, decomposed), "2\n")
        h.ok("delete", domain, composed)
        XCTAssertEqual(canon(), "{65cc81=i:2}")
        h.ok("write", domain, composed, "-int", "1")
        h.ok("rename", domain, decomposed, "x")
        XCTAssertEqual(canon(), "{78=i:2,c3a9=i:1}")
        h.ok("rename", domain, "x", decomposed)
        XCTAssertEqual(canon(), "{65cc81=i:2,c3a9=i:1}")
    }

    func testDiffAndItsReplayedCommandsChangeEachKeyOnItsOwn() {
        writeBoth()
        let target = h.config + "-target.plist"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: target) }
        h.ok("write", target, composed, "-int", "3")
        h.ok("write", target, decomposed, "-int", "4")
        let diff = h.run(["diff", domain, target])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        assertBytes(diff.stdout, "-/\(decomposed) = 2\n+/\(decomposed) = 4\n-/\(composed) = 1\n+/\(composed) = 3\n")
        let commands = h.run(["diff", domain, target, "--commands"])
        XCTAssertEqual(commands.status, 1, commands.stderr)
        XCTAssertEqual(commands.stdout.split(separator: "\n").count, 2, commands.stdout)
        let replay = sh("set -e\n" + commands.stdout)
        XCTAssertEqual(replay.status, 0, replay.stderr + commands.stdout)
        XCTAssertEqual(canon(), "{65cc81=i:4,c3a9=i:3}")
        XCTAssertEqual(h.run(["diff", domain, target]).status, 0)
    }

    /// Two domains whose names differ only in normalization, made by name: the lookup of
    /// an existing file in any case (`DomainStore.existingName`) compares bytes, so the
    /// second write makes a second file instead of landing in the first.
    func makeTwoDomains() -> (String, String) {
        let a = "com.example.\(composed)", b = "com.example.\(decomposed)"
        h.ok("write", a, "o", "-int", "0")
        h.ok("write", b, "o", "-int", "0")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path(a)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path(b)))
        return (a, b)
    }

    /// A snapshot of two domains whose names differ only so: two files, two domains.
    func testSnapshotAndDiffKeepTwoDomainsWhoseNamesDifferOnlyInNormalization() {
        let (a, b) = makeTwoDomains()
        h.ok("write", a, "k", "-int", "1")
        h.ok("write", b, "k", "-int", "2")
        let snapshot = h.config + "-snapshot.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: snapshot) }
        h.ok("snapshot", a, b, "-o", snapshot)
        h.ok("write", a, "k", "-int", "3")
        h.ok("write", b, "k", "-int", "4")
        let diff = h.run(["diff", snapshot])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        assertBytes(diff.stdout, "--- \(a)\n-/k = 1\n+/k = 3\n--- \(b)\n-/k = 2\n+/k = 4\n")
    }

    /// `apply` sets both keys, and both domains; a later desired state without one key
    /// gives that key back what it held, and only that one.
    func testApplySetsAndGivesBackEachKeyAndDomainOnItsOwn() {
        writeBoth()
        let (other, another) = makeTwoDomains()
        let both = file(
            "both.json",
            #"{"\#(domain)": {"\#(composed)": 3, "\#(decomposed)": 4}, "\#(other)": {"k": 5}, "\#(another)": {"k": 6}}"#
        )
        let dry = h.run(["apply", both, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        assertBytes(
            dry.stdout,
            "--- \(domain)\n-/\(decomposed) = 2\n+/\(decomposed) = 4\n-/\(composed) = 1\n+/\(composed) = 3\n"
                + "--- \(other)\n+/k = 5\n--- \(another)\n+/k = 6\n")
        // Two versions of one desired state: one record (`--as`); a domain dropped from
        // it is named as {} (issue 49: a domain not named at all is refused).
        h.ok("apply", both, "--as", "keys")
        XCTAssertEqual(canon(), "{65cc81=i:4,c3a9=i:3}")
        XCTAssertEqual(canon(h.path(other)), "{6b=i:5,6f=i:0}")
        XCTAssertEqual(canon(h.path(another)), "{6b=i:6,6f=i:0}")
        let one = file(
            "one.json", #"{"\#(domain)": {"\#(composed)": 3}, "\#(other)": {}, "\#(another)": {}}"#)
        h.ok("apply", one, "--as", "keys")
        XCTAssertEqual(canon(), "{65cc81=i:2,c3a9=i:3}", "the decomposed key, dropped, has its value back")
        XCTAssertEqual(canon(h.path(other)), "{6f=i:0}")
        XCTAssertEqual(canon(h.path(another)), "{6f=i:0}")
        XCTAssertEqual(h.run(["apply", one, "--check", "--as", "keys"]).status, 0)
    }

    /// The issue's report: one `import --merge` changed both keys; `undo` takes back both,
    /// with no "changed since" warning; `history` of one key shows that key only.
    func testUndoOfOneChangeToBothKeysTakesBackEach() {
        writeBoth()
        let merge = h.run(
            ["import", domain, "-", "--json", "--merge"],
            stdin: Data(#"{"\#(composed)": 3, "\#(decomposed)": 4}"#.utf8))
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertEqual(canon(), "{65cc81=i:4,c3a9=i:3}")
        let history = h.ok("history", domain, composed)
        let lines = history.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }.map(String.init)
        XCTAssertEqual(
            lines.map { Array($0.utf8) },
            ["+/\(composed) = 1", "-/\(composed) = 1", "+/\(composed) = 3"].map { Array($0.utf8) }, history)
        let undo = h.run(["undo", domain])
        XCTAssertEqual(undo.status, 0, undo.stderr)
        assertBytes(undo.stderr, "")
        // In the journal's order, which is byte order: the decomposed key first.
        assertBytes(
            changes(undo.stdout), "-/\(decomposed) = 4\n+/\(decomposed) = 2\n-/\(composed) = 3\n+/\(composed) = 1\n")
        XCTAssertEqual(canon(), "{65cc81=i:2,c3a9=i:1}")
    }

    /// An editor that sets one key and removes the other changes exactly those.
    func testEditChangesEachKeyOnItsOwn() {
        writeBoth()
        let editor = file(
            "editor.py",
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            d["\\u00e9"] = 5
            del d["e\\u0301"]
            json.dump(d, open(sys.argv[1], "w"))
            """)
        let r = h.exec(Harness.settings, ["edit", domain], environment: ["EDITOR": "python3 \(editor)", "VISUAL": ""])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(canon(), "{c3a9=i:5}")
    }

    /// `export --json` then `import --json`, into nothing and over the domain; an import's
    /// integers kept real where the domain holds a real, each key by its own old value.
    func testExportAndImportJSONKeepBothKeysAndTheirTypes() {
        writeBoth()
        let exported = h.config + "-exported.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: exported) }
        h.ok("export", domain, exported, "--json")
        h.ok("delete", domain)
        h.ok("import", domain, exported, "--json")
        XCTAssertEqual(canon(), "{65cc81=i:2,c3a9=i:1}")
        // Over a domain of 20 more keys (past which the old keys are looked up by a table),
        // the precomposed key a real: only it keeps a real.
        for n in 0..<20 { h.ok("write", domain, String(format: "k%02d", n), "-int", "\(n)") }
        h.ok("write", domain, composed, "-float", "1.5")
        let reversed = (0..<20).reversed().map { String(format: #""k%02d": %d"#, $0, $0) }.joined(separator: ", ")
        let r = h.run(
            ["import", domain, "-", "--json"],
            stdin: Data(#"{\#(reversed), "\#(decomposed)": 3, "\#(composed)": 4}"#.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = canon()
        XCTAssertTrue(text.contains("65cc81=i:3"), "the decomposed key was an integer: \(text)")
        XCTAssertTrue(text.contains("c3a9=r:4010000000000000"), "the precomposed key was a real: \(text)")
    }
}
