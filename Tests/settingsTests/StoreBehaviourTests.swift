import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Store guarantees seen from outside: locking across processes, the retry of a file
/// caught mid-write.
final class StoreBehaviourTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// Foundation truncates and rewrites in place; a reader that catches the file half
    /// written waits briefly for the rest instead of failing.
    func testHalfWrittenFileIsRetried() throws {
        let full = XMLWriter.encode(.dict(["k": .string("v")]))
        let path = h.path("com.t")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(full.prefix(full.count / 2))))
        let finisher = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(full)))
        }
        finisher.start()
        let r = h.run(["read", "com.t", "k"], environment: ["SETTINGS_READ_RETRY": "0.5"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "v\n")
    }

    /// The retry is a store setting, SETTINGS_READ_RETRY seconds (default 0.5): 0 reports a
    /// half-written file at once, the default waits for it, and only a number of seconds
    /// is taken.
    func testTheRetryWindowIsASetting() throws {
        let full = XMLWriter.encode(.dict(["k": .string("v")]))
        let path = h.path("com.t")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(full.prefix(full.count / 2))))
        let start = Date()
        var r = h.run(["read", "com.t", "k"], environment: ["SETTINGS_READ_RETRY": "0"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.4, "no retry with SETTINGS_READ_RETRY=0")
        let unset = h.exec("/usr/bin/env", ["-u", "SETTINGS_READ_RETRY", Harness.settings, "read", "com.t", "k"])
        XCTAssertEqual(unset.status, 3, unset.stderr)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(full.prefix(full.count / 2))))
        let finisher = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(full)))
        }
        finisher.start()
        r = h.exec("/usr/bin/env", ["-u", "SETTINGS_READ_RETRY", Harness.settings, "read", "com.t", "k"])
        XCTAssertEqual(r.stdout, "v\n", "the default waits for the rest: \(r.stderr)")
        for bad in ["-1", "abc", "0x10", "1e3", ""] {
            r = h.run(["read", "com.t", "k"], environment: ["SETTINGS_READ_RETRY": bad])
            XCTAssertEqual(r.status, 2, bad)
            XCTAssertEqual(
                r.stderr,
                "settings: invalid SETTINGS_READ_RETRY '\(bad)': expected a number of seconds, 0 or more (such as 10 or 0.5)\n"
            )
        }
    }

    /// 4 writers x 15 writes of distinct keys into one domain at once: writers are
    /// serialized, none loses another's key, and the file stays valid for plistlib.
    func testConcurrentWritersKeepEveryKey() {
        let harness = h!
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for i in 0..<15 {
                let r = harness.run(["write", "com.shared", "w\(writer)-\(i)", "-int", "\(i)"])
                XCTAssertEqual(r.status, 0, r.stderr)
            }
        }
        let r = h.python(["canon", h.path("com.shared")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "=i:").count - 1, 60)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: h.config)) ?? []
        XCTAssertEqual(names, ["com.shared.plist"], "no temporary file is left behind")
    }

    /// A writer waits for the lock, and gives up with status 4 after SETTINGS_LOCK_TIMEOUT.
    func testLockTimeoutIsStatus4() throws {
        h.ok("write", "com.t", "a", "1")
        let holder = try holdLock(seconds: 3)
        defer { holder.terminate(); holder.waitUntilExit() }
        let start = Date()
        let r = h.run(["write", "com.t", "b", "2"], environment: ["SETTINGS_LOCK_TIMEOUT": "0.5"])
        XCTAssertEqual(r.status, 4)
        XCTAssertEqual(r.stderr, "settings: timed out after 0.5 s waiting for another writer of \(h.path("com.t"))\n")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.5)
        XCTAssertEqual(h.ok("read", "com.t"), "{\n    a = 1;\n}\n", "a reader takes no lock")
    }

    /// A writer that waits gets the lock as soon as the holder lets go.
    /// The holder, another writer, writes the key a just before it lets go: a writer that
    /// waited reads that file and adds b to it; one that did not wait would have read the
    /// file before and lost a, or had its b overwritten.
    func testWriterWaitsForTheLock() throws {
        let holder = try holdLock(seconds: 0.4, thenWrite: XMLWriter.encode(.dict(["a": .int(1)])))
        let start = Date()
        let r = h.run(["write", "com.t", "b", "2"])
        holder.waitUntilExit()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3, "the write did not wait")
        XCTAssertEqual(h.ok("read", "com.t"), "{\n    a = 1;\n    b = 2;\n}\n")
    }

    /// A writer that waits more than a second says so, once, and how long it may wait
    /// (issue 19); then it writes.
    func testAWriterWaitingASecondSaysSo() throws {
        h.ok("write", "com.t", "a", "1")
        let holder = try holdLock(seconds: 1.6)
        let start = Date()
        let r = h.run(["write", "com.t", "b", "2"])
        holder.waitUntilExit()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "settings: waiting for another writer of \(h.path("com.t")) (up to 10 s)\n")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1.0)
        XCTAssertEqual(h.ok("read", "com.t", "b"), "2\n")
    }

    /// A lock holder killed with SIGKILL leaves no lock behind.
    func testKilledLockHolderDoesNotBlock() throws {
        let holder = try holdLock(seconds: 60)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let r = h.run(["write", "com.t", "b", "2"], environment: ["SETTINGS_LOCK_TIMEOUT": "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// A process that holds the config folder's lock for `seconds`, as a writer does.
    /// Another process holding the config folder's lock for `seconds`, which writes
    /// `thenWrite` into com.t's file just before it lets go.
    /// (`flock(1)` and a shell rather than Python, whose start alone took longer than
    /// most of these waits.)
    private func holdLock(seconds: Double, thenWrite: [UInt8]? = nil) throws -> Process {
        try FileManager.default.createDirectory(atPath: h.config, withIntermediateDirectories: true)
        let bytes = h.config + "-then"
        if let thenWrite { try Data(thenWrite).write(to: URL(fileURLWithPath: bytes)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            """
            exec 9<"$1"; flock -x 9; echo locked
            if [ -e "$3" ]; then sleep "$2" 9<&-; cat "$3" > "$4"; else exec sleep "$2"; fi
            """,
            "sh", h.config, "\(seconds)", bytes, h.path("com.t"),
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readData(ofLength: 7), as: UTF8.self), "locked\n")
        addTeardownBlock { try? FileManager.default.removeItem(atPath: bytes) }
        return process
    }

    /// XML cannot hold most control characters, even escaped: a file with one is refused
    /// by plistlib and Foundation. Such a write is refused with nothing changed; a binary
    /// domain takes it, and tab, line feed and carriage return are fine anywhere.
    func testControlCharactersAreRefusedForXMLDomainsOnly() throws {
        h.ok("write", "com.c", "ok", "tab\there\nline")
        let before = h.snapshot()
        let r = h.run(["write", "com.c", "bad", "a\u{1}b"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(
            r.stderr.contains("control character U+0001") && r.stderr.contains("store it with -data"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1)
        XCTAssertEqual(h.snapshot(), before)
        XCTAssertFalse(h.plistlibCanon(h.path("com.c")).isEmpty, "plistlib still reads the domain")
        // Whole-domain writes too: a literal, and JSON through import.
        XCTAssertEqual(h.run(["write", "com.c", "{ ok = \"a\u{2}b\"; }"]).status, 2)
        XCTAssertEqual(h.run(["import", "com.c", "-", "--json"], stdin: Data(#"{"k": "a\u0003b"}"#.utf8)).status, 2)
        XCTAssertEqual(h.snapshot(), before)
        // A binary domain made by Foundation, read back by plistlib: neither is ours.
        try PropertyListSerialization.data(fromPropertyList: ["k": 1], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: h.path("com.bin")))
        h.ok("write", "com.bin", "bad", "a\u{1}b")
        XCTAssertEqual(h.plistlibJSON(h.path("com.bin")), #"{"bad": "a\u0001b", "k": 1}"#)
    }
}
