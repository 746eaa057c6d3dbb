import Foundation
import Synchronization
import XCTest

@testable import settings

/// Issue 23 §1: git understands property lists, tested with real git (no mocks): the
/// textconv text, the merge driver's rules, and two clones merging one binary plist.
final class GitTests: XCTestCase {
    var h: Harness!
    var work = ""

    override func setUpWithError() throws {
        try Harness.require("git", package: "git")
        h = Harness()
        work = h.config + "-git"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: work)
        h.cleanUp()
    }

    /// git with a global config of its own and an identity, nothing from this machine.
    private var gitEnvironment: [String: String] {
        [
            "GIT_CONFIG_GLOBAL": work + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "A",
            "GIT_AUTHOR_EMAIL": "a@example.com", "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.com",
        ]
    }

    @discardableResult
    private func git(_ arguments: String..., status expected: Int32? = 0, line: UInt = #line) -> Harness.Result {
        let r = h.exec("/usr/bin/env", ["git"] + arguments, environment: gitEnvironment)
        if let expected { XCTAssertEqual(r.status, expected, "git \(arguments): \(r.stderr)", line: line) }
        return r
    }

    /// `settings ARGS…` as its own process (git runs it so too).
    @discardableResult
    private func settings(_ arguments: String..., line: UInt = #line) -> Harness.Result {
        h.exec(Harness.settings, arguments, environment: gitEnvironment)
    }

    /// A plist file of `json`'s values, in `format` (xml, binary), written by plistlib.
    private func plist(_ path: String, _ json: String, _ format: String = "xml", line: UInt = #line) {
        let (ok, text) = Plistlib.shared.ask(["dump", path, json, format])
        XCTAssertTrue(ok, text, line: line)
    }

    /// plistlib's reading of a file, as sorted JSON, and its format.
    private func read(_ path: String, line: UInt = #line) -> (json: String, format: String) {
        let (ok, json) = Plistlib.shared.ask(["load", path])
        XCTAssertTrue(ok, json, line: line)
        let (known, format) = Plistlib.shared.ask(["format", path])
        XCTAssertTrue(known, format, line: line)
        return (ok ? json : "", known ? format : "")
    }

    func testTextconvPrintsTheSameTextForEveryFormat() throws {
        let values = #"{"b": {"y": "two", "x": 1}, "a": [1, {"q": true, "p": 2.5}], "c": "é", "d/e~f": "x"}"#
        plist(work + "/x.plist", values)
        plist(work + "/b.plist", values, "binary")
        let text = settings("textconv", work + "/x.plist")
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(
            text.stdout,
            """
            /a = [1,{"p":2.5,"q":true}]
            /b/x = 1
            /b/y = "two"
            /c = "é"
            /d~1e~0f = "x"

            """)
        XCTAssertEqual(settings("textconv", work + "/b.plist").stdout, text.stdout)
        // OpenStep text holds strings only: the same strings as XML print the same.
        try #"{ b = { y = two; x = 1; }; c = "é"; }"#.write(
            toFile: work + "/o.plist", atomically: true, encoding: .utf8)
        plist(work + "/ox.plist", #"{"b": {"y": "two", "x": "1"}, "c": "é"}"#)
        XCTAssertEqual(settings("textconv", work + "/o.plist").stdout, settings("textconv", work + "/ox.plist").stdout)
        // A name without a slash is a file, not a domain.
        let literal = h.exec("/bin/sh", ["-c", "cd \"$1\" && \"$2\" textconv x.plist", "sh", work, Harness.settings])
        XCTAssertEqual(literal.stdout, text.stdout, literal.stderr)
        // A control character in a key stays on its line.
        plist(work + "/k.plist", #"{"a\nb\\c": 1}"#, "binary")
        XCTAssertEqual(settings("textconv", work + "/k.plist").stdout, "/a\\u000ab\\\\c = 1\n")
    }

    /// One case of the merge driver: the three sides as JSON (nil: no file), the merged
    /// values, the exit status, and words the conflict lines must hold.
    private func merge(
        base: String?, ours: String, theirs: String, format: String = "xml", _ merged: String, status: Int32 = 0,
        conflicts: [String] = [], line: UInt = #line
    ) {
        let dir = work + "/m\(line)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if let base { plist(dir + "/base", base) }
        plist(dir + "/ours", ours, format)
        plist(dir + "/theirs", theirs, format == "xml" ? "binary" : "xml")
        let r = settings("merge-file", dir + "/base", dir + "/ours", dir + "/theirs", "--path", "prefs/app.plist")
        XCTAssertEqual(r.status, status, r.stderr, line: line)
        XCTAssertEqual(read(dir + "/ours").json, merged, line: line)
        XCTAssertEqual(read(dir + "/ours").format, format, "ours keeps its format", line: line)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, conflicts.count, "one line per conflict: \(r.stderr)", line: line)
        for word in conflicts { XCTAssertTrue(r.stderr.contains(word), "\(word) in \(r.stderr)", line: line) }
    }

    func testMergeFileMergesPerKeyPath() {
        // Each side changed another key; a key only theirs added.
        merge(
            base: #"{"a": 1, "b": 1}"#, ours: #"{"a": 2, "b": 1}"#, theirs: #"{"a": 1, "b": 2, "c": 3}"#,
            format: "binary", #"{"a": 2, "b": 2, "c": 3}"#)
        // Removed on one side, changed on the other: the change is kept, no conflict.
        merge(base: #"{"a": 1, "k": 1}"#, ours: #"{"k": 1}"#, theirs: #"{"a": 2, "k": 1}"#, #"{"a": 2, "k": 1}"#)
        merge(base: #"{"a": 1, "k": 1}"#, ours: #"{"a": 5, "k": 1}"#, theirs: #"{"k": 1}"#, #"{"a": 5, "k": 1}"#)
        // Removed on one side only: removed.
        merge(base: #"{"a": 1, "k": 1}"#, ours: #"{"a": 1, "k": 1}"#, theirs: #"{"k": 1}"#, #"{"k": 1}"#)
        // Inside dictionaries, key by key; an array is one value.
        merge(
            base: #"{"d": {"x": 1, "y": 1}, "l": [1]}"#, ours: #"{"d": {"x": 2, "y": 1}, "l": [1]}"#,
            theirs: #"{"d": {"x": 1, "y": 2}, "l": [1, 2]}"#, #"{"d": {"x": 2, "y": 2}, "l": [1, 2]}"#)
        // git's add/add: an empty BASE, or none.
        merge(base: "{}", ours: #"{"a": 1}"#, theirs: #"{"b": 2}"#, #"{"a": 1, "b": 2}"#)
        merge(base: nil, ours: #"{"a": 1, "s": "x"}"#, theirs: #"{"b": 2, "s": "x"}"#, #"{"a": 1, "b": 2, "s": "x"}"#)
    }

    func testAConflictKeepsOursMergesTheRestAndSaysWhere() {
        merge(
            base: #"{"a": 1, "d": {"x": 1}, "k": 0}"#, ours: #"{"a": 2, "d": {"x": "o"}, "k": 0}"#,
            theirs: #"{"a": 3, "d": {"x": "t"}, "k": 5}"#, format: "binary", #"{"a": 2, "d": {"x": "o"}, "k": 5}"#,
            status: 1,
            conflicts: [
                "conflict at /a in prefs/app.plist: ours 2, theirs 3",
                #"/d/x in prefs/app.plist: ours "o", theirs "t""#,
            ])
    }

    /// A key from the other side, or a file name, cannot forge a line: a newline is
    /// escaped on stderr and in the --log file, as textconv escapes it.
    func testAConflictLineEscapesTheKeysControlCharacters() throws {
        merge(
            base: #"{"a\nsettings: forged": 1}"#, ours: #"{"a\nsettings: forged": 2}"#,
            theirs: #"{"a\nsettings: forged": 3}"#, #"{"a\nsettings: forged": 2}"#, status: 1,
            conflicts: [#"conflict at /a\u000asettings: forged in prefs/app.plist: ours 2, theirs 3"#])
        let dir = work + "/log"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        plist(dir + "/ours", #"{"k\tx": "o"}"#)
        plist(dir + "/theirs", #"{"k\tx": "t"}"#)
        let r = settings(
            "merge-file", dir + "/none", dir + "/ours", dir + "/theirs", "--keep-theirs", "--log", dir + "/log",
            "--path", "p\nq")
        XCTAssertEqual(r.status, 0, r.stderr)
        let log = try String(contentsOfFile: dir + "/log", encoding: .utf8)
        XCTAssertEqual(
            log, #"conflict at /k\u0009x in p\u000aq: ours "o", theirs "t"; kept theirs, already pushed"# + "\n")
    }

    func testAFileThatDoesNotParseIsAFailureAndOursIsUntouched() throws {
        plist(work + "/ours", #"{"a": 1}"#, "binary")
        let before = try Data(contentsOf: URL(fileURLWithPath: work + "/ours"))
        try "<plist><dict><key>a</key>".write(toFile: work + "/theirs", atomically: true, encoding: .utf8)
        let r = settings("merge-file", work + "/none", work + "/ours", work + "/theirs")
        // Any status but 0 is a conflict to git; 3 is the store's "cannot parse".
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("theirs"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: work + "/ours")), before)
    }

    func testTwoClonesMergeDifferentKeysOfABinaryPlistAndAConflictLeavesAValidOne() {
        let a = work + "/a", b = work + "/b"
        git("init", "-q", "-b", "main", a)
        XCTAssertEqual(settings("git-setup", "--repo", a).status, 0)
        plist(a + "/app.plist", #"{"x": 0, "y": 0, "z": 0}"#, "binary")
        git("-C", a, "add", "-A")
        git("-C", a, "commit", "-q", "-m", "start")
        git("clone", "-q", a, b)
        let setup = settings("git-setup", "--repo", b)
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.contains("already has *.plist diff=plist merge=plist"), setup.stdout)

        plist(a + "/app.plist", #"{"x": 1, "y": 0, "z": 0}"#, "binary")
        git("-C", a, "commit", "-q", "-am", "x on a")
        plist(b + "/app.plist", #"{"x": 0, "y": 2, "z": 0}"#, "binary")
        git("-C", b, "commit", "-q", "-am", "y on b")
        // A one-key change is a one-line diff.
        let diff = git("-C", b, "diff", "HEAD~1", "--", "app.plist").stdout
        XCTAssertTrue(diff.contains("-/y = 0\n+/y = 2\n"), diff)
        git("-C", b, "pull", "-q", "--no-rebase", "--no-edit")
        XCTAssertEqual(read(b + "/app.plist").json, #"{"x": 1, "y": 2, "z": 0}"#)
        XCTAssertEqual(read(b + "/app.plist").format, "binary")

        plist(a + "/app.plist", #"{"x": 1, "y": 0, "z": "a"}"#, "binary")
        git("-C", a, "commit", "-q", "-am", "z on a")
        plist(b + "/app.plist", #"{"x": 1, "y": 2, "z": "b"}"#, "binary")
        git("-C", b, "commit", "-q", "-am", "z on b")
        let pull = git("-C", b, "pull", "--no-rebase", "--no-edit", status: nil)
        XCTAssertNotEqual(pull.status, 0)
        XCTAssertTrue(pull.stderr.contains("conflict at /z in app.plist"), pull.stderr)
        XCTAssertEqual(read(b + "/app.plist").json, #"{"x": 1, "y": 2, "z": "b"}"#, "a valid plist, ours kept")
        XCTAssertTrue(git("-C", b, "status", "--porcelain").stdout.contains("UU app.plist"))
    }

    /// ATTACKS.md's bad arguments and missing tools: one line, a stable status, nothing written.
    func testBadArgumentsAndNoGitAreOneLineEach() {
        let rows: [([String], Int32, String, [String: String])] = [
            (["textconv"], 2, "textconv needs a file", [:]),
            (["textconv", work + "/none.plist"], 3, "none.plist", [:]),
            (["merge-file", "a", "b"], 2, "merge-file needs BASE OURS THEIRS", [:]),
            (["merge-file", "a", "b", "c", "d"], 2, "d", [:]),
            (["merge-file", "a", "b", "c", "--path"], 2, "--path", [:]),
            (["git-setup", "--bogus"], 2, "--bogus", [:]),
            (["git-setup", "--repo"], 2, "--repo", [:]),
            (["git-setup", "--global"], 4, "git-setup needs git, which could not be run", ["PATH": "/nonexistent"]),
            // git's own words, its last meaningful line, on the same one line.
            (["git-setup", "--repo", work + "/nowhere"], 4, "failed (status 128): fatal: cannot change to", [:]),
        ]
        for (arguments, status, words, extra) in rows {
            let r = h.exec(Harness.settings, arguments, environment: gitEnvironment.merging(extra) { $1 })
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(words), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Run '") }.count, 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/gitconfig"))
    }

    /// What git says reaches the user through the run's streams, so a run inside another
    /// program (the test suite's `CLI.run`) holds it too: nothing is written around them.
    func testGitsWordsGoThroughTheRunsStreams() {
        let errors = Mutex<[UInt8]>([])
        let status = CLI.run(
            ["git-setup", "--repo", work + "/nowhere"], environment: gitEnvironment, output: { _ in },
            error: { bytes in errors.withLock { $0 += bytes } })
        XCTAssertEqual(status, 4)
        let said = String(decoding: errors.withLock { $0 }, as: UTF8.self)
        XCTAssertTrue(said.hasPrefix("settings: git -C "), said)
        XCTAssertTrue(said.contains("fatal: cannot change to"), said)
        XCTAssertEqual(said.split(separator: "\n").count, 1, said)
    }

    func testGitSetupGlobalIsIdempotentAndHonoursGitConfigGlobal() throws {
        let first = settings("git-setup", "--global")
        XCTAssertEqual(first.status, 0, first.stderr)
        let config = try String(contentsOfFile: work + "/gitconfig", encoding: .utf8)
        XCTAssertTrue(config.contains("[diff \"plist\"]") && config.contains("textconv"), config)
        XCTAssertTrue(config.contains("merge-file %O %A %B --path %P"), config)
        let attributes = h.config + "/git/attributes"
        XCTAssertEqual(try String(contentsOfFile: attributes, encoding: .utf8), "*.plist diff=plist merge=plist\n")
        XCTAssertTrue(first.stdout.contains("git config --global diff.plist.textconv"), first.stdout)
        let second = settings("git-setup", "--global")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try String(contentsOfFile: work + "/gitconfig", encoding: .utf8), config)
        XCTAssertEqual(try String(contentsOfFile: attributes, encoding: .utf8), "*.plist diff=plist merge=plist\n")
        XCTAssertTrue(second.stdout.contains("already has"), second.stdout)
        // git itself now diffs plists through settings.
        XCTAssertEqual(git("config", "--global", "--get", "diff.plist.textconv").stdout.hasSuffix(" textconv\n"), true)
    }
}
