import Foundation
import PlistCodecs
import PlistModel
import SettingsStore
import XCTest

@testable import SettingsSync

/// Issue 47: a join, in process. A machine with no base (new, or one whose base the
/// remote's rewritten history no longer holds) merges with an empty base: nothing either
/// side lacks is taken for removed, and where both have a key and differ, the remote's
/// value wins and this machine's is reported.
final class JoinTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = try Machine.scratch() }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(atPath: root) }
    }

    func testAnEmptyBaseKeepsBothSidesAndADifferingKeyFollowsTheRemote() throws {
        let machine = try Machine(root)
        let plan = try machine.plan(
            base: nil,
            live: ["com.app": ["mine": 1, "shared": "here", "same": true], "com.mine": ["k": 1]],
            remote: ["com.app": ["theirs": 2, "shared": "there", "same": true], "com.theirs": ["k": 2]])
        let app: PlistDictionary = ["mine": 1, "shared": "there", "same": true, "theirs": 2]
        XCTAssertEqual(try machine.pushed(plan, "com.app"), app)
        XCTAssertEqual(try machine.pushed(plan, "com.mine"), ["k": 1])
        XCTAssertEqual(try machine.pushed(plan, "com.theirs"), ["k": 2])
        let after = Dictionary(uniqueKeysWithValues: plan.domains.map { ($0.name, $0.liveAfter) })
        XCTAssertEqual(after, ["com.app": app, "com.mine": ["k": 1], "com.theirs": ["k": 2]])
        XCTAssertEqual(
            plan.conflicts,
            [#"conflict at /shared in com.app.plist: ours "here", theirs "there"; kept theirs, already pushed"#])
        XCTAssertEqual(plan.exported, ["com.app", "com.mine"])
    }

    /// A whole round, in process: the remote's history is replaced by an unrelated one
    /// holding one domain; the next round reports the rewrite, keeps every domain and key
    /// of this machine, lets the remote's value win where they differ and reports the
    /// loser, and pushes on the new history. The round after is an ordinary one.
    func testARoundOverARewrittenHistoryJoinsIt() throws {
        let remote = root + "/remote.git"
        let machine = try Machine(root)
        let made = try Git(directory: remote, environment: machine.environment).attempt(
            ["init", "-q", "--bare", "-b", "main", remote], outside: true)
        XCTAssertTrue(made.ok, made.reason)
        _ = try SyncSetup.initialize(remote: remote, patterns: [], environment: machine.environment)
        try write(machine, "com.app", ["x": 1, "shared": "before"])
        try write(machine, "com.two", ["k": 2])
        XCTAssertEqual(try machine.round().run().exported, ["com.app", "com.two"])

        // Another repository's history, pushed over the remote's branch.
        let other = try Git(directory: remote, environment: machine.environment)
        let blob = try other.store(XMLWriter.encode(.dict(["shared": "rewritten", "new": 1])))
        let tree = try other.tree([TreeEntry(mode: "100644", type: "blob", id: blob, name: "com.app.plist")])
        let commit = try other.commit(tree, parents: [], message: "a new start", identity: [:])
        try other.update([("refs/heads/main", commit)])

        let report = try machine.round().run()
        XCTAssertTrue(report.rewritten)
        XCTAssertEqual(
            report.conflicts,
            [
                #"conflict at /shared in com.app.plist: ours "before", theirs "rewritten"; kept theirs, already pushed"#
            ])
        XCTAssertEqual(report.imported, ["com.app"])
        XCTAssertEqual(try machine.store.load(.named("com.app"))?.values, ["x": 1, "shared": "rewritten", "new": 1])
        XCTAssertEqual(try machine.store.load(.named("com.two"))?.values, ["k": 2])
        let head = try other.text(["rev-parse", "refs/heads/main"])
        XCTAssertTrue(try other.attempt(["merge-base", "--is-ancestor", commit, head]).ok, "pushed on the new history")
        let log = try String(contentsOfFile: SyncFolder(environment: machine.environment).log, encoding: .utf8)
        XCTAssertTrue(log.contains(#"ours "before", theirs "rewritten""#), log)

        // The base moved with the push: the next round carries nothing and is no join.
        let next = try machine.round().run()
        XCTAssertFalse(next.rewritten)
        XCTAssertEqual(next.exported + next.imported + next.conflicts + next.notes, [])
    }

    private func write(_ machine: Machine, _ name: String, _ values: PlistDictionary) throws {
        try machine.store.update(.named(name)) { current in
            current = values
            return true
        }
    }
}
