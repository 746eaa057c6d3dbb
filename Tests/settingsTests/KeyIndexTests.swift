import Foundation
import XCTest
@testable import SettingsStore

/// The key index of big domains (`KeyIndex`), inside: a read through it reads little of
/// the file, and an index of the format before is made again. What it answers, against
/// every change to the file, is the release job's (`Benchmarks/BigDocuments`). Files are
/// written by plistlib, and every answer is checked against the same bytes read whole (a
/// copy no index knows).
final class KeyIndexTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// The big domains' keys asked for: first, last, middle, nested, and one absent.
    let keys = ["k00000", "k09999", "k07777", "k02345", "absent", "k00042"]

    /// Writes `names` as 10,000-key domains with plistlib, each in `format`, then waits
    /// until they count as settled, so an index may be made. Each is over the size below
    /// which a file is read whole (`KeyIndex.minimumFileSize`, 256 KB): 0.9 MB as XML,
    /// 0.3 MB binary, as checked; more keys only cost the suite time.
    func makeBig(_ names: [String], format: String = "FMT_XML", marker: String = "old", settle: Bool = true) {
        for name in names {
            let script = """
                import plistlib, sys, datetime
                d = {}
                for i in range(10000):
                    k = "k%05d" % i
                    m = i % 5
                    if m == 0: d[k] = {"count": i, "name": "entry %d %s" % (i, sys.argv[2]), "list": [i, 1.5, True]}
                    elif m == 1: d[k] = "value <%d> & %s" % (i, sys.argv[2])
                    elif m == 2: d[k] = i * 7
                    elif m == 3: d[k] = bytes([i % 256]) * 9
                    else: d[k] = datetime.datetime(2020, 1, 1 + i % 28)
                plistlib.dump(d, open(sys.argv[1], "wb"), fmt=plistlib.\(format))
                """
            let r = h.exec("/usr/bin/env", ["python3", "-c", script, h.path(name), marker])
            XCTAssertEqual(r.status, 0, r.stderr)
            let size = (try? FileManager.default.attributesOfItem(atPath: h.path(name))[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, KeyIndex.minimumFileSize, "\(name) is too small to be indexed")
        }
        if settle { Thread.sleep(forTimeInterval: 2.2) }
    }

    /// What `settings read NAME KEY` prints, status and all.
    func read(_ name: String, _ key: String) -> String {
        let r = h.run(["read", name, key])
        return "\(r.status) \(r.stdout) \(r.stderr)"
    }

    /// What a read of each key gives when the same bytes are read whole: a fresh copy
    /// under another name, which no index covers (it has not settled).
    func expected(_ name: String) -> [String] {
        let copy = name + ".copy"
        try? FileManager.default.removeItem(atPath: h.path(copy))
        XCTAssertNoThrow(try FileManager.default.copyItem(atPath: h.path(name), toPath: h.path(copy)))
        defer { try? FileManager.default.removeItem(atPath: h.path(copy)) }
        return keys.map { read(copy, $0).replacingOccurrences(of: copy, with: name) }
    }

    var indexFolder: String { h.cache + "/settings/index" }

    func indexFile(_ name: String) -> String {
        indexFolder + "/"
            + h.path(name).replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    /// A read through the index does not read the file whole: it is what makes it fast.
    /// Counted as the bytes every `read` and `pread` of the system door returned
    /// (`CallTrace`), the index's and the domain's together.
    func testAReadThroughTheIndexReadsLittleOfTheFile() throws {
        makeBig(["com.x"], settle: false)
        makeBig(["com.b"], format: "FMT_BINARY")
        for name in ["com.x", "com.b"] {
            _ = read(name, "k00001")
            let (r, calls) = h.traced(["read", name, "k02345"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(calls.contains { $0.path == h.path(name) }, "the trace saw the read: \(calls)")
            XCTAssertTrue(calls.contains { $0.path?.contains("index") == true }, "no index used: \(calls)")
            let bytes = calls.filter { ["read", "pread"].contains($0.name) && $0.result > 0 }.map(\.result).reduce(0, +)
            let size = try FileManager.default.attributesOfItem(atPath: h.path(name))[.size] as! Int
            XCTAssertLessThan(bytes, size / 4, "\(name): \(bytes) bytes read of \(size)")
        }
    }

    /// An index of the format before (version 1, its hash unkeyed FNV-1a, no seed) is not
    /// read: the answers are the whole file's, and the read makes a new index in its place,
    /// with a seed of its own.
    func testAnIndexOfTheFormatBeforeIsMadeAgain() throws {
        makeBig(["com.x"])
        _ = read("com.x", "k00000")
        let index = indexFile("com.x")
        func words(_ bytes: [UInt8]) -> [UInt64] {
            bytes.withUnsafeBytes { raw in
                (0..<16).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
            }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: index)))
        let pages = Int(words(bytes)[9])
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt64(0x0001_5844_4954_4553).littleEndian, toByteOffset: 0, as: UInt64.self)
            for word in [10, 11] { raw.storeBytes(of: UInt64(0), toByteOffset: word * 8, as: UInt64.self) }
            let sum = KeyIndex.headerSum(UnsafeBufferPointer(raw.bindMemory(to: UInt8.self)).span, pageCount: pages)
            raw.storeBytes(of: sum.littleEndian, toByteOffset: 120, as: UInt64.self)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: index))
        XCTAssertEqual(keys.map { read("com.x", $0) }, expected("com.x"))
        let made = words([UInt8](try Data(contentsOf: URL(fileURLWithPath: index))))
        XCTAssertEqual(made[0], KeyIndex.magic)
        XCTAssertNotEqual([made[10], made[11]], [0, 0])
    }
}
