import Foundation
import XCTest

/// Issue 48 §6: `sync remote URL` for the same repository (a renewed token, another
/// spelling of its path) keeps what this machine agreed with it, so a removal another
/// machine made meanwhile stays one; for another repository, the round merges with it as a
/// machine joining does, and nothing of either side is lost.
final class SyncRemoteTests: SyncTestCase {
    /// Machines a and b in step on the world's remote, carrying two domains.
    private func twoMachinesInStep() {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.app", "x", "-int", "1")
        on("a", "write", "com.app", "y", "-int", "2")
        on("a", "write", "com.two", "k", "-int", "2")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"x": 1, "y": 2}"#)
    }

    func testANewURLOfTheSameRepositoryKeepsWhatWasAgreed() throws {
        twoMachinesInStep()
        on("b", "delete", "com.app", "y")
        on("b", "delete", "com.two")
        on("b", "sync")
        // The same repository, spelled another way (as a renewed token would be).
        XCTAssertEqual(
            on("a", "sync", "remote", "file://" + world.remote).stdout,
            "sync: the remote is now file://\(world.remote)\n")
        let round = on("a", "sync")
        XCTAssertFalse(round.stderr.contains("rewritten"), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"x": 1}"#, "b's removal is one here too")
        XCTAssertNil(world.live("a", "com.two"))
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist"])
        XCTAssertFalse(world.remoteFile("com.app.plist").contains("<key>y</key>"))
        // And on from there, in both directions.
        on("a", "write", "com.app", "w", "-int", "3")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"w": 3, "x": 1}"#)
        XCTAssertTrue(on("a", "sync", "status").stdout.contains("remote: file://\(world.remote) (branch main)"))
    }

    func testARemoteOfAnotherRepositoryIsJoinedAndNothingIsLost() throws {
        twoMachinesInStep()
        let other = world.work + "/other.git"
        world.git(["init", "-q", "--bare", "-b", "main", other])
        on("c", "sync", "init", other)
        on("c", "write", "com.app", "z", "-int", "3")
        on("c", "write", "com.app", "x", "-int", "9")
        on("c", "write", "com.three", "k", "-int", "3")
        on("c", "sync")
        on("a", "sync", "remote", other)
        on("a", "sync")
        // Nothing of a's is taken for removed there, nor anything of the other's here; a
        // key both hold takes the repository's value.
        XCTAssertEqual(world.live("a"), #"{"x": 9, "y": 2, "z": 3}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.live("a", "com.three"), #"{"k": 3}"#)
        XCTAssertTrue(on("a", "sync", "log").stdout.contains("conflict at /x in com.app.plist: ours 1, theirs 9"))
        let files = world.git(["--git-dir=" + other, "ls-tree", "--name-only", "main"]).stdout
        XCTAssertEqual(files, "com.app.plist\ncom.three.plist\ncom.two.plist\n")
        on("c", "sync")
        XCTAssertEqual(world.live("c"), #"{"x": 9, "y": 2, "z": 3}"#)
        XCTAssertEqual(world.live("c", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        // The first repository is as a and b left it.
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.two.plist"])
    }
}
