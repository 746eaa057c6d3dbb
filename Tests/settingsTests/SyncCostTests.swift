import Foundation
import XCTest

/// Issue 48: a round's cost stays bounded. Quiet rounds stay idle while a refused value
/// stays refused; the round after an import runs a few gits, not one per domain; a first
/// import lists the config folder once, not once per domain.
final class SyncCostTests: SyncTestCase {
    /// A git that logs each command it runs (its first word after the options) to a file.
    private func countingGit() throws -> (path: String, log: String) {
        let log = world.work + "/git.log"
        let path = try world.gitWrapper(
            """
            for word in "$@"; do case "$word" in -*) ;; *) echo "$word" >> \(log); break;; esac; done
            touch "$HIT"
            """)
        return (path, log)
    }

    private func commands(_ log: String) -> [String] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        return text.split(separator: "\n").map(String.init)
    }

    /// `com.d0` … as an app writes them: `{k: N}` each.
    private func oneKeyDomains(_ count: Int, on machine: String) throws {
        try FileManager.default.createDirectory(atPath: world.config(machine), withIntermediateDirectories: true)
        for i in 0..<count {
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>k</key><integer>\(i)</integer></dict></plist>

            """.write(toFile: world.file(machine, "com.d\(i)"), atomically: true, encoding: .utf8)
        }
    }

    func testQuietRoundsStayIdleWhileARefusedValueStaysRefused() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        try world.schema("a", "com.app", #"{"keys": {"volume": {"type": "integer", "maximum": 100}}}"#)
        on("b", "write", "com.app", "volume", "-int", "500")
        on("b", "write", "com.app", "other", "-int", "1")
        on("b", "sync")
        let first = on("a", "sync")
        XCTAssertTrue(first.stderr.contains("not allowed by its schema"), first.stderr)
        on("a", "sync")
        let (path, log) = try countingGit()
        _ = commands(log)
        for _ in 0..<3 {
            let quiet = on("a", "sync", extra: ["PATH": path])
            XCTAssertEqual(quiet.stdout, "sync: exported 0, imported 0\n")
            XCTAssertEqual(quiet.stderr, "")
            XCTAssertEqual(commands(log), ["fetch", "cat-file"], "an idle round fetches and reads the refs")
        }
        XCTAssertTrue(world.wasHit)
        XCTAssertEqual(world.live("a"), #"{"other": 1}"#)
        // The schema changes to allow it: the next round takes the value.
        try world.schema("a", "com.app", #"{"keys": {"volume": {"type": "integer", "maximum": 1000}}}"#)
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 1 (com.app)\n")
        XCTAssertEqual(world.live("a"), #"{"other": 1, "volume": 500}"#)
    }

    /// The round exporting them stores their blobs in a git or two, not one each; the
    /// round after the import on another machine runs a few gits too.
    func testTheRoundAfterAnImportRunsAFewGitsNotOnePerDomain() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        try oneKeyDomains(150, on: "b")
        let (path, log) = try countingGit()
        _ = commands(log)
        on("b", "sync", extra: ["PATH": path])
        let exporting = commands(log)
        XCTAssertLessThan(exporting.count, 20, "\(exporting)")
        XCTAssertEqual(world.remoteFiles().count, 150)
        on("a", "sync", extra: ["PATH": path])
        let importing = commands(log)
        XCTAssertLessThan(importing.count, 20, "\(importing)")
        XCTAssertEqual(world.live("a", "com.d149"), #"{"k": 149}"#)
        let after = on("a", "sync", extra: ["PATH": path])
        XCTAssertEqual(after.stdout, "sync: exported 0, imported 0\n")
        let next = commands(log)
        XCTAssertLessThan(next.count, 10, "\(next)")
        XCTAssertFalse(next.contains("hash-object"), "\(next)")
        XCTAssertTrue(world.wasHit)
    }

    /// The user's identity is asked of git only when the environment does not name it
    /// whole: a round that commits on such a machine runs no `git config`, and its commit
    /// is the environment's.
    func testACommitWithTheIdentityInTheEnvironmentRunsNoGitConfig() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "k", "-int", "1")
        let (path, log) = try countingGit()
        _ = commands(log)
        on("a", "sync", extra: ["PATH": path])
        let round = commands(log)
        XCTAssertTrue(round.contains("commit-tree"), "\(round)")
        XCTAssertFalse(round.contains("config"), "\(round)")
        let author = world.git(["--git-dir=" + world.remote, "log", "-1", "--format=%an %ae %cn %ce", "main"])
        XCTAssertEqual(author.stdout, "a a@example.com a a@example.com\n")
    }

    /// Counted as the listings the system door made of the folder (`CallTrace`).
    func testAFirstImportListsTheConfigFolderOnce() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        try oneKeyDomains(100, on: "b")
        on("b", "sync")
        let (traced, calls) = Harness.traced(["sync"], in: world.environment("a"))
        XCTAssertEqual(traced.status, 0, traced.stderr)
        XCTAssertEqual(world.live("a", "com.d99"), #"{"k": 99}"#)
        // (A look before the folder is made finds nothing to list.)
        let listings = calls.filter { $0.name == "opendir" && $0.path == world.config("a") && $0.result == 0 }
        XCTAssertEqual(listings.count, 1, "\(calls.filter { $0.name == "opendir" })")
    }
}
