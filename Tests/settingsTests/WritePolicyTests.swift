import Foundation
import XCTest

/// One policy for every writer (issue 47): each way into a domain meets a schema's
/// range, a schema's enum, a key the administrator's managed file locks, and a value an
/// XML file cannot hold. Each must refuse, with a non-zero status, one line on stderr,
/// and the domain's file exactly as it was (checked with its bytes).
final class WritePolicyTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    static let domain = "com.example.policy"
    static let schema = """
        {"domain": "com.example.policy", "keys": {
          "volume": {"type": "integer", "default": 50, "minimum": 0, "maximum": 100},
          "theme":  {"type": "string", "default": "light", "enum": ["light", "dark"]}}}
        """

    /// A bad value for each rule: the key, its JSON, and part of the message.
    static let bad: [(rule: String, key: String, json: String, message: String)] = [
        ("range", "volume", "500", "500 is not in 0…100"),
        ("enum", "theme", "\"purple\"", "is not one of"),
        ("managed", "locked", "2", "managed"),
        ("unstorable", "text", "\"a\\u0001b\"", "control character"),
    ]

    /// The domain with a good value of each key, the schema, and the managed file.
    func prepare() {
        h.ok("write", Self.domain, "volume", "-int", "10")
        h.ok("write", Self.domain, "theme", "dark")
        h.ok("write", Self.domain, "text", "plain")
        let folder = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(atPath: folder + "/\(Self.domain).json", contents: Data(Self.schema.utf8)))
        h.admin("managed", Self.domain + ".plist", plist(["locked": "<integer>1</integer>"]))
    }

    func plist(_ entries: [String: String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key>\($0.value)\n" }.joined()
            + "</dict>\n</plist>\n"
    }

    func file(_ name: String, _ text: String) -> String {
        let path = h.config + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    /// Runs `arguments` (made for one bad value) and checks the refusal.
    func expectRefused(
        _ writer: String, _ rule: String, _ message: String, stdin: Data? = nil,
        environment: [String: String] = [:], _ arguments: [String], line: UInt = #line
    ) {
        let before = FileManager.default.contents(atPath: h.path(Self.domain))
        let r = h.run(arguments, stdin: stdin, environment: environment)
        let what = "\(writer) × \(rule): \(arguments)"
        XCTAssertNotEqual(r.status, 0, "\(what) stored it: \(r.stderr)", line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(what): \(r.stderr)", line: line)
        XCTAssertTrue(r.stderr.contains(message), "\(what): \(r.stderr)", line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: h.path(Self.domain)), before, what, line: line)
    }

    func testEveryWriterIsHeldToOnePolicy() throws {
        prepare()
        let d = Self.domain
        for (rule, key, json, message) in Self.bad {
            let json1 = "{\"\(key)\": \(json)}"
            // `write` with the value as JSON, and below the key with -p.
            expectRefused("write", rule, message, ["write", d, key, "--json", json])
            // import: a file, a file merged, JSON from standard input.
            let xml = file("in-\(rule).json", json1)
            expectRefused("import --json", rule, message, ["import", d, xml, "--json"])
            expectRefused("import --json --merge", rule, message, ["import", d, xml, "--json", "--merge"])
            expectRefused("import - --json", rule, message, stdin: Data(json1.utf8), ["import", d, "-", "--json"])
            // apply: a desired state with the value.
            let desired = file("desired-\(rule).json", "{\"\(d)\": \(json1)}")
            expectRefused("apply", rule, message, ["apply", desired])
        }
        // rename: a key of another domain's name onto a key the schema or the manager owns.
        h.ok("write", Self.domain, "loud", "-int", "500")
        expectRefused("rename", "range", "500 is not in 0…100", ["rename", d, "loud", "volume"])
        expectRefused("rename", "managed", "managed by the administrator", ["rename", d, "loud", "locked"])
    }

    /// `import` of a plist file (XML and binary), and of one into a domain with no file
    /// yet (the store's `create`, which writes the document's bytes as they are).
    func testImportOfAPlistFileIsHeldToThePolicy() throws {
        prepare()
        let xml = file("bad.plist", plist(["volume": "<integer>500</integer>", "theme": "<string>dark</string>"]))
        expectRefused("import FILE", "range", "500 is not in 0…100", ["import", Self.domain, xml])
        expectRefused("import FILE --merge", "range", "500 is not in 0…100", ["import", Self.domain, xml, "--merge"])
        // A new domain with a schema: made only when its keys pass.
        let other = "com.example.fresh"
        let folder = h.config + "/settings/schemas"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: folder + "/\(other).json",
                contents: Data(Self.schema.replacingOccurrences(of: Self.domain, with: other).utf8)))
        let r = h.run(["import", other, "-", "--json"], stdin: Data("{\"volume\": 500}".utf8))
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("500 is not in 0…100"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path(other)))
        // `--force` writes what the schema refuses, as `write --force` does.
        XCTAssertEqual(h.run(["import", Self.domain, "--force", xml]).status, 0)
        XCTAssertEqual(h.ok("read", Self.domain, "volume"), "500\n")
    }

    /// `undo` puts back only what the schema allows now: a value stored before the
    /// schema refused it is not put back, in one line, and nothing is written.
    func testUndoIsHeldToASchemaAddedSince() throws {
        h.ok("write", Self.domain, "volume", "-int", "500")
        h.ok("write", Self.domain, "volume", "-int", "20")
        let folder = h.config + "/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(atPath: folder + "/\(Self.domain).json", contents: Data(Self.schema.utf8)))
        expectRefused("undo", "range", "500 is not in 0…100", ["undo", Self.domain])
        XCTAssertEqual(h.ok("read", Self.domain, "volume"), "20\n")
        XCTAssertFalse(h.run(["undo", Self.domain]).stderr.contains("--force"), "undo has no --force to offer")
    }

    /// `edit` (an editor that writes 500) and `conflicts --resolve` (a copy that adds 500)
    /// are held to the schema too: nothing is stored, the copy is kept.
    func testEditAndConflictsResolveAreHeldToTheSchema() throws {
        prepare()
        let editor = h.config + "/editor.sh"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: editor, contents: Data("#!/bin/sh\nsed -i 's/\"volume\": 10/\"volume\": 500/' \"$1\"\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        let before = FileManager.default.contents(atPath: h.path(Self.domain))
        let edit = h.run(["edit", Self.domain], environment: ["EDITOR": editor])
        XCTAssertEqual(edit.status, 1, edit.stderr)
        XCTAssertTrue(edit.stderr.contains("500 is not in 0…100"), edit.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: h.path(Self.domain)), before)
        // A file-sync engine's conflict copy that adds an out-of-range key.
        h.ok("delete", Self.domain, "volume")
        let copy = h.config + "/\(Self.domain) (conflicted copy).plist"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: copy, contents: Data(plist(["volume": "<integer>700</integer>"]).utf8)))
        expectRefused("conflicts --resolve", "range", "700 is not in 0…100", ["conflicts", "--resolve", Self.domain])
        XCTAssertTrue(FileManager.default.fileExists(atPath: copy), "the copy is kept")
    }

    /// A strict schema's unknown key is found by `apply`'s plan, like every other rule:
    /// the whole file is refused before any domain is written, `--dry-run` and `--check`
    /// included, and nothing offers a `--force` apply does not take. `edit` reopens on it.
    func testAStrictSchemasUnknownKeyRefusesAWholeApply() throws {
        let folder = h.config + "/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let strict = #"{"strict": true, "keys": {"volume": {"type": "integer", "minimum": 0, "maximum": 100}}}"#
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/com.ex.json", contents: Data(strict.utf8)))
        h.ok("write", "com.ex", "volume", "5")
        let desired = file("strict.json", #"{"com.aaa": {"a": 1}, "com.ex": {"volume": 5, "zzz": 1}}"#)
        for extra in [[], ["--dry-run"], ["--check"]] {
            let r = h.run(["apply", desired] + extra)
            XCTAssertEqual(r.status, 2, "\(extra): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(extra)")
            XCTAssertTrue(r.stderr.contains("zzz"), r.stderr)
            XCTAssertFalse(r.stderr.contains("--force"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.aaa")), "nothing of the file was applied")
        let editor = h.config + "/add-key.sh"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: editor,
                contents: Data("#!/bin/sh\nsed -i 's/\"volume\"/\"zzz\": 1, \"volume\"/' \"$1\"\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        let edit = h.run(["edit", "com.ex"], environment: ["EDITOR": editor])
        XCTAssertEqual(edit.status, 1, edit.stderr)
        XCTAssertTrue(edit.stderr.contains("(e)dit again"), edit.stderr)
    }

    /// The refusals say what `write` always said, with the status it always had.
    func testTheStoreSaysWhatWriteAlwaysSaid() {
        prepare()
        let r = h.run(["write", Self.domain, "volume", "-int", "500"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            "settings: invalid value for volume: 500 is not in 0…100; leaving defaults unchanged. (--force writes it anyway)\n"
        )
        XCTAssertEqual(h.run(["write", Self.domain, "locked", "-int", "3"]).status, 4)
    }
}
