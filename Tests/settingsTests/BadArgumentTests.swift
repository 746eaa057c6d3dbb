import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Every kind of bad argument: non-zero status, one clear line (a usage error's ends
/// pointing at help), and no file changed.
final class BadArgumentTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    static let table: [(arguments: [String], status: Int32, message: String, line: UInt)] = {
        var rows: [(arguments: [String], status: Int32, message: String, line: UInt)] = []
        func add(_ a: [String], _ status: Int32, _ message: String, line: UInt = #line) {
            rows.append((a, status, message, line))
        }
        // Every scalar type flag with text it does not accept, and with no text at all.
        let junk: [String: String] = [
            "-bool": "maybe", "-boolean": "2", "-int": "abc", "-integer": "1e3", "-float": "1e39",
            "-double": "nan", "-data": "xyz", "-date": "yesterday",
        ]
        for row in TypeTable.rows where row.parse != nil {
            for flag in row.flags {
                if let text = junk[flag] {
                    add(["write", "com.t", "k", flag, text], 2, "invalid value '\(text)' for \(flag)")
                }
                add(["write", "com.t", "k", flag], 2, "\(flag) needs a value")
                add(["write", "com.t", "k", "-array", flag], 2, "\(flag) needs a value")
            }
        }
        add(["write", "com.t", "k", "-array", "-int", "x"], 2, "invalid value 'x' for -int")
        add(["write", "com.t", "k", "-dict", "a"], 2, "needs a value")
        add(["write", "com.t", "k", "-dict", "a", "1", "b"], 2, "needs a value")
        add(["write", "com.t", "k", "-dict", "a", "-dict", "b"], 2, "-dict cannot be nested")
        add(["write", "com.t", "k", "-array-add", "-array", "x"], 2, "-array cannot be nested")
        add(["write", "com.t", "k", "-bogus", "1"], 2, "Unexpected argument 1; leaving defaults unchanged.")
        add(
            ["write", "com.t", "k", "-interger", "1"], 2,
            "Unexpected argument 1; leaving defaults unchanged. ('-interger' is not a type flag; did you mean -integer?)"
        )
        for word in ["-app", "-currentHost", "-host", "-foo"] {
            add(["read", word, "com.t"], 2, "invalid domain '\(word)'")
            add(["write", word, "com.t", "k", "v"], 2, "invalid domain '\(word)'")
        }
        add(["read", "-app", "TextEdit"], 2, "macOS-only")
        add(["write", "-currentHost", "com.t", "k", "-int", "1"], 2, "put -currentHost before the verb")
        add(["read", "-host", "box", "com.t"], 2, "put -host before the verb")
        add(["write", "com.t", "k", "-int", "1", "2"], 2, "Unexpected argument 2; leaving defaults unchanged.")
        add(["write", "com.t", "k", "(unterminated"], 2, "Could not parse: (unterminated.  Try single-quoting it.")
        add(["write", "com.t", "k", "{ a = \"open; }"], 2, "Could not parse")
        add(["write", "com.t", "k", "<dict><key>a</key>"], 2, "Could not parse")
        add(["write", "com.t", "not a literal"], 2, "no value after the key not a literal")
        add(["write", "com.t", "(a, b)"], 2, "Could not parse")
        add(["write"], 2, "write needs a domain")
        add(["frobnicate"], 2, "unknown verb 'frobnicate'")
        add(["-currentHost"], 2, "no verb given")
        add(["-host"], 2, "-host needs a host name")
        add(["-host", "a/b", "read", "com.t"], 2, "invalid domain 'a/b'")
        add(["-unknownOption", "read"], 2, "unknown verb '-unknownOption'")
        add(["read", "com.t", "k", "extra"], 2, "Unexpected argument extra")
        add(["read-type", "com.t"], 2, "read-type needs a domain and a key")
        add(["delete"], 2, "delete needs a domain")
        add(["rename", "com.t", "a"], 2, "rename needs a domain, an old key and a new key")
        add(["import", "com.t"], 2, "import needs a domain and a path")
        add(["export", "com.t"], 2, "export needs a domain and a path")
        add(["find"], 2, "find needs a word")
        add(["domains", "extra"], 2, "Unexpected argument extra")
        for name in ["", ".", "..", ".hidden", "tab\tname", "nul\u{1}"] {
            add(["write", name, "k", "v"], 2, "invalid domain")
            add(["read", name], 2, "invalid domain")
        }
        add(
            ["import", "com.t", "/nonexistent/file.plist"], 3,
            "cannot read /nonexistent/file.plist: No such file or directory")
        add(["import", "com.t", "/"], 3, "cannot use /: it is a directory, not a regular file")
        return rows
    }()

    func testEveryBadArgumentChangesNothing() {
        h.ok("write", "com.t", "keep", "-int", "1")
        h.ok("write", "-g", "keep", "-int", "1")
        let before = h.snapshot()
        for row in Self.table {
            let r = h.run(row.arguments)
            XCTAssertEqual(r.status, row.status, "\(row.arguments): \(r.stderr)", line: row.line)
            XCTAssertTrue(r.stderr.hasPrefix("settings: "), "\(row.arguments): \(r.stderr)", line: row.line)
            XCTAssertTrue(r.stderr.contains(row.message), "\(row.arguments): \(r.stderr)", line: row.line)
            let lines = r.stderr.filter { $0 == "\n" }.count
            XCTAssertEqual(lines, 1, "\(row.arguments): \(r.stderr)", line: row.line)
            XCTAssertEqual(r.stdout, "", line: row.line)
            XCTAssertEqual(h.snapshot(), before, "\(row.arguments) changed a file", line: row.line)
        }
    }
}
