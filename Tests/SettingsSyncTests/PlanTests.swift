import Foundation
import PlistModel
import XCTest

@testable import SettingsSync

/// Issue 47: a round's `Plan` in process, with the user's git storing the blobs: per
/// domain and per key, the base, the live domain and the repository's merged three ways.
final class PlanTests: XCTestCase {
    var root: String!
    var machine: Machine!

    override func setUpWithError() throws {
        root = try Machine.scratch()
        machine = try Machine(root)
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A change since the base on either side wins, key by key, and a key added on
    /// either side is kept.
    func testEachKeyTakesTheSideThatChangedIt() throws {
        let base: PlistDictionary = ["here": 1, "there": 1, "same": 1]
        let plan = try machine.plan(
            base: ["com.app": base],
            live: ["com.app": ["here": 2, "there": 1, "same": 1, "new_here": "h"]],
            remote: ["com.app": ["here": 1, "there": 3, "same": 1, "new_there": "t"]])
        let merged: PlistDictionary = ["here": 2, "there": 3, "same": 1, "new_here": "h", "new_there": "t"]
        XCTAssertEqual(plan.domains.map(\.name), ["com.app"])
        XCTAssertEqual(plan.domains[0].liveAfter, merged, "what the live domain becomes")
        XCTAssertEqual(try machine.pushed(plan, "com.app"), merged, "what the repository gets")
        XCTAssertEqual(plan.exported, ["com.app"])
        XCTAssertEqual(plan.conflicts, [])
    }

    /// A removal is a change like any other: a key removed here leaves the repository, a
    /// key or a domain removed there leaves the live domain, and a key removed on one side
    /// but changed on the other keeps the change (nothing is lost).
    func testARemovalOnEitherSideTravels() throws {
        let plan = try machine.plan(
            base: ["com.app": ["gone_here": 1, "gone_there": 1, "kept": 1, "changed": 1], "com.old": ["k": 1]],
            live: ["com.app": ["gone_there": 1, "kept": 1], "com.old": ["k": 1]],
            remote: ["com.app": ["gone_here": 1, "kept": 1, "changed": 2]])
        let merged: PlistDictionary = ["kept": 1, "changed": 2]
        XCTAssertEqual(try machine.pushed(plan, "com.app"), merged)
        let app = try XCTUnwrap(plan.domains.first { $0.name == "com.app" })
        XCTAssertEqual(app.liveAfter, merged)
        let old = try XCTUnwrap(plan.domains.first { $0.name == "com.old" })
        XCTAssertEqual(old.liveAfter, [:], "the domain removed there is emptied here")
        XCTAssertNil(old.agreed, "and has no file in the base")
        XCTAssertNil(try machine.pushed(plan, "com.old"))
        XCTAssertEqual(plan.conflicts, [])
    }

    /// Both sides changed a key differently: the repository's value, already pushed by
    /// another machine, wins, and this machine's is reported for the log.
    func testAConflictKeepsTheRemotesValueAndReportsTheLoser() throws {
        let plan = try machine.plan(
            base: ["com.app": ["k": 1, "other": 1]],
            live: ["com.app": ["k": "mine", "other": 1]],
            remote: ["com.app": ["k": "theirs", "other": 1]])
        XCTAssertEqual(plan.domains[0].liveAfter, ["k": "theirs", "other": 1])
        XCTAssertEqual(try machine.pushed(plan, "com.app"), ["k": "theirs", "other": 1])
        XCTAssertEqual(
            plan.conflicts,
            [#"conflict at /k in com.app.plist: ours "mine", theirs "theirs"; kept theirs, already pushed"#])
        XCTAssertEqual(plan.exported, [], "the repository already holds the result")
    }
}
