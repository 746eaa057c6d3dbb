import Foundation
import XCTest

/// Idempotent by construction (issue 21): a write that would change nothing leaves the
/// file untouched (no rewrite, no new mtime, no watch event), and `check` says whether a
/// key already has a value, type included, without parsing any output.
final class IdempotenceTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// The domain file's and its folder's inode, size and times: a rewrite (a new inode)
    /// or a temporary file made and renamed (the folder's times) shows here.
    private func stamp(_ path: String) throws -> [String] {
        var file = stat(), folder = stat()
        XCTAssertEqual(stat(path, &file), 0)
        XCTAssertEqual(stat((path as NSString).deletingLastPathComponent, &folder), 0)
        return [file, folder].map {
            "\($0.st_ino) \($0.st_size) \($0.st_mtim.tv_sec).\($0.st_mtim.tv_nsec) \($0.st_ctim.tv_sec).\($0.st_ctim.tv_nsec)"
        }
    }

    func testAWriteThatChangesNothingLeavesTheFileUntouched() throws {
        h.ok("write", "com.t", "n", "-int", "5")
        h.ok("write", "com.t", "a", "-array", "x", "y")
        h.ok("write", "com.t", "d", "-dict", "k", "v")
        h.ok("write", "com.t", "r", "-float", "1")
        let importFile = h.config + "-same.plist"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: importFile, contents: Data("<plist><dict><key>n</key><integer>5</integer></dict></plist>".utf8))
        )
        defer { try? FileManager.default.removeItem(atPath: importFile) }
        let before = try stamp(h.path("com.t"))
        // Times of a rewrite would differ by at least this much.
        Thread.sleep(forTimeInterval: 0.02)
        for arguments in [
            ["write", "com.t", "n", "-int", "5"],
            ["write", "com.t", "n", "--json", "5"],
            ["write", "com.t", "r", "--json", "1"],
            ["write", "com.t", "a", "-array", "x", "y"],
            ["write", "com.t", "d", "-dict-add", "k", "v"],
            ["write", "com.t", "-p", "/a/1", "y"],
            ["import", "com.t", importFile],
            ["import", "com.t", importFile, "--merge"],
            ["reset", "com.t", "absent"],
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
            XCTAssertEqual(try stamp(h.path("com.t")), before, "\(arguments) touched the file")
        }
        h.ok("write", "com.t", "n", "-int", "6")
        XCTAssertNotEqual(try stamp(h.path("com.t")), before, "a real change is a new file")
        // A whole domain written again as the same literal (whose scalars are strings).
        h.ok("write", "com.w", "{ n = 5; a = (x, y); d = { k = v; }; }")
        let literal = try stamp(h.path("com.w"))
        Thread.sleep(forTimeInterval: 0.02)
        h.ok("write", "com.w", "{ n = 5; a = (x, y); d = { k = v; }; }")
        XCTAssertEqual(try stamp(h.path("com.w")), literal)
    }

    func testCheckSaysWhetherWriteWouldChangeAnything() {
        h.ok("write", "com.t", "n", "-int", "5")
        h.ok("write", "com.t", "r", "-float", "1")
        h.ok("write", "com.t", "s", "5")
        h.ok("write", "com.t", "a", "-array", "x", "y")
        h.ok("write", "com.t", "d", "-dict", "k", "v")
        let snapshot = h.snapshot()
        for (words, status, line) in [
            (["n", "-int", "5"], 0, "equal"),
            (["n", "-integer", "5"], 0, "equal"),
            (["n", "-float", "5"], 1, "differs: 5 (integer)"),
            (["n", "-string", "5"], 1, "differs: 5 (integer)"),
            (["n", "5"], 1, "differs: 5 (integer)"),
            (["s", "5"], 0, "equal"),
            (["s", "-int", "5"], 1, "differs: 5 (string)"),
            (["r", "--json", "1"], 0, "equal"),
            (["r", "--exact", "--json", "1"], 1, "differs: 1 (float)"),
            (["a", "-array", "x", "y"], 0, "equal"),
            (["a", "-array", "y", "x"], 1, "differs: ( x, y ) (array)"),
            (["a", "-array-add", "y"], 0, "equal"),
            (["a", "-array-add", "x"], 1, "differs: ( x, y ) (array)"),
            (["d", "-dict-add", "k", "v"], 0, "equal"),
            (["d", "-dict", "k", "v", "l", "w"], 1, "differs: { k = v; } (dictionary)"),
            (["d", "{ k = v; }"], 0, "equal"),
            (["-p", "/a/1", "y"], 0, "equal"),
            (["-p", "/d/k", "-int", "1"], 1, "differs: v (string)"),
            (["missing", "1"], 1, "missing"),
        ] {
            let quiet = h.run(["check", "com.t"] + words)
            XCTAssertEqual(quiet.status, Int32(status), "\(words): \(quiet.stderr)")
            XCTAssertEqual(quiet.stdout + quiet.stderr, "", "\(words) printed without -v")
            let verbose = h.run(["check", "-v", "com.t"] + words)
            XCTAssertEqual(verbose.status, Int32(status), "\(words)")
            XCTAssertEqual(verbose.stdout, line + "\n", "\(words)")
        }
        XCTAssertEqual(h.run(["check", "com.none", "k", "1"]).status, 1)
        XCTAssertEqual(h.snapshot(), snapshot, "check wrote something")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.none")))
        XCTAssertEqual(h.run(["check", "com.t", "n"]).status, 2)
    }

    func testCheckReadsThroughTheLayersAndTypesWithTheSchema() {
        h.ok("write", "com.t", "locked", "-int", "1")
        h.admin("managed", "com.t.json", #"{"locked": 5}"#)
        h.admin("defaults", "com.t.json", #"{"sys": true}"#)
        let dir = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: dir + "/com.t.json",
                contents: Data(#"{"keys": {"volume": {"type": "integer", "default": 50}}}"#.utf8)))
        XCTAssertEqual(
            h.run(["check", "com.t", "locked", "-int", "5"]).status, 0, "the managed value is what readers get")
        XCTAssertEqual(h.run(["check", "com.t", "locked", "-int", "1"]).status, 1)
        XCTAssertEqual(h.run(["check", "com.t", "sys", "-bool", "yes"]).status, 0)
        XCTAssertEqual(
            h.run(["check", "-v", "com.t", "volume", "50"]).stdout, "missing\n", "a schema default is not set")
        h.ok("write", "com.t", "volume", "50")
        XCTAssertEqual(h.run(["check", "com.t", "volume", "50"]).status, 0, "typed by the schema, as write types it")
    }
}
