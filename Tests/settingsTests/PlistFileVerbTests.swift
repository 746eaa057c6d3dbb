import Foundation
import XCTest

/// What Apple's tools needed of the engine, as verbs of its own: `create`, `lint`, data
/// from a file or base64, a file's root of any type, and a file emptied that stays a file.
/// Files are read back with plistlib.
final class PlistFileVerbTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testCreateMakesAnEmptyDictionaryAndLeavesAFileThatIsThere() throws {
        let xml = h.files + "/a.plist", binary = h.files + "/b.plist"
        try FileManager.default.createDirectory(atPath: h.files, withIntermediateDirectories: true)
        XCTAssertEqual(h.run(["create", xml]).status, 0)
        XCTAssertEqual(h.run(["create", binary, "--binary"]).status, 0)
        XCTAssertEqual(Plistlib.shared.ask(["load", xml]).text, "{}")
        XCTAssertEqual(Plistlib.shared.ask(["format", xml]).text, "xml")
        XCTAssertEqual(Plistlib.shared.ask(["format", binary]).text, "binary")
        // A project's file, as plutil -create makes one: readable by all (a domain's is 0600).
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: xml)[.posixPermissions] as? Int, 0o644)
        h.ok("write", xml, "k", "-int", "1")
        let again = h.run(["create", xml])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("already exists; it is unchanged"), again.stderr)
        XCTAssertEqual(Plistlib.shared.ask(["load", xml]).text, #"{"k": 1}"#)
    }

    /// A file named by its path, emptied, stays a file holding an empty dictionary; a
    /// domain's file goes, as Foundation removes it.
    func testAnEmptiedFileStaysAndAnEmptiedDomainGoes() throws {
        let file = h.file("f.plist", "{ a = 1; }")
        h.ok("delete", file, "a")
        XCTAssertEqual(Plistlib.shared.ask(["load", file]).text, "{}")
        h.ok("write", file, "{}")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
        XCTAssertEqual(
            h.run(["read", file]).stderr, "settings: Domain \(file) does not exist\n",
            "no file is said only when there is none")
        h.ok("write", "com.example.gone", "a", "-int", "1")
        h.ok("delete", "com.example.gone", "a")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.gone")))
    }

    func testLintSaysEachBadFileOnOneLine() throws {
        let good = h.file("good.plist", "{ a = 1; }")
        let xml = h.file("bad.plist", "<plist><dict><key>a</key></dict></plist>")
        let empty = h.file("empty.plist", "")
        let r = h.run(["lint", good, xml, empty, h.files + "/missing.plist"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, r.stderr)
        XCTAssertEqual(String(lines[0]), "\(xml): XML line 1: key \"a\" has no value")
        XCTAssertTrue(lines[1].hasPrefix("\(empty): "))
        XCTAssertTrue(lines[2].hasPrefix("\(h.files)/missing.plist: "))
        let ok = h.run(["lint", "-v", good])
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(ok.stdout, "\(good): OK\n")
    }

    func testDataFromAFileOrBase64() throws {
        let blob = h.files + "/cert.der"
        _ = h.file("placeholder", "")
        try Data([0x30, 0x82, 0x00, 0xFF]).write(to: URL(fileURLWithPath: blob))
        h.ok("write", "com.example.app", "cert", "-data", "@" + blob)
        h.ok("write", "com.example.app", "token", "--data-base64", "MIIA/w==")
        h.ok("write", "com.example.app", "both", "-array", "-data", "@" + blob, "--data-base64", "AQ==")
        XCTAssertEqual(
            Plistlib.shared.ask(["load", h.path("com.example.app")]).text,
            #"{"both": ["b'0\\x82\\x00\\xff'", "b'\\x01'"], "cert": "b'0\\x82\\x00\\xff'", "token": "b'0\\x82\\x00\\xff'"}"#
        )
        let bad = h.run(["write", "com.example.app", "x", "--data-base64", "not*base64"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(h.run(["write", "com.example.app", "x", "-data", "@" + h.files + "/none"]).status, 3)
    }

    /// A file's root may be an array or a scalar: `read` shows it whole; a key is still refused.
    func testAFilesRootOfAnyType() throws {
        let list = h.file("list.plist", "(1, two, { k = v; })")
        XCTAssertEqual(h.ok("read", list), "(\n    1,\n    two,\n        {\n        k = v;\n    }\n)\n")
        XCTAssertEqual(h.ok("read", list, "--json"), #"["1","two",{"k":"v"}]"# + "\n", "OpenStep has strings only")
        let text = h.file("text.plist", #""just text""#)
        XCTAssertEqual(h.ok("read", text), "just text\n")
        let keyed = h.run(["read", list, "k"])
        XCTAssertEqual(keyed.status, 3)
        XCTAssertTrue(keyed.stderr.contains("its root is an array"), keyed.stderr)
    }
}
