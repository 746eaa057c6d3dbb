import Foundation
import XCTest

/// Who waits for whom (`FolderLock`): a write to an existing domain holds only that file,
/// so writers of different domains never wait for each other, while a new domain is made
/// alone; and however many writers race, no write is lost and no name is made twice.
final class WriteLockTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// A process holding `flock(2)` of `path` (shared or exclusive) until it is killed:
    /// `flock(1)` takes it on a descriptor the shell then hands to `sleep` by `exec`.
    /// Returns once it holds it (it says so), not after a guessed time.
    func hold(_ path: String, shared: Bool = false) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c", "exec 9<\"$1\"; flock \(shared ? "-s" : "-x") 9; echo locked; exec sleep 30 >/dev/null", "sh", path,
        ]
        let said = Pipe()
        p.standardOutput = said
        try p.run()
        let line = said.fileHandleForReading.readData(ofLength: 7)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), "locked\n")
        return p
    }

    func testAWriterOfOneDomainNeverWaitsForAWriterOfAnother() throws {
        h.ok("write", "com.a", "k", "-int", "1")
        h.ok("write", "com.b", "k", "-int", "1")
        let holder = try hold(h.path("com.a"))
        defer { holder.terminate(); holder.waitUntilExit() }
        let quick = ["SETTINGS_LOCK_TIMEOUT": "0.2"]
        let start = Date()
        XCTAssertEqual(h.run(["write", "com.b", "k", "-int", "2"], environment: quick).status, 0)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
        let waited = h.run(["write", "com.a", "k", "-int", "2"], environment: quick)
        XCTAssertNotEqual(waited.status, 0)
        XCTAssertTrue(waited.stderr.contains("com.a"), waited.stderr)
        XCTAssertEqual(h.ok("read", "com.a", "k"), "1\n")
        XCTAssertEqual(h.ok("read", "com.b", "k"), "2\n")
    }

    /// Writers of existing domains share the folder; a new domain needs it alone.
    func testANewDomainWaitsForTheFolderButAChangeDoesNot() throws {
        h.ok("write", "com.a", "k", "-int", "1")
        let holder = try hold(h.config, shared: true)
        defer { holder.terminate(); holder.waitUntilExit() }
        let quick = ["SETTINGS_LOCK_TIMEOUT": "0.2"]
        XCTAssertEqual(h.run(["write", "com.a", "k", "-int", "2"], environment: quick).status, 0)
        let new = h.run(["write", "com.new", "k", "-int", "1"], environment: quick)
        XCTAssertNotEqual(new.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.new")))
        XCTAssertEqual(h.ok("read", "com.a", "k"), "2\n")
    }

    /// An older writer's exclusive folder lock still holds off every writer.
    func testAnExclusiveFolderLockStillHoldsEveryoneOff() throws {
        h.ok("write", "com.a", "k", "-int", "1")
        let holder = try hold(h.config)
        defer { holder.terminate(); holder.waitUntilExit() }
        let r = h.run(
            ["write", "com.a", "k", "-int", "2"], environment: ["SETTINGS_LOCK_TIMEOUT": "0.2"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(h.ok("read", "com.a", "k"), "1\n")
    }

    /// Four writers on one domain, four on four others (two of them one name in two
    /// cases, made at once), and deletes of a fifth: every write is there after.
    func testRacingWritersLoseNothing() throws {
        h.ok("write", "com.shared", "seed", "-int", "0")
        h.ok("write", "com.gone", "seed", "-int", "0")
        var scripts: [String] = []
        for w in 0..<4 {
            scripts.append(
                "for i in $(seq 10); do \(Harness.settings) write com.shared w\(w)k$i -int $i || exit 1; done")
        }
        for (w, name) in ["com.one", "com.two", "com.Case", "com.case"].enumerated() {
            scripts.append("for i in $(seq 10); do \(Harness.settings) write \(name) w\(w)k$i -int $i || exit 1; done")
        }
        scripts.append(
            "for i in $(seq 10); do \(Harness.settings) write com.gone k -int $i && \(Harness.settings) delete com.gone || exit 1; done"
        )
        let processes = try scripts.map { script -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", script]
            p.environment = h.environment([:])
            try p.run()
            return p
        }
        for p in processes {
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
        }
        let shared = h.plistlibJSON(h.path("com.shared"))
        for w in 0..<4 { for i in 1...10 { XCTAssertTrue(shared.contains("\"w\(w)k\(i)\": \(i)"), "w\(w)k\(i)") } }
        let files = try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }
            .sorted()
        XCTAssertEqual(files.filter { $0.lowercased() == "com.case.plist" }.count, 1, "\(files)")
        let cased = h.plistlibJSON(h.path(files.first { $0.lowercased() == "com.case.plist" }!.dropLast(6).description))
        for w in 2...3 { for i in 1...10 { XCTAssertTrue(cased.contains("\"w\(w)k\(i)\": \(i)"), "w\(w)k\(i)") } }
        XCTAssertFalse(files.contains("com.gone.plist"))
        XCTAssertFalse(files.contains { $0.hasPrefix(".settings-tmp") }, "\(files)")
    }
}
