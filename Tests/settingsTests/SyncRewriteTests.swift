import Foundation
import XCTest

/// Issue 47: the remote's history rewritten under the fleet (a new repository force-pushed
/// over the old one, the branch deleted). This machine's base is then no ancestor of the
/// remote's head, so what the new history lacks was never removed there: the round merges
/// as a machine joining does (an empty base), and nothing here is lost.
final class SyncRewriteTests: SyncTestCase {
    private let joined = "the remote's history was rewritten; merged as a join"

    /// Pushes over the remote's branch a history of its own: one commit holding `files`
    /// (XML property lists). Its commit.
    private func forcePush(_ files: [String: [String: Any]]) throws -> String {
        let folder = world.work + "/rewrite"
        world.git(["init", "-q", "-b", "main", folder])
        for (name, values) in files {
            let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
            try data.write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        world.git(["add", "-A"], in: folder)
        world.git(["commit", "-q", "-m", "a new start"], in: folder)
        world.git(["push", "-q", "-f", world.remote, "HEAD:main"], in: folder)
        return world.git(["rev-parse", "HEAD"], in: folder).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Two machines in step, carrying three domains.
    private func twoMachinesInStep() {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.app", "x", "-int", "1")
        on("a", "write", "com.app", "shared", "before")
        on("a", "write", "com.two", "k", "-int", "2")
        on("a", "write", "com.three", "k", "-int", "3")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.three"), #"{"k": 3}"#)
    }

    private let domains = ["com.app", "com.two", "com.three"]

    func testAForcePushedUnrelatedHistoryIsMergedAsAJoinAndLosesNothing() throws {
        twoMachinesInStep()
        let rewritten = try forcePush(["com.app.plist": ["shared": "rewritten", "new": 1]])
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains(joined), round.stderr)
        XCTAssertTrue(
            round.stderr.contains(#"conflict at /shared in com.app.plist: ours "before", theirs "rewritten""#),
            round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 2, round.stderr)
        // Every key and domain of this machine is still here; a differing key follows the remote.
        XCTAssertEqual(world.live("a"), #"{"new": 1, "shared": "rewritten", "x": 1}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.live("a", "com.three"), #"{"k": 3}"#)
        XCTAssertTrue(on("a", "sync", "log").stdout.contains(#"ours "before", theirs "rewritten""#))
        // The push builds on the rewritten history (one history for the fleet), and holds both.
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.three.plist", "com.two.plist"])
        world.git(["--git-dir=" + world.remote, "merge-base", "--is-ancestor", rewritten, "main"])
        // The base moved with it: the next round is idle and says nothing.
        let next = on("a", "sync")
        XCTAssertEqual(next.stdout, "sync: exported 0, imported 0\n")
        XCTAssertEqual(next.stderr, "")
        // The second machine joins the same way and converges.
        XCTAssertTrue(on("b", "sync").stderr.contains(joined))
        on("a", "sync")
        for domain in domains { XCTAssertEqual(world.live("b", domain), world.live("a", domain), domain) }
        // From then on removals travel again, and no round takes itself for a join.
        on("b", "delete", "com.three")
        XCTAssertEqual(on("b", "sync").stderr, "")
        let after = on("a", "sync")
        XCTAssertEqual(after.stderr, "")
        XCTAssertNil(world.live("a", "com.three"))
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.two.plist"])
    }

    func testADeletedBranchIsAJoinToo() throws {
        twoMachinesInStep()
        world.git(["--git-dir=" + world.remote, "update-ref", "-d", "refs/heads/main"])
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains(joined), round.stderr)
        for domain in domains { XCTAssertNotNil(world.live("a", domain), domain) }
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.three.plist", "com.two.plist"])
        on("b", "sync")
        for domain in domains { XCTAssertEqual(world.live("b", domain), world.live("a", domain), domain) }
    }

    /// The ancestry check is the user's git like every other step: one that fails or runs
    /// out of time stops the round with one line, and nothing is taken for removed.
    func testAnAncestryCheckThatFailsStopsTheRoundAndChangesNothing() throws {
        twoMachinesInStep()
        _ = try forcePush(["com.app.plist": ["shared": "rewritten"]])
        let git = world.git(["--exec-path"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/git"
        let helpers = world.work + "/helpers"
        try FileManager.default.createDirectory(atPath: helpers, withIntermediateDirectories: true)
        // A git whose merge-base fails (or, with STALL set, never answers); the rest is git's.
        try """
        #!/bin/sh
        for word in "$@"; do
            case "$word" in
            merge-base) [ -n "$STALL" ] && exec sleep 30; echo "fatal: cannot tell" >&2; exit 128 ;;
            esac
        done
        exec \(git) "$@"

        """.write(toFile: helpers + "/git", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helpers + "/git")
        let path = helpers + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let before = world.remoteFiles()
        let base = world.git(["--git-dir=" + world.syncFolder("a") + "/repo.git", "rev-parse", "refs/settings/base"])
        for extra in [["PATH": path], ["PATH": path, "STALL": "1", "SETTINGS_SYNC_TIMEOUT": "1"]] {
            let round = on("a", "sync", status: 4, extra: extra)
            XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
            XCTAssertTrue(round.stderr.contains("merge-base"), round.stderr)
            XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
            XCTAssertEqual(world.live("a"), #"{"shared": "before", "x": 1}"#)
            XCTAssertEqual(world.remoteFiles(), before)
            let now = world.git(["--git-dir=" + world.syncFolder("a") + "/repo.git", "rev-parse", "refs/settings/base"])
            XCTAssertEqual(now.stdout, base.stdout, "the base stays")
        }
        // With a git that answers, the next round joins.
        XCTAssertTrue(on("a", "sync").stderr.contains(joined))
        XCTAssertEqual(world.live("a", "com.three"), #"{"k": 3}"#)
    }

    /// A base this machine made itself (it does not carry a domain the remote changed, so
    /// it agrees with less than the remote's tree) is no ancestor of the remote's head,
    /// and is no rewrite either: removals still travel to it.
    func testABaseOfThisMachinesOwnIsNoRewrite() throws {
        try baseOfItsOwn(keptBefore: false)
    }

    /// The same for a base an earlier version made, before `refs/settings/agreed` was kept:
    /// the state file names the remote's commit it was agreed against.
    func testABaseOfItsOwnFromAnEarlierVersionIsNoRewrite() throws {
        try baseOfItsOwn(keptBefore: true)
    }

    private func baseOfItsOwn(keptBefore: Bool) throws {
        on("a", "sync", "init", world.remote, "com.*")
        on("b", "sync", "init", world.remote)
        on("b", "write", "com.app", "x", "-int", "1")
        on("b", "write", "com.app", "y", "-int", "2")
        on("b", "write", "org.other", "k", "-int", "1")
        on("b", "sync")
        on("a", "sync")
        let repository = "--git-dir=" + world.syncFolder("a") + "/repo.git"
        let base = world.git([repository, "rev-parse", "refs/settings/base"]).stdout
        XCTAssertNotEqual(base, world.git(["--git-dir=" + world.remote, "rev-parse", "main"]).stdout)
        if keptBefore { world.git([repository, "update-ref", "-d", "refs/settings/agreed"]) }
        on("b", "delete", "com.app", "x")
        on("b", "write", "org.other", "k", "-int", "2")
        on("b", "sync")
        let round = on("a", "sync")
        XCTAssertEqual(round.stderr, "")
        XCTAssertEqual(world.live("a"), #"{"y": 2}"#)
        XCTAssertNil(world.live("a", "org.other"))
    }
}
