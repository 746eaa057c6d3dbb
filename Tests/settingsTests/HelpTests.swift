import Foundation
import XCTest
@testable import settings

/// Issue 19: help a person can use, and the words git and gsettings users try.
final class HelpTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// `help VERB`, `VERB --help` and `VERB -h` print that verb's synopsis, options and
    /// examples, exit 0 and change nothing; every verb has its own.
    func testEveryVerbHasItsOwnHelp() {
        h.ok("write", "com.t", "keep", "1")
        let before = h.snapshot()
        var seen = Set<String>()
        for verb in Verb.all where !verb.name.hasPrefix("-") {
            let help = h.ok("help", verb.name)
            XCTAssertTrue(help.hasPrefix("usage:\n"), verb.name)
            for (syntax, _) in verb.usage {
                XCTAssertTrue(help.contains(syntax.trimmingCharacters(in: .whitespaces)), "\(verb.name): \(syntax)")
            }
            XCTAssertTrue(seen.insert(help).inserted, "\(verb.name)'s help is another verb's")
            XCTAssertEqual(h.ok(verb.name, "--help"), help)
            XCTAssertEqual(h.ok(verb.name, "-h"), help)
            if verb.name != "help" {
                XCTAssertTrue(help.contains("examples:\n  settings \(verb.name)") || verb.name == "help", verb.name)
            }
        }
        XCTAssertTrue(h.ok("find", "--help").contains("settings find <word>"), "find --help is help, not a search")
        XCTAssertEqual(h.snapshot(), before)
        // After the key, --help is a value, as in defaults.
        h.ok("write", "com.t", "k", "--help")
        XCTAssertEqual(h.ok("read", "com.t", "k"), "--help\n")
    }

    /// A bare command prints the verbs grouped by task, exit 2.
    func testABareCommandShowsTheVerbsByTask() {
        let r = h.run([])
        XCTAssertEqual(r.status, 2)
        for group in ["read ", "write ", "files and JSON", "watch ", "schemas ", "shell "] {
            XCTAssertTrue(r.stderr.contains("\n" + group), "\(group): \(r.stderr)")
        }
        XCTAssertTrue(r.stderr.hasPrefix("usage: settings "), r.stderr)
    }

    /// A verb within two edits of a real one is suggested.
    func testAMistypedVerbIsSuggested() {
        for (typo, verb) in [
            ("wirte", "write"), ("raed", "read"), ("delte", "delete"), ("wach", "watch"), ("exprot", "export"),
        ] {
            let r = h.run([typo, "com.t", "k", "v"])
            XCTAssertEqual(r.status, 2)
            // One line, ending with where to look.
            XCTAssertEqual(
                r.stderr, "settings: unknown verb '\(typo)'; did you mean \(verb)? (see 'settings help')\n", r.stderr)
        }
        XCTAssertFalse(h.run(["frobnicate"]).stderr.contains("did you mean"))
    }

    /// get and set are read and write; keys lists any domain's keys; list-keys falls back
    /// to them without a schema; a dotted key that names a place inside a dictionary
    /// hints at -p.
    func testWordsGitAndGsettingsUsersTry() {
        h.ok("set", "com.t", "window", "-dict", "width", "-int", "800")
        h.ok("set", "com.t", "b", "1")
        XCTAssertEqual(h.ok("get", "com.t", "b"), "1\n")
        XCTAssertEqual(h.ok("keys", "com.t"), "b\nwindow\n")
        XCTAssertEqual(h.ok("list-keys", "com.t"), "b\nwindow\n")
        let r = h.run(["read", "com.t", "window.width"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            "settings: The domain/default pair of (com.t, window.width) does not exist; keys are literal: for a value inside a dictionary, use -p /window/width\n"
        )
        XCTAssertEqual(h.ok("read", "com.t", "-p", "/window/width"), "800\n")
        XCTAssertEqual(
            h.run(["read", "com.t", "b.c"]).stderr, "settings: The domain/default pair of (com.t, b.c) does not exist\n"
        )
        XCTAssertEqual(h.run(["keys", "com.none"]).status, 1)
    }
}
