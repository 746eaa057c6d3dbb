import Foundation
import PlistModel
import XCTest
@testable import settings

/// `import` and `export` as macOS does them (issue 21): an import sets the file's top-level
/// keys and keeps the domain's others; `--replace` makes the file the whole domain and
/// `--merge` merges dictionaries deeply; a domain that does not exist exports as an empty
/// dictionary. Every file is read back by plistlib.
final class ImportExportTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private func file(_ text: String) -> String {
        let path = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-import.plist"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
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
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"a": 1, "b": "3", "d": {"y": "9"}}"#)
        // From standard input and as JSON alike.
        let r = h.run(["import", "com.t", "-", "--json"], stdin: Data(#"{"c": true}"#.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"a": 1, "b": "3", "c": true, "d": {"y": "9"}}"#)
    }

    /// `export D -` of a binary domain writes its XML straight from the file's bytes (issue
    /// 34): the same bytes as the XML of its values, for a file with sorted keys (plistlib's,
    /// ours) and one without (the values' way); a domain XML cannot hold is refused with
    /// nothing written.
    func testABinaryDomainExportsAsTheXMLOfItsValues() {
        let script = """
            import datetime, plistlib, sys
            d = {"b": [1, 2.5, "x < y & z", {"n": b"\\x00\\x01" * 40, "m": datetime.datetime(2020, 1, 2, 3, 4, 5)}],
                 "a": {"z": True, "y": {}, "x": []}, "c": "plain", "d": -7, "e": 2 ** 64 - 1}
            for name, fmt, keys in [("bin", plistlib.FMT_BINARY, True), ("unsorted", plistlib.FMT_BINARY, False),
                                    ("xml", plistlib.FMT_XML, True)]:
                plistlib.dump(d, open(sys.argv[1] + "/com." + name + ".plist", "wb"), fmt=fmt, sort_keys=keys)
            plistlib.dump({"a": "bell \\x07"}, open(sys.argv[1] + "/com.bell.plist", "wb"), fmt=plistlib.FMT_BINARY)
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let fromValues = h.ok("export", "com.xml", "-")
        XCTAssertTrue(fromValues.contains("<key>e</key>\n\t<integer>18446744073709551615</integer>"), fromValues)
        XCTAssertEqual(h.ok("export", "com.bin", "-"), fromValues)
        XCTAssertEqual(h.ok("export", "com.unsorted", "-"), fromValues)
        let bell = h.run(["export", "com.bell", "-"])
        XCTAssertEqual(bell.status, 2)
        XCTAssertEqual(bell.stdout, "")
        XCTAssertTrue(
            bell.stderr.hasPrefix("settings: cannot export com.bell as XML: it holds the control character U+0007"),
            bell.stderr)
    }

    /// A big binary domain is exported to XML from its mapped file, whose pages are given
    /// back as the XML is written (issue 34: peak memory under twice the file): the same XML
    /// as from the values. Cut short in place by another program while it is written (a
    /// truncating writer; ours rename), the export ends with status 3 and one line naming
    /// the file, not with SIGBUS. Big enough that the export blocks writing its first
    /// 256 KB piece to the pipe (64 KB) with half the file still to read: 12,000 keys.
    func testABigBinaryDomainCutShortWhileExportedSaysSo() throws {
        let script = """
            import plistlib, sys
            d = {"k%06d" % i: ("value %d" % i if i % 2 else i) for i in range(12000)}
            plistlib.dump(d, open(sys.argv[1] + "/com.big.plist", "wb"), fmt=plistlib.FMT_BINARY)
            plistlib.dump(d, open(sys.argv[1] + "/com.bigxml.plist", "wb"))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let whole = h.ok("export", "com.big", "-")
        XCTAssertGreaterThan(whole.utf8.count, 2 << 18, "two pieces: the first blocks with half the file to read")
        XCTAssertEqual(whole, h.ok("export", "com.bigxml", "-"))

        let (process, output, error) = try h.start(["export", "com.big", "-"])
        // Wait until it is blocked writing to standard output: checked, and writing.
        let deadline = Date().addingTimeInterval(30)
        let syscall = "/proc/\(process.processIdentifier)/syscall"
        while Date() < deadline {
            let call = (try? String(contentsOfFile: syscall, encoding: .utf8)) ?? ""
            if call.hasPrefix("1 0x1 ") { break }
            usleep(10_000)
        }
        XCTAssertEqual(truncate(h.path("com.big"), 0), 0)
        let written = output.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 3)
        XCTAssertEqual(
            said, "settings: \(h.path("com.big")) was cut short by another program while it was read; try again\n")
        XCTAssertLessThan(written.count, whole.utf8.count)
    }

    /// `export D PATH` of a big XML domain reads the file where it lies, a mapping whose
    /// pages it gives back as it goes (issue 34: peak memory), never into an array: the
    /// system door's trace (`CallTrace`) shows the file mapped, pages given back, and no
    /// read of it. The file written is the domain's values, as plistlib reads both,
    /// non-ASCII strings and nested dictionaries' repeated keys included. 5,000 keys are
    /// enough: pages are given back every 4,096 values numbered and written.
    func testABigXMLDomainIsExportedToBinaryFromWhereItLies() throws {
        let script = """
            import plistlib, sys
            d = {"k%06d" % i: ({"name": "é %d" % i, "n": i} if i % 3 == 0 else "value %d" % i) for i in range(5000)}
            plistlib.dump(d, open(sys.argv[1] + "/com.bigxml.plist", "wb"))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let out = h.config + "-exported.plist"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
        let (r, calls) = h.traced(["export", "com.bigxml", out], threads: .all)
        XCTAssertEqual(r.status, 0, r.stderr)
        let opened = try XCTUnwrap(calls.first { $0.name == "open" && $0.path == h.path("com.bigxml") }, "\(calls)")
        let fd = CInt(opened.result)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: h.path("com.bigxml"))[.size] as? Int)
        XCTAssertTrue(calls.contains { $0.name == "mmap" && $0.fd == fd && $0.result == size }, "mapped: \(calls)")
        XCTAssertFalse(calls.contains { $0.name == "read" && $0.fd == fd }, "read into an array: \(calls)")
        XCTAssertGreaterThan(calls.filter { $0.name == "madvise" }.count, 2, "pages given back")
        assertBinary(out, holds: "com.bigxml", count: 5000)
    }

    /// `path` is a binary plist of domain `domain`'s `count` values, as plistlib reads both.
    private func assertBinary(_ path: String, holds domain: String, count: Int, line: UInt = #line) {
        let check = """
            import plistlib, sys
            a = plistlib.load(open(sys.argv[1], "rb")); b = plistlib.load(open(sys.argv[2], "rb"))
            assert open(sys.argv[2], "rb").read(8) == b"bplist00"
            print(a == b, len(b))
            """
        let same = h.exec("/usr/bin/env", ["python3", "-c", check, h.path(domain), path])
        XCTAssertEqual(same.stdout, "True \(count)\n", same.stderr, line: line)
    }

    /// `export D --json` of an XML domain writes its JSON as the file is read (issue 34):
    /// the JSON of its values whether its keys are in order or not, to standard output and
    /// to a file alike, and a damaged file writes nothing.
    func testAnXMLDomainExportsAsTheJSONOfItsValues() throws {
        let script = """
            import json, plistlib, sys
            d = {"b": [1, 2.5, "x < y & \\u00e9", {"n": True, "m": []}], "a": {"z": False, "y": {}}, "c": "plain"}
            plistlib.dump(d, open(sys.argv[1] + "/com.sorted.plist", "wb"))
            plistlib.dump(d, open(sys.argv[1] + "/com.unsorted.plist", "wb"), sort_keys=False)
            plistlib.dump(d | {"a": 1}, open(sys.argv[1] + "/com.cut.plist", "wb"))
            print(json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(h.ok("export", "com.sorted", "-", "--json"), made.stdout)
        XCTAssertEqual(
            h.ok("export", "com.unsorted", "-", "--json"),
            #"{"b":[1,2.5,"x < y & é",{"n":true,"m":[]}],"a":{"z":false,"y":{}},"c":"plain"}"# + "\n")
        let file = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-export.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        h.ok("export", "com.sorted", file, "--json")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), made.stdout)
        // Cut short: refused as a read refuses it, with nothing written.
        let cut = try Data(contentsOf: URL(fileURLWithPath: h.path("com.cut"))).dropLast(30)
        try cut.write(to: URL(fileURLWithPath: h.path("com.cut")))
        let broken = h.run(["export", "com.cut", "-", "--json"])
        let read = h.run(["read", "com.cut"])
        XCTAssertEqual(broken.stdout, "")
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertEqual(broken.status, read.status)
        XCTAssertEqual(broken.stderr, read.stderr)
    }

    /// `export D PATH` of an XML domain writes the binary plist as the file is read (issue
    /// 34): the same bytes whether its keys are in order (the straight way) or not (the
    /// values' way), which plistlib reads as the domain; a damaged file is refused as a read
    /// refuses it, and nothing is written. A file big enough to be read in halves (1 MiB) is
    /// the release job's (`Benchmarks/BigDocuments`); `DomainTextTests` reads small ones in
    /// halves through the store.
    func testAnXMLDomainExportsAsTheBinaryOfItsValues() throws {
        let script = """
            import datetime, plistlib, sys
            d = {"b": [1, 2.5, "x < y & \\u00e9", {"n": True, "m": [], "o": b"\\x00" * 9}], "a": {"z": False, "y": {}},
                 "c": "plain", "t": datetime.datetime(2020, 1, 2, 3, 4, 5), "u": 2 ** 64 - 1, "v": -(2 ** 63)}
            plistlib.dump(d, open(sys.argv[1] + "/com.sorted.plist", "wb"))
            plistlib.dump(d, open(sys.argv[1] + "/com.unsorted.plist", "wb"), sort_keys=False)
            plistlib.dump(d | {"a": 1}, open(sys.argv[1] + "/com.cut.plist", "wb"))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let out = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-export"
        addTeardownBlock {
            for name in ["a", "b", "cut"] { try? FileManager.default.removeItem(atPath: out + name) }
        }
        h.ok("export", "com.sorted", out + "a")
        h.ok("export", "com.unsorted", out + "b")
        let straight = try Data(contentsOf: URL(fileURLWithPath: out + "a"))
        XCTAssertEqual(straight, try Data(contentsOf: URL(fileURLWithPath: out + "b")))
        XCTAssertTrue(straight.starts(with: Array("bplist00".utf8)))
        let same = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; l = [plistlib.load(open(p, 'rb')) for p in sys.argv[1:]]; print(l[0] == l[1])",
                out + "a", h.path("com.sorted"),
            ])
        XCTAssertEqual(same.stdout, "True\n", same.stderr)
        // Cut short: refused as a read refuses it, with nothing written.
        let cut = try Data(contentsOf: URL(fileURLWithPath: h.path("com.cut"))).dropLast(30)
        try cut.write(to: URL(fileURLWithPath: h.path("com.cut")))
        let broken = h.run(["export", "com.cut", out + "cut"])
        let read = h.run(["read", "com.cut"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "cut"))
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertEqual(broken.status, read.status)
        XCTAssertEqual(broken.stderr, read.stderr)
    }

    func testReplaceMakesTheFileTheWholeDomain() {
        start()
        h.ok("import", "com.t", file("{ b = 3; }"), "--replace")
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"b": "3"}"#)
    }

    func testMergeMergesDictionariesDeeply() {
        start()
        h.ok("import", "com.t", file("{ d = { y = 9; z = 0; }; }"), "--merge")
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"a": 1, "d": {"x": 1, "y": "9", "z": "0"}}"#)
    }

    func testReplaceAndMergeTogetherAreAUsageError() {
        start()
        let before = h.snapshot()
        let r = h.run(["import", "com.t", file("{ b = 3; }"), "--replace", "--merge"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("settings: give one of --replace and --merge"), r.stderr)
        XCTAssertEqual(h.snapshot(), before)
    }

    /// The overlay keeps the domain's order, compares keys as bytes ("é" precomposed and
    /// decomposed are two keys), lets a repeated key's last value count, and appends the new
    /// keys in the file's order; it is linear, where setting each key searched the domain.
    func testTheOverlayIsSettingEachKeyInOrder() {
        let old = PlistDictionary(entries: [
            .init(key: "b", value: 1), .init(key: "\u{E9}", value: 2), .init(key: "b", value: 3),
            .init(key: "z", value: 4),
        ])
        let new = PlistDictionary(entries: [
            .init(key: "e\u{301}", value: 5), .init(key: "b", value: 6), .init(key: "a", value: 7),
            .init(key: "a", value: 8),
        ])
        var expected = old
        for entry in new.entries { expected[entry.key] = entry.value }
        let merged = TransferCommand.topLevelMerged(old, new)
        XCTAssertEqual(merged.entries.map(\.key), expected.entries.map(\.key))
        XCTAssertEqual(merged.entries.map(\.value), expected.entries.map(\.value))
        XCTAssertEqual(merged.entries.map(\.key), ["\u{E9}", "b", "z", "e\u{301}", "a"])
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
        XCTAssertTrue(FileManager.default.createFile(atPath: out + ".xml", contents: Data(xml.stdout.utf8)))
        XCTAssertEqual(h.plistlibJSON(out + ".xml"), "{}")
        h.ok("export", "com.none", out + ".plist")
        XCTAssertEqual(h.plistlibJSON(out + ".plist"), "{}")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + ".plist")).prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(h.ok("export", "com.none", "-", "--json"), "{}\n")
        XCTAssertEqual(h.run(["read", "com.none"]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.none")), "exporting made no domain")
    }

    /// A domain holding a NUL (a binary file can) is not exported as XML no reader takes:
    /// one line, status 2, and nothing on standard output; a file export (binary) and
    /// JSON carry it.
    func testADomainXMLCannotHoldIsNotExportedAsXML() throws {
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["k\u{0}": "v", "t": "a\u{0}b"], format: .binary, options: 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: h.path("com.nul"), contents: binary))
        let xml = h.run(["export", "com.nul", "-"])
        XCTAssertEqual(xml.status, 2)
        XCTAssertEqual(xml.stdout, "")
        XCTAssertEqual(
            xml.stderr,
            "settings: cannot export com.nul as XML: it holds the control character U+0000, which an XML property "
                + "list cannot hold (export it to a file, which is binary, or with --json)\n")
        // The file's key order is Swift's dictionary order, which differs between processes.
        let json = try JSONSerialization.jsonObject(with: Data(h.ok("export", "com.nul", "-", "--json").utf8))
        XCTAssertEqual(json as? [String: String], ["k\u{0}": "v", "t": "a\u{0}b"])
    }
}
