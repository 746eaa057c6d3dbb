import Foundation
import XCTest

/// `edit` with scripted editors (a shell script as `$EDITOR`, which may act differently
/// each time it is opened), through the real binary; a real vi is in Tests/shell/run.sh.
final class EditTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// An editor: `runs[i]` is the shell run the i-th time it opens, with the file as "$1".
    func editor(_ runs: [String]) -> String {
        let name = UUID().uuidString
        let path = h.config + "-editor-\(name).sh"
        let counter = h.config + "-editor-\(name).count"
        var script = "#!/bin/sh\nn=$(cat \(counter) 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \(counter)\n"
        script += "case $n in\n"
        for (i, run) in runs.enumerated() { script += "\(i + 1)) \(run) ;;\n" }
        script += "esac\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(script.utf8)))
        chmod(path, 0o755)
        addTeardownBlock {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: counter)
        }
        return path
    }

    func edit(_ editor: String, _ extra: [String] = [], answers: String = "") -> Harness.Result {
        h.exec(
            Harness.settings, ["edit", "com.example.app"] + extra, stdin: Data(answers.utf8),
            environment: ["EDITOR": editor, "VISUAL": ""])
    }

    func mtime() -> Date? {
        try? FileManager.default.attributesOfItem(atPath: h.path("com.example.app"))[.modificationDate] as? Date
    }

    func testAnEditIsMergedKeyByKeyWithWhatChangedMeanwhile() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "theme", "-string", "light")
        let settings = Harness.settings
        let r = edit(
            editor([
                #"sed -i 's/"volume": 5/"volume": 8/' "$1"; \#(settings) write com.example.app theme -string dark"#
            ]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"theme": "dark", "volume": 8}"#)
        XCTAssertEqual(
            (try? FileManager.default.contentsOfDirectory(atPath: h.state + "/settings/edit")) ?? [], [],
            "the text is removed")
    }

    func testAKeyBothChangedIsReportedAndReopened() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let settings = Harness.settings
        let r = edit(
            editor([
                #"sed -i 's/"volume": 5/"volume": 8/' "$1"; \#(settings) write com.example.app volume -int 9"#,
                #"grep -q '^# volume was changed meanwhile to 9' "$1" || exit 7"#,
            ]), answers: "e\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("settings: volume was changed meanwhile to 9; save again"), r.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "8\n", "saved again: the person's value")
    }

    func testABadTextIsRefusedAndNothingChanges() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let before = mtime()
        Thread.sleep(forTimeInterval: 0.02)
        let broken = edit(editor([#"echo 'not json' >> "$1""#]), answers: "q\n")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("settings: JSON line"), broken.stderr)
        XCTAssertTrue(
            broken.stderr.hasSuffix("settings: the edit was abandoned; the domain is unchanged\n"), broken.stderr)
        // No answer at all (a script's empty input) is a quit, never a loop.
        XCTAssertEqual(edit(editor([#"echo '[1]' > "$1""#])).status, 1)
        // Fixed on the second opening, after the error at the top.
        let fixed = edit(
            editor([
                #"echo '{"volume": true' > "$1""#,
                #"grep -q '^# JSON' "$1" && echo '{"volume": 6}' > "$1""#,
            ]), answers: "e\n")
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "6\n")
        let six = mtime()
        // An editor that fails, or is killed, changes nothing; nor does no change.
        XCTAssertEqual(edit(editor([#"echo '{}' > "$1"; exit 3"#])).status, 1)
        XCTAssertEqual(edit(editor([#"echo '{}' > "$1"; kill -9 $$"#])).status, 1)
        XCTAssertEqual(edit("true").status, 0)
        XCTAssertEqual(mtime(), six)
        XCTAssertNotEqual(six, before)
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "6\n")
    }

    func testSchemaAndManagedKeysAreCheckedBeforeSaving() {
        h.ok("write", "com.example.player", "volume", "-int", "5")
        let schemas = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: schemas + "/com.example.player.json",
            contents: Data(#"{"keys": {"volume": {"type": "integer", "minimum": 0, "maximum": 100}}}"#.utf8))
        let r = h.exec(
            Harness.settings, ["edit", "com.example.player"], stdin: Data("q\n".utf8),
            environment: ["EDITOR": editor([#"sed -i 's/"volume": 5/"volume": 500/' "$1""#])])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("com.example.player: volume:"), r.stderr)
        XCTAssertEqual(h.ok("read", "com.example.player", "volume"), "5\n")
        h.admin("managed", "com.example.app.plist", "{ locked = 1; }")
        let managed = edit(editor([#"echo '{"locked": 2}' > "$1""#]), answers: "q\n")
        XCTAssertEqual(managed.status, 1)
        XCTAssertTrue(managed.stderr.contains("locked is managed by"), managed.stderr)
    }

    func testCurrentHostEditsTheByHostFile() {
        h.ok("-currentHost", "write", "com.example.app", "screen", "-int", "1")
        h.ok("write", "com.example.app", "screen", "-int", "7")
        let r = h.exec(
            Harness.settings, ["-currentHost", "edit", "com.example.app"],
            environment: ["EDITOR": editor([#"sed -i 's/"screen": 1/"screen": 2/' "$1""#])])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("-currentHost", "read", "com.example.app", "screen"), "2\n")
        XCTAssertEqual(h.ok("read", "com.example.app", "screen"), "7\n")
    }

    func testXMLKeepsEveryType() {
        h.ok("write", "com.example.app", "when", "-date", "2024-01-02T03:04:05Z")
        h.ok("write", "com.example.app", "blob", "-data", "00ff")
        h.ok("write", "com.example.app", "ratio", "-float", "1.5")
        let r = edit(editor([#"sed -i 's/<key>blob</<key>renamed</' "$1""#]), ["--format", "xml"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("read-type", "com.example.app", "renamed"), "Type is data\n")
        XCTAssertEqual(h.ok("read-type", "com.example.app", "when"), "Type is date\n")
        XCTAssertEqual(h.run(["edit", "com.example.app", "--format", "openstep"]).status, 2)
    }
}
