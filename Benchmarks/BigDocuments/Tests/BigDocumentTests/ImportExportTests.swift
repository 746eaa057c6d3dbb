import Foundation
import XCTest

/// `export` of a 100,000-key domain (from the root suite's `ImportExportTests`): the
/// peak memory the release build needs, against its stored thresholds; and of a domain
/// big enough to be read in halves, the same bytes as from its values.
final class ImportExportTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// `export D PATH` of a 100,000-key XML domain of every type (the benchmark's) to a
    /// binary file needs no more than twice the file's size, the whole process (issue 34),
    /// and writes its values. Its growth over its own start-up (a one-key read) is held
    /// under 1.25 times the file (1.1 now; 16-byte nodes needed 1.5). Both limits are the
    /// stored thresholds of the release build this job runs.
    func testExportingABigXMLDomainToBinaryNeedsAtMostTwiceTheFile() throws {
        try makeBigDomain()
        h.ok("write", "com.small", "k", "-int", "1")
        let out = h.config + "-exported.plist"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: h.path("com.big"))[.size] as? Int)
        let baseline = try h.peakKB(["read", "com.small", "k"])
        let peak = try h.peakKB(["export", "com.big", out])
        print("peak \(peak) KB, start-up \(baseline) KB, file \(size / 1024) KB")
        Thresholds.check(
            "ImportExportTests",
            [
                "export to binary, peak over the file": Double(peak * 1024) / Double(size),
                "export to binary, growth over the file": Double((peak - baseline) * 1024) / Double(size),
            ])
        assertBinary(out, holds: "com.big", count: 100_000)
    }

    /// Issue 50's memory rows of `Benchmarks/run.sh`: `export D - --json` and a one-key
    /// write of the same 100,000-key XML domain, the whole process's peak over the file
    /// (stored thresholds), and the write changes only its key. The goal is three times
    /// the file: the export meets it (2.6, threshold 3); the write, which held the file
    /// and its tree at once (3.14), reads a mapping whose pages it gives back as it parses,
    /// and sets the key in the tree in place (2.37, threshold 2.6).
    func testTheJSONExportAndAOneKeyWriteNeedUnderThriceTheFile() throws {
        try makeBigDomain()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: h.path("com.big"))[.size] as? Int)
        let json = try h.peakKB(["export", "com.big", "-", "--json"])
        let write = try h.peakKB(["write", "com.big", "key050007", "-int", "5"])
        print("JSON export \(json) KB, one-key write \(write) KB, file \(size / 1024) KB")
        Thresholds.check(
            "ImportExportTests",
            [
                "JSON export, peak over the file": Double(json * 1024) / Double(size),
                "one-key XML write, peak over the file": Double(write * 1024) / Double(size),
            ])
        let check = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import plistlib, sys
                d = plistlib.load(open(sys.argv[1], "rb"))
                assert d["key050007"] == 5 and d["key050006"] == ["item 50006", 50006, True] and len(d) == 100_000
                """, h.path("com.big"),
            ])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    /// `export D PATH` of an XML domain over the 1 MiB from which it is read in halves
    /// (7,000 entries, 1.4 MB; from the root suite's
    /// `testAnXMLDomainExportsAsTheBinaryOfItsValues`): the same bytes whether its keys are
    /// in order (the straight way, in halves) or not (the values' way), which plistlib reads
    /// as the domain.
    func testABigXMLDomainExportsInHalvesAsTheBinaryOfItsValues() throws {
        let script = """
            import plistlib, sys
            big = {"k%06d" % i: [i % 50, "v%d" % (i % 7), {"r": i / 7, "s": "k%06d" % i}] for i in range(7000)}
            plistlib.dump(big, open(sys.argv[1] + "/com.big.plist", "wb"))
            plistlib.dump(big, open(sys.argv[1] + "/com.bigunsorted.plist", "wb"), sort_keys=False)
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr)
        let out = h.config + "-exported"
        addTeardownBlock {
            for name in ["a", "b"] { try? FileManager.default.removeItem(atPath: out + name) }
        }
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: h.path("com.big"))).count, 1 << 20)
        h.ok("export", "com.big", out + "a")
        h.ok("export", "com.bigunsorted", out + "b")
        let straight = try Data(contentsOf: URL(fileURLWithPath: out + "a"))
        XCTAssertEqual(straight, try Data(contentsOf: URL(fileURLWithPath: out + "b")))
        assertBinary(out + "a", holds: "com.big", count: 7000)
    }

    /// `com.big`: the benchmark's 100,000-key XML domain of every type, written by plistlib.
    private func makeBigDomain(line: UInt = #line) throws {
        let script = """
            import datetime, plistlib, sys
            d, base = {}, datetime.datetime(2001, 1, 1)
            for i in range(100_000):
                d["key%06d" % i] = [i * 7919, i / 7.0, "value number %d with some text" % i, bool(i % 3),
                    base + datetime.timedelta(seconds=i * 3600), bytes((i + j) % 256 for j in range(24)),
                    ["item %d" % i, i, i % 2 == 0], {"name": "entry %d" % i, "count": i, "ratio": i / 3.0}][i % 8]
            plistlib.dump(d, open(sys.argv[1] + "/com.big.plist", "wb"))
            """
        let made = h.exec("/usr/bin/env", ["python3", "-c", script, h.config])
        XCTAssertEqual(made.status, 0, made.stderr, line: line)
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
}
