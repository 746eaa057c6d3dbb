import Foundation
import XCTest
import TestSupport
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Binary and OpenStep through the real binary, checked by plistlib and plistutil.
final class FormatTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    /// `read D` of an XML domain prints as the file is read (issue 34): what the values
    /// print, whether the keys are in order or not, in every format; an empty domain is
    /// still missing; a damaged one is refused with nothing printed.
    func testReadPrintsAnXMLDomainAsItsValuesPrint() throws {
        let script = """
            import plistlib, sys
            d = {"b": [1, 2.5, "x y", {"n": True, "$m": [[], {}]}], "a": {"z": False}, "$c": "plain", "e": b"\\x01"}
            for name, fmt, keys in [("sorted", plistlib.FMT_XML, True), ("unsorted", plistlib.FMT_XML, False),
                                    ("binary", plistlib.FMT_BINARY, True)]:
                plistlib.dump(d, open(sys.argv[1] + "/com." + name + ".plist", "wb"), fmt=fmt, sort_keys=keys)
            plistlib.dump({}, open(sys.argv[1] + "/com.empty.plist", "wb"))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let printed = h.ok("read", "com.sorted")
        XCTAssertTrue(printed.hasPrefix("{\n    \"$c\" = plain;\n    a =     {\n        z = 0;\n    };\n"), printed)
        XCTAssertEqual(h.ok("read", "com.unsorted"), printed)
        XCTAssertEqual(h.ok("read", "com.binary"), printed)
        let empty = h.run(["read", "com.empty"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("does not exist"), empty.stderr)
        let cut = try Data(contentsOf: URL(fileURLWithPath: h.path("com.sorted"))).dropLast(30)
        try cut.write(to: URL(fileURLWithPath: h.path("com.sorted")))
        let broken = h.run(["read", "com.sorted"])
        XCTAssertEqual(broken.stdout, "")
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertTrue(broken.stderr.hasPrefix("settings: "), broken.stderr)
    }

    /// plistlib writes the edge-case dictionary in XML and in binary; we read both
    /// exactly, and what we write in both formats plistlib reads back exactly.
    func testEdgeCasesRoundTripWithPlistlib() throws {
        for format in ["xml", "binary"] {
            let source = h.config + "/edge-\(format).plist"
            XCTAssertEqual(h.python(["write", source, format]).status, 0)
            let reference = h.plistlibCanon(source)
            let ours = try PropertyList.read(bytes(source))
            XCTAssertEqual(ours.1, format == "xml" ? .xml : .binary)
            XCTAssertTrue(canonical(ours.0) == reference, "\(format): our reading differs from plistlib's")

            h.ok("import", "com.edge.\(format)", source)
            h.ok("export", "com.edge.\(format)", h.config + "/out.bplist")
            XCTAssertEqual(Array(bytes(h.config + "/out.bplist").prefix(8)), Array("bplist00".utf8))
            XCTAssertTrue(
                h.plistlibCanon(h.config + "/out.bplist") == reference, "\(format): plistlib misreads our binary")
            let xml = h.run(["export", "com.edge.\(format)", "-"])
            XCTAssertTrue(
                FileManager.default.createFile(atPath: h.config + "/out.xml", contents: Data(xml.stdout.utf8)))
            XCTAssertTrue(h.plistlibCanon(h.config + "/out.xml") == reference, "\(format): plistlib misreads our XML")
        }
    }

    /// plistutil (libplist) accepts both of our formats: converting each to XML with it
    /// keeps every value plistlib sees.
    func testPlistutilAcceptsWhatWeWrite() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/plistutil") else {
            throw skip("plistutil is not installed")
        }
        h.ok("write", "com.t", "i", "-int", "-5")
        h.ok("write", "com.t", "u", "-array", "-int", "1", "two", "-bool", "yes")
        h.ok("write", "com.t", "s", "Åbenraa 😀")
        h.ok("write", "com.t", "d", "-data", "00ff10")
        h.ok("write", "com.t", "x", "-double", "0.5")
        h.ok("write", "com.t", "n", "-dict", "k", "v")
        h.ok("export", "com.t", h.config + "/t.bplist")
        let expected = h.plistlibCanon(h.path("com.t"))
        for input in [h.path("com.t"), h.config + "/t.bplist"] {
            let converted = h.config + "/converted.xml"
            let r = h.exec("/usr/bin/plistutil", ["-i", input, "-o", converted, "-f", "xml"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(h.plistlibCanon(converted), expected, input)
        }
    }

    func testBinaryStaysBinaryAndIsStable() throws {
        XCTAssertEqual(h.python(["write", h.path("com.bin"), "binary"]).status, 0)
        h.ok("write", "com.bin", "added", "-int", "1")
        XCTAssertEqual(Array(bytes(h.path("com.bin")).prefix(8)), Array("bplist00".utf8))
        h.ok("delete", "com.bin", "yes")
        XCTAssertEqual(Array(bytes(h.path("com.bin")).prefix(8)), Array("bplist00".utf8))
        let before = bytes(h.path("com.bin"))
        h.ok("write", "com.bin", "added", "-int", "1")
        h.ok("import", "com.bin", h.path("com.bin"))
        XCTAssertEqual(bytes(h.path("com.bin")), before, "unchanged values leave the bytes alone")
        h.ok("write", "com.bin", "added", "-int", "2")
        h.ok("write", "com.bin", "added", "-int", "1")
        XCTAssertEqual(bytes(h.path("com.bin")), before, "the same values give the same bytes")
        h.ok("write", "com.xml", "k", "v")
        XCTAssertEqual(Array(bytes(h.path("com.xml")).prefix(5)), Array("<?xml".utf8))
    }

    func testLiteralValues() {
        h.ok("write", "com.apple.dock", "persistent-others", "-array-add", "{tile-data={}; tile-type=\"spacer-tile\";}")
        h.ok("write", "com.apple.dock", "persistent-others", "-array-add", "{tile-data={}; tile-type=\"spacer-tile\";}")
        h.ok("write", "com.apple.Safari", "ProxiesInBookmarksBar", "()")
        h.ok("write", "com.example.whole", "{ a = 1; b = (x, y); c = { d = <0a0b>; }; }")
        XCTAssertEqual(
            h.plistlibCanon(h.path("com.apple.Safari")), canonical(.dict(["ProxiesInBookmarksBar": .array([])])))
        let tile = PlistValue.dict(["tile-data": .dict(PlistDictionary()), "tile-type": .string("spacer-tile")])
        XCTAssertEqual(
            h.plistlibCanon(h.path("com.apple.dock")), canonical(.dict(["persistent-others": .array([tile, tile])])))
        XCTAssertEqual(
            h.plistlibCanon(h.path("com.example.whole")),
            canonical(
                .dict([
                    "a": .string("1"), "b": .array([.string("x"), .string("y")]), "c": .dict(["d": .data([10, 11])]),
                ])))
        let r = h.run(["write", "com.t", "k", "{ a = "])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "settings: Could not parse: { a = .  Try single-quoting it.\n")
        XCTAssertEqual(h.run(["write", "com.t", "(a, b)"]).status, 2, "a whole-domain literal must be a dictionary")
    }

    func testImportAndExportMessages() {
        var r = h.run(["import", "com.t", h.config + "/missing.plist"])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.stderr, "settings: cannot read \(h.config)/missing.plist: No such file or directory\n")
        r = h.run(["import", "com.t", "-"], stdin: Data("(1, 2)".utf8))
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stderr.contains("not a dictionary"), r.stderr)
        // Issue 21: a domain that does not exist exports as an empty dictionary, as
        // CFPreferences gives it (it was status 1 and "Domain com.none does not exist").
        r = h.run(["export", "com.none", "-"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.contains("<dict/>"), r.stdout)
        XCTAssertEqual(h.run(["import", "com.t", "-"], stdin: Data()).status, 3, "empty input is no dictionary")
        XCTAssertEqual(h.run(["import", "com.t", "-"], stdin: Data("{ a = b; }".utf8)).status, 0)
        XCTAssertEqual(h.ok("read", "com.t", "a"), "b\n")
    }

    /// Malformed binary and OpenStep files: status 3, one line naming the file, no crash,
    /// the file unchanged.
    func testMalformedFilesFailCleanly() throws {
        var cyclic = Array("bplist00".utf8) + [0xA1, 0x00, 0x08]
        cyclic +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [
                0, 0, 0, 0, 0, 0, 0, 10,
            ]
        let good = BinaryWriter.encode(.dict(["a": .string("text")]))
        let cases: [(String, [UInt8])] = [
            ("truncated", Array(good.dropLast(10))),
            ("cyclic", cyclic),
            ("out-of-range", Array(good.dropLast(8)) + [0, 0, 0, 0, 0, 0, 0xFF, 0x00]),
            (
                "huge count",
                Array(good.dropLast(24)) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Array(good.suffix(16))
            ),
            ("unterminated string", Array("{ a = \"open; }".utf8)),
            ("deep OpenStep", Array(String(repeating: "(", count: 200_000).utf8)),
            ("deep XML", Array(("<plist>" + String(repeating: "<array>", count: 200_000)).utf8)),
        ]
        for (name, content) in cases {
            let path = h.path("com.bad")
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content)))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path)
            for arguments in [["read", "com.bad"], ["write", "com.bad", "k", "v"]] {
                let r = h.run(arguments)
                XCTAssertEqual(r.status, 3, "\(name) \(arguments): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("settings: cannot parse \(path): "), "\(name): \(r.stderr)")
                XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, name)
            }
            XCTAssertEqual(bytes(path), content, name)
        }
    }

    /// A date with a fraction of a second makes the domain binary, which keeps it (XML
    /// dates hold whole seconds), so JSON in is JSON out and plistlib reads the fraction.
    func testAFractionalDateMakesTheDomainBinary() {
        h.ok("write", "com.t", "whole", "-date", "2024-01-01T00:00:00Z")
        XCTAssertEqual(String(decoding: bytes(h.path("com.t")).prefix(5), as: UTF8.self), "<?xml")
        h.ok("write", "com.t", "when", "--json", #"{"$date": "2024-01-01T00:00:00.25Z"}"#)
        XCTAssertEqual(String(decoding: bytes(h.path("com.t")).prefix(8), as: UTF8.self), "bplist00")
        XCTAssertEqual(h.ok("read", "com.t", "when", "--json"), #"{"$date":"2024-01-01T00:00:00.25Z"}"# + "\n")
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; d = plistlib.load(open(sys.argv[1], 'rb')); print(d['when'], d['whole'])",
                h.path("com.t"),
            ])
        XCTAssertEqual(r.stdout, "2024-01-01 00:00:00.250000 2024-01-01 00:00:00\n", r.stderr)
    }
}
