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

    /// `settings edit com.example.app EXTRA…` with `answers` on its input, through
    /// `Harness.run` (in this process for the debug build, a process of its own for
    /// another): the editor is a process of its own either way.
    func edit(_ editor: String, _ extra: [String] = [], answers: String = "") -> Harness.Result {
        h.run(
            ["edit", "com.example.app"] + extra, stdin: Data(answers.utf8),
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
        let r = h.run(
            ["edit", "com.example.player"], stdin: Data("q\n".utf8),
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
        let r = h.run(
            ["-currentHost", "edit", "com.example.app"],
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

    // MARK: Issue 49: the person's edit is what changed in the text, leaf by leaf, against
    // the text written out; a reopen, a reformatting editor and a value the text cannot
    // fully say change nothing the person did not change.

    /// Case 1: the other program's change to a key the person left alone survives the
    /// conflict, the reopen and the second save.
    func testAReopenKeepsWhatOthersChangedMeanwhile() {
        h.ok("write", "com.example.app", "volume", "-int", "50")
        h.ok("write", "com.example.app", "theme", "-string", "light")
        let settings = Harness.settings
        let r = edit(
            editor([
                #"sed -i 's/"light"/"mine"/' "$1"; \#(settings) write com.example.app volume -int 77; "#
                    + #"\#(settings) write com.example.app theme -string solarized"#,
                #"grep -q '^# theme was changed meanwhile to "solarized"' "$1" || exit 7"#,
            ]), answers: "e\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"theme": "mine", "volume": 77}"#)
    }

    /// Two people changing two keys inside one dictionary value: both survive, as `diff`
    /// and `apply` see leaves.
    func testChangesInsideOneDictionaryAreMergedLeafByLeaf() {
        h.ok("write", "com.example.app", "window", "--json", #"{"w": 800, "h": 600, "title": {"text": "a"}}"#)
        let settings = Harness.settings
        let r = edit(
            editor([
                #"sed -i 's/"w": 800/"w": 900/; s/"text": "a"/"text": "b"/' "$1"; "#
                    + #"\#(settings) write com.example.app -p /window/h -int 700; "#
                    + #"\#(settings) write com.example.app -p /window/x -int 1; "#
                    + #"\#(settings) write com.example.app -p /window/title/size -int 12"#
            ]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            h.plistlibJSON(h.path("com.example.app")),
            #"{"window": {"h": 700, "title": {"size": 12, "text": "b"}, "w": 900, "x": 1}}"#)
    }

    /// The file `everyType` makes and plistlib's canonical form of it, made once for the
    /// class (two Pythons and a write) and copied after.
    nonisolated(unsafe) private static var everyTypeMade: (bytes: Data, canon: String)?

    /// A binary domain with a value of every type; `f` a 32-bit real, `when` a date with a
    /// fraction of a second. Returns plistlib's canonical form of the file.
    func everyType() -> String {
        if let made = Self.everyTypeMade {
            try? FileManager.default.createDirectory(atPath: h.config, withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: h.path("com.example.app"), contents: made.bytes))
            XCTAssertTrue(hasFloat32(), "the domain holds a 32-bit real")
            return made.canon
        }
        let made = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import datetime, plistlib, sys
                plistlib.dump({"volume": 5, "yes": True, "n": -3, "ratio": 2.0, "third": 0.3, "s": "text",
                    "blob": b"\\x00\\xff", "when": datetime.datetime(2024, 1, 2, 3, 4, 5, 250000),
                    "list": [1.0, 2.5, "x", 4], "nested": {"inner": {"deep": 1.0, "n": 3}, "e": {}}},
                    open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
                """,
                h.path("com.example.app"),
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        h.ok("write", "com.example.app", "f", "-float", "0.1")
        XCTAssertTrue(hasFloat32(), "the domain holds a 32-bit real")
        let canon = h.plistlibCanon(h.path("com.example.app"))
        if let bytes = FileManager.default.contents(atPath: h.path("com.example.app")) {
            Self.everyTypeMade = (bytes, canon)
        }
        return canon
    }

    /// Whether the binary file still holds 0.1 as a 32-bit real (marker 0x22, four bytes).
    func hasFloat32() -> Bool {
        let bytes = FileManager.default.contents(atPath: h.path("com.example.app")) ?? Data()
        return bytes.range(of: Data([0x22, 0x3D, 0xCC, 0xCC, 0xCD])) != nil
    }

    /// Case 2: an edit of one key leaves every other key's value as it was, type and width
    /// included, whatever the format and however the editor prints numbers.
    func testAnEditOfOneKeyLeavesEveryOtherValueAsItWas() {
        // plistlib's canonical form, with volume at 6: `volume` in hex, then its value.
        func withSix(_ canon: String) -> String {
            canon.replacingOccurrences(of: "766f6c756d65=i:5", with: "766f6c756d65=i:6")
        }
        // jq 1.6 prints a real with no fraction as an integer: 2.0 as 2.
        let jq16 =
            #"python3 -c 'import json, sys; "#
            + #"f = lambda v: int(v) if isinstance(v, float) and v.is_integer() else "#
            + #"[f(x) for x in v] if isinstance(v, list) else {k: f(x) for k, x in v.items()} "#
            + #"if isinstance(v, dict) else v; d = f(json.load(open(sys.argv[1]))); d["volume"] = 6; "#
            + #"json.dump(d, open(sys.argv[1], "w"), indent=2)' "$1""#
        let cases: [(String, [String], String)] = [
            ("json", [], #"sed -i 's/"volume": 5/"volume": 6/' "$1""#),
            ("xml", ["--format", "xml"], #"sed -i '/<key>volume<\/key>/{n;s/5/6/}' "$1""#),
            ("jq 1.6", [], jq16),
        ]
        for (name, options, run) in cases {
            let before = everyType()
            XCTAssertTrue(before.contains("766f6c756d65=i:5"), before)
            let r = edit(editor([run]), options)
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(h.plistlibCanon(h.path("com.example.app")), withSix(before), name)
            XCTAssertTrue(hasFloat32(), "\(name): the 32-bit real is still 32 bits")
            XCTAssertEqual(h.ok("read-type", "com.example.app", "ratio"), "Type is float\n", name)
        }
    }

    /// An integer typed where a real was stays a real, as with `write --json`; a real
    /// changed inside an array keeps its untouched neighbours as they were.
    func testAChangedRealStaysARealAndItsNeighboursStay() {
        _ = everyType()
        let r = edit(
            editor([#"sed -i 's/"ratio": 2.0/"ratio": 3/; s/^    2.5,/    7.5,/' "$1""#]))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("read-type", "com.example.app", "ratio"), "Type is float\n")
        XCTAssertEqual(h.ok("read", "com.example.app", "ratio"), "3\n")
        XCTAssertTrue(
            h.plistlibCanon(h.path("com.example.app")).contains(
                "6c697374=a[r:3ff0000000000000,r:401e000000000000,s:78,i:4]"),
            h.plistlibCanon(h.path("com.example.app")))
    }

    /// The `#` lines put above a reopened text are lines of the file: an error's line
    /// number is where the person's editor shows it.
    func testLineNumbersCountTheNotesAbove() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let json = edit(
            editor([
                #"printf '{\n  "volume": 6,\n  oops\n}\n' > "$1""#,
                #"test "$(sed -n 4p "$1")" = '  oops' || exit 9"#,
            ]), answers: "e\nq\n")
        XCTAssertEqual(json.status, 1, json.stderr)
        XCTAssertTrue(json.stderr.contains("settings: JSON line 3:"), json.stderr)
        XCTAssertTrue(json.stderr.contains("settings: JSON line 4:"), json.stderr)
        let xml = edit(
            editor([
                #"sed -i 's/<integer>5</<integer>6</; s/<\/dict>/<oops>/' "$1""#,
                #"grep -n '<oops>' "$1" | grep -q '^8:' || exit 9"#,
            ]), ["--format", "xml"], answers: "e\nq\n")
        XCTAssertEqual(xml.status, 1, xml.stderr)
        XCTAssertTrue(xml.stderr.contains("settings: XML line 7:"), xml.stderr)
        XCTAssertTrue(xml.stderr.contains("settings: XML line 8:"), xml.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "5\n")
    }

    /// `settings edit` started in the background with `editor`, its stdin empty.
    func started(_ editor: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["edit", "com.example.app"]
        process.environment = h.environment(["EDITOR": editor, "VISUAL": ""])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits up to ten seconds for a file to exist.
    func waitFor(_ path: String) {
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: path), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
    }

    /// A kill -9 at any step: while the editor runs, and while the merge waits for the
    /// domain's lock. Nothing is lost, nothing half-written, and the next edit works.
    func testAKillAtAnyStepLosesNothingAndTheNextEditWorks() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "theme", "-string", "light")
        let before = h.plistlibCanon(h.path("com.example.app"))
        let marker = h.config + "-editing"
        let pid = h.config + "-editor.pid"
        // While the editor runs, after the person's change.
        let editing = try started(
            editor([
                #"sed -i 's/"volume": 5/"volume": 6/' "$1"; echo $$ > \#(pid); touch \#(marker); exec sleep 30"#
            ]))
        waitFor(marker)
        kill(editing.processIdentifier, SIGKILL)
        editing.waitUntilExit()
        if let editor = Int32(
            (try? String(contentsOfFile: pid, encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "")
        {
            kill(editor, SIGKILL)
        }
        XCTAssertEqual(editing.terminationReason, .uncaughtSignal)
        XCTAssertEqual(h.plistlibCanon(h.path("com.example.app")), before)
        // The person's text is not lost either: it stays where it was being edited.
        let texts = (try? FileManager.default.contentsOfDirectory(atPath: h.state + "/settings/edit")) ?? []
        XCTAssertEqual(texts.count, 1, "\(texts)")
        let text = texts.first.flatMap { FileManager.default.contents(atPath: h.state + "/settings/edit/" + $0) }
        XCTAssertTrue(String(decoding: text ?? Data(), as: UTF8.self).contains(#""volume": 6"#))

        // While the merge waits for the lock another writer holds on the config folder.
        try? FileManager.default.removeItem(atPath: marker)
        let holder = try h.holdingLock(on: h.config)
        defer { if holder.isRunning { holder.terminate() } }
        let merging = try started(editor([#"sed -i 's/"volume": 5/"volume": 6/' "$1"; touch \#(marker)"#]))
        waitFor(marker)
        WatchTests.waitUntilSleeping(merging)
        XCTAssertTrue(merging.isRunning, "the merge waits for the lock")
        kill(merging.processIdentifier, SIGKILL)
        merging.waitUntilExit()
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(h.plistlibCanon(h.path("com.example.app")), before)
        let config = try FileManager.default.contentsOfDirectory(atPath: h.config)
        XCTAssertEqual(config.filter { !$0.hasSuffix(".plist") && $0 != "settings" && $0 != "home" }, [], "\(config)")

        // The next edit: no lock left, no text in the way; it saves.
        let next = edit(editor([#"sed -i 's/"volume": 5/"volume": 7/' "$1""#]))
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"theme": "light", "volume": 7}"#)
    }

    /// Case 24: the example with an editor is printed as it is typed.
    func testTheHelpShowsTheEditorExampleAsTyped() {
        let help = h.ok("help", "edit")
        XCTAssertTrue(help.contains("\n  EDITOR=nano settings edit com.example.app\n"), help)
        XCTAssertFalse(help.contains("settings EDITOR="), help)
    }
}
