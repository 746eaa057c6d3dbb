import Foundation
import XCTest
import Glibc

/// The key index of big domains (`KeyIndex`): a one-key read through it gives what a
/// read of the whole file gives, and no change to the file, however made, is ever
/// answered from a stale index. Files are written by plistlib, and every answer is
/// checked against the same bytes read whole (a copy no index knows). The release job's
/// (from the root suite's `KeyIndexTests`, which keeps the tests that look inside).
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
            XCTAssertGreaterThan(size, 256 << 10, "\(name) is too small to be indexed (KeyIndex.minimumFileSize)")
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

    func testReadsThroughTheIndexAreTheWholeFilesAnswers() throws {
        makeBig(["com.x"], settle: false)
        makeBig(["com.b"], format: "FMT_BINARY")
        for name in ["com.x", "com.b"] {
            let whole = expected(name)
            XCTAssertEqual(read(name, "k00000").prefix(1), "0")
            XCTAssertTrue(FileManager.default.fileExists(atPath: indexFile(name)), "no index made for \(name)")
            // Twice: the first reads go through the index made by the read above.
            XCTAssertEqual(keys.map { read(name, $0) }, whole, name)
            XCTAssertEqual(keys.map { read(name, $0) }, whole, name)
            XCTAssertTrue(whole[4].hasPrefix("1 "), whole[4])
        }
        // The index is private, as the journal is.
        let attributes = try FileManager.default.attributesOfItem(atPath: indexFile("com.x"))
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    /// An index is made only of a file whose last change is two seconds past: a file
    /// changed within one timestamp tick of an index being made could look unchanged.
    func testAFileJustChangedGetsNoIndex() throws {
        makeBig(["com.x"])
        h.ok("write", "com.x", "fresh", "-int", "1")
        XCTAssertEqual(h.ok("read", "com.x", "fresh"), "1\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: indexFile("com.x")))
    }

    /// Every way of changing the file behind the tool's back, after an index of it was
    /// made: the next read gives the file's new answer.
    func testNoChangeIsAnsweredFromAStaleIndex() throws {
        let names = ["com.inplace", "com.swapped", "com.linked", "com.truncated", "com.grown", "com.bin"]
        makeBig(Array(names.dropLast()), settle: false)
        makeBig(["com.bin"], format: "FMT_BINARY", settle: false)
        makeBig(["com.other"], marker: "NEW")
        for name in names { _ = read(name, "k00000") }
        for name in names { XCTAssertTrue(FileManager.default.fileExists(atPath: indexFile(name)), name) }

        // Rewritten in place with the same size and its old mtime put back: only the ctime
        // (which no program can set) tells, and it does.
        func rewriteInPlace(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
            var before = stat()
            XCTAssertEqual(stat(path, &before), 0)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            change(&bytes)
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(bytes))
            try handle.truncate(atOffset: UInt64(bytes.count))
            try handle.close()
            let times = [before.st_atim, before.st_mtim]
            XCTAssertEqual(utimensat(AT_FDCWD, path, times, 0), 0)
            var after = stat()
            XCTAssertEqual(stat(path, &after), 0)
            XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec)
            XCTAssertEqual(after.st_size, before.st_size)
            XCTAssertNotEqual(after.st_ctim.tv_nsec, before.st_ctim.tv_nsec)
        }
        func replaceText(_ old: String, _ new: String) -> (inout [UInt8]) -> Void {
            { bytes in
                let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: old, with: new)
                bytes = Array(text.utf8)
            }
        }
        try rewriteInPlace(h.path("com.inplace"), replaceText("entry 0 old", "entry 0 NEW"))
        XCTAssertEqual(read("com.inplace", "k00000"), expected("com.inplace")[0])
        XCTAssertTrue(read("com.inplace", "k00000").contains("entry 0 NEW"))

        // Swapped: another file renamed over it.
        XCTAssertEqual(rename(h.path("com.other"), h.path("com.swapped")), 0)
        XCTAssertTrue(read("com.swapped", "k00000").contains("entry 0 NEW"))

        // Written through a hard link, in place: the same inode, a new ctime.
        let link = h.config + "/elsewhere.plist"
        XCTAssertEqual(Glibc.link(h.path("com.linked"), link), 0)
        try rewriteInPlace(link, replaceText("entry 0 old", "entry 0 NEW"))
        XCTAssertTrue(read("com.linked", "k00000").contains("entry 0 NEW"))

        // Cut short: now it does not parse, and says so.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: h.path("com.truncated")))
        try handle.truncate(atOffset: 600_000)
        try handle.close()
        let cut = h.run(["read", "com.truncated", "k00000"])
        XCTAssertNotEqual(cut.status, 0)
        XCTAssertTrue(cut.stderr.contains("com.truncated"), cut.stderr)

        // A key added by another writer is found, not reported absent.
        let added = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib,sys; p=sys.argv[1]; d=plistlib.load(open(p,'rb')); d['absent']='here'; plistlib.dump(d, open(p,'r+b'))",
                h.path("com.grown"),
            ])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(h.ok("read", "com.grown", "absent"), "here\n")

        // Binary, rewritten in place with its mtime put back.
        let value = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib,sys,os; p=sys.argv[1]; st=os.stat(p); d=plistlib.load(open(p,'rb')); d['k00002']=99;"
                    + " plistlib.dump(d, open(p,'r+b'), fmt=plistlib.FMT_BINARY); os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))",
                h.path("com.bin"),
            ])
        XCTAssertEqual(value.status, 0, value.stderr)
        XCTAssertEqual(h.ok("read", "com.bin", "k00002"), "99\n")
    }

    /// A damaged or foreign index is never believed: flipped bytes, a truncated one, and
    /// another domain's index copied over it all leave the answers right.
    func testADamagedIndexIsNeverBelieved() throws {
        makeBig(["com.x"], settle: false)
        makeBig(["com.y"], marker: "NEW")
        _ = read("com.x", "k00000")
        _ = read("com.y", "k00000")
        let whole = expected("com.x")
        let index = indexFile("com.x")
        let pristine = try Data(contentsOf: URL(fileURLWithPath: index))
        var damages: [(String, Data)] = []
        for offset in [8, 16, 130, 4096, 4100, pristine.count / 2, pristine.count - 20] {
            var bytes = pristine
            bytes[offset] ^= 0x41
            damages.append(("flipped at \(offset)", bytes))
        }
        damages.append(("truncated", pristine.prefix(pristine.count / 2)))
        damages.append(("empty", Data()))
        damages.append(("com.y's", try Data(contentsOf: URL(fileURLWithPath: indexFile("com.y")))))
        for (what, bytes) in damages {
            try bytes.write(to: URL(fileURLWithPath: index))
            XCTAssertEqual(keys.map { read("com.x", $0) }, whole, what)
        }
    }

    /// The same file reached through two paths (a linked config folder, and a bind mount
    /// where the system allows one): a change through either is seen through both.
    func testTheSameFileByTwoPathsIsNeverStale() throws {
        makeBig(["com.x"])
        let linked = h.config + "-linked"
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: h.config)
        defer { try? FileManager.default.removeItem(atPath: linked) }
        let viaLink = ["XDG_CONFIG_HOME": linked]
        XCTAssertEqual(h.run(["read", "com.x", "k00000"], environment: viaLink).status, 0)
        _ = read("com.x", "k00000")
        h.ok("write", "com.x", "k00000", "changed")
        XCTAssertEqual(h.run(["read", "com.x", "k00000"], environment: viaLink).stdout, "changed\n")

        let mounted = h.config + "-mounted"
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        defer {
            _ = h.exec("/bin/umount", [mounted])
            try? FileManager.default.removeItem(atPath: mounted)
        }
        guard h.exec("/bin/mount", ["--bind", h.config, mounted]).status == 0 else { return }
        let viaMount = ["XDG_CONFIG_HOME": mounted]
        Thread.sleep(forTimeInterval: 2.2)
        XCTAssertEqual(h.run(["read", "com.x", "k00000"], environment: viaMount).stdout, "changed\n")
        _ = read("com.x", "k00000")
        h.ok("write", "com.x", "k00000", "-string", "again")
        XCTAssertEqual(h.run(["read", "com.x", "k00000"], environment: viaMount).stdout, "again\n")
    }
}
