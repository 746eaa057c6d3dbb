import Foundation
import XCTest

/// `import` and `export` as macOS does them (issue 21): an import sets the file's top-level
/// keys and keeps the domain's others; `--replace` makes the file the whole domain and
/// `--merge` merges dictionaries deeply; a domain that does not exist exports as an empty
/// dictionary. Every file is read back by plistlib.
final class ImportExportTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// The domain as plistlib reads it, as JSON with sorted keys.
    private func plistlib(_ path: String, line: UInt = #line) -> String {
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], 'rb')), sort_keys=True))",
                path,
            ])
        XCTAssertEqual(r.status, 0, r.stderr, line: line)
        return r.stdout.trimmingCharacters(in: .newlines)
    }

    private func file(_ text: String) -> String {
        let path = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-import.plist"
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func start() {
        h.ok("write", "com.t", "a", "-int", "1")
        h.ok("write", "com.t", "d", "-dict", "x", "-int", "1", "y", "-int", "2")
    }

    func testAnImportKeepsTheKeysTheFileLacks() {
        start()
        h.ok("import", "com.t", file("{ b = 3; d = { y = 9; }; }"))
        XCTAssertEqual(plistlib(h.path("com.t")), #"{"a": 1, "b": "3", "d": {"y": "9"}}"#)
        // From standard input and as JSON alike.
        let r = h.run(["import", "com.t", "-", "--json"], stdin: Data(#"{"c": true}"#.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(plistlib(h.path("com.t")), #"{"a": 1, "b": "3", "c": true, "d": {"y": "9"}}"#)
    }

    func testReplaceMakesTheFileTheWholeDomain() {
        start()
        h.ok("import", "com.t", file("{ b = 3; }"), "--replace")
        XCTAssertEqual(plistlib(h.path("com.t")), #"{"b": "3"}"#)
    }

    func testMergeMergesDictionariesDeeply() {
        start()
        h.ok("import", "com.t", file("{ d = { y = 9; z = 0; }; }"), "--merge")
        XCTAssertEqual(plistlib(h.path("com.t")), #"{"a": 1, "d": {"x": 1, "y": "9", "z": "0"}}"#)
    }

    func testReplaceAndMergeTogetherAreAUsageError() {
        start()
        let before = h.snapshot()
        let r = h.run(["import", "com.t", file("{ b = 3; }"), "--replace", "--merge"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("settings: give one of --replace and --merge"), r.stderr)
        XCTAssertEqual(h.snapshot(), before)
    }

    /// CFPreferences gives an unknown domain as an empty dictionary, and Salt's macdefaults
    /// reads a domain with `export D -` before its first write; `read D` still fails.
    func testAMissingDomainExportsAsAnEmptyDictionary() {
        let xml = h.run(["export", "com.none", "-"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(xml.stderr, "")
        let out = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-export"
        addTeardownBlock {
            for suffix in [".xml", ".plist", ".json"] { try? FileManager.default.removeItem(atPath: out + suffix) }
        }
        FileManager.default.createFile(atPath: out + ".xml", contents: Data(xml.stdout.utf8))
        XCTAssertEqual(plistlib(out + ".xml"), "{}")
        h.ok("export", "com.none", out + ".plist")
        XCTAssertEqual(plistlib(out + ".plist"), "{}")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + ".plist")).prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(h.ok("export", "com.none", "-", "--json"), "{}\n")
        XCTAssertEqual(h.run(["read", "com.none"]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.none")), "exporting made no domain")
    }
}
