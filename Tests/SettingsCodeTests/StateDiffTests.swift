import XCTest
@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsCode
@testable import SettingsStore

/// The comparing and replaying of `diff` and `capture`, without a store.
final class StateDiffTests: XCTestCase {
    func testLeavesOfNestedDictionariesAndTypeChanges() {
        let old: PlistDictionary = ["a": ["x": 1, "y": 2], "b": "s", "c": ["z": true]]
        let new: PlistDictionary = ["a": ["x": 1, "y": 3], "b": ["n": 1], "d": .array([1])]
        let leaves = LeafChange.changes(from: old, to: new)
        XCTAssertEqual(leaves.map(\.path.pointer), ["/a/y", "/b", "/b/n", "/c/z", "/d"])
        XCTAssertEqual(leaves[0], LeafChange(path: PlistKeyPath(["a", "y"]), old: 2, new: 3))
        XCTAssertEqual(leaves[1].new, nil)
        XCTAssertEqual(leaves[3].new, nil)
        XCTAssertTrue(LeafChange.changes(from: old, to: old).isEmpty)
    }

    func testTextIsTextconvLinesWithSigns() {
        let a = SettingsState([("com.example.app", ["k": 1, "s": "a\nb"])])
        let b = SettingsState([("com.example.app", ["k": 2, "s": "a\nb"])])
        let text = String(decoding: StateDiff(from: a, to: b).text(headings: true), as: UTF8.self)
        XCTAssertEqual(text, "--- com.example.app\n-/k = 1\n+/k = 2\n")
    }

    func testDomainsOneStateSaysNothingOfAreNotCompared() {
        let partial = SettingsState([("a", ["k": 1])])
        let other = SettingsState([("a", ["k": 1]), ("b", ["k": 1])])
        XCTAssertTrue(StateDiff(from: partial, to: other).isEmpty)
        var complete = partial
        complete.complete = true
        XCTAssertEqual(StateDiff(from: complete, to: other).domains.map(\.name), ["b"])
        XCTAssertEqual(StateDiff(from: other, to: complete).domains.first?.new, nil)
    }

    func testStateFileRoundTripsEveryType() throws {
        let values: PlistDictionary = [
            "b": true, "i": .int(PlistInteger(unsigned: UInt64.max)), "d": .double(.nan),
            "t": .date(PlistDate(secondsSince2001: 0.25)), "x": .data([0, 255]), "e": .dict([:]),
        ]
        let state = SettingsState([("com.example.app", values), ("gone", nil)], complete: true)
        guard case .state(let back) = try SettingsState.read(state.file, name: "f") else {
            return XCTFail("not read as a state")
        }
        XCTAssertEqual(back, state)
        XCTAssertEqual(try SettingsState.read(Array(#"{"k": 1}"#.utf8), name: "f"), .domain(["k": 1]))
    }

    func testCommandsAreTypedAndQuoted() {
        let lines = ReplayCommands.lines(
            "com.example.app", from: ["gone": 1, "w": ["a": 1]],
            to: [
                "w": ["a": 2], "s": "it's", "-flag": true, "f": .float(1.5), "r": .double(.infinity),
                "t": .date(PlistDate(secondsSince2001: 0)), "x": .data([1, 2]), "n": .array([]),
            ])
        XCTAssertEqual(
            lines,
            [
                "settings write com.example.app -p /-flag -bool true",
                "settings write com.example.app f -float 1.5",
                "settings delete com.example.app gone",
                "settings write com.example.app n -array",
                #"settings write com.example.app r --exact --json '{"$real":"inf"}'"#,
                #"settings write com.example.app s -string 'it'\''s'"#,
                "settings write com.example.app t -date 2001-01-01T00:00:00Z",
                "settings write com.example.app -p /w/a -int 2",
                "settings write com.example.app x -data 0102",
            ])
        XCTAssertEqual(ReplayCommands.lines("a b", from: ["k": 1], to: nil), ["settings delete 'a b'"])
    }

    func testNoiseIsHiddenWithTheDictionariesItMade() {
        let old = SettingsState([("a", ["volume": 1])])
        let new = SettingsState([("a", ["volume": 2, "NSWindow Frame Main": "0 0 1 1", "ui": ["recentFiles": ["x"]]])])
        let (difference, hidden) = NoiseFilter.standard.apply(to: StateDiff(from: old, to: new))
        XCTAssertEqual(hidden, 2)
        XCTAssertEqual(difference.commands(), ["settings write a volume -int 2"])
        let (pointer, one) = NoiseFilter(["/volume"]).apply(to: StateDiff(from: old, to: new))
        XCTAssertEqual(one, 1)
        XCTAssertEqual(pointer.domains.first?.leaves.map(\.path.pointer), ["/NSWindow Frame Main", "/ui/recentFiles"])
    }
}

/// `apply`'s record of what a place held, and the edits that give it back.
final class DesiredStateTests: XCTestCase {
    func testWhatAPlaceHeldAndTheDictionariesMadeForIt() throws {
        let values: PlistDictionary = ["a": ["x": 1]]
        XCTAssertEqual(DesiredState.held(PlistKeyPath(["a", "x"]), in: values), .dict(["before": 1]))
        XCTAssertEqual(DesiredState.held(PlistKeyPath(["a", "y"]), in: values), .dict([:]))
        XCTAssertEqual(DesiredState.held(PlistKeyPath(["b", "c", "d"]), in: values), .dict(["made": "/b"]))
        var edited: PlistDictionary = ["a": ["x": 1], "b": ["c": ["d": 2]]]
        let removal = DesiredState.Edit(path: PlistKeyPath(["b", "c", "d"]), value: nil, made: PlistKeyPath(["b"]))
        try DesiredState.perform([removal], on: &edited)
        XCTAssertEqual(edited, ["a": ["x": 1]])
        // A dictionary that gained another key meanwhile stays.
        var shared: PlistDictionary = ["b": ["c": ["d": 2], "other": true]]
        try DesiredState.perform([removal], on: &shared)
        XCTAssertEqual(shared, ["b": ["other": true]])
    }

    /// Many edits of one domain, removals among them, made as one pass: the result is what
    /// making them one at a time gives.
    func testManyEditsGiveWhatOneAtATimeGives() throws {
        var values = PlistDictionary()
        for n in 0..<5000 { values.append(key: "key\(100_000 + n)", value: .int(Int64(n))) }
        var edits: [DesiredState.Edit] = []
        for n in stride(from: 0, to: 5000, by: 2) {
            edits.append(.init(path: PlistKeyPath(["key\(100_000 + n)"]), value: nil))
        }
        for n in stride(from: 1, to: 5000, by: 4) {
            edits.append(.init(path: PlistKeyPath(["key\(100_000 + n)"]), value: -1))
        }
        edits.append(.init(path: PlistKeyPath(["a", "b"]), value: true))
        edits.append(.init(path: PlistKeyPath(["key100000"]), value: 7))
        var expected = values
        for edit in edits {
            var top = expected[edit.path.segments[0]]
            if let value = edit.value { try edit.path.set(value, in: &top) } else { top = nil }
            expected[edit.path.segments[0]] = top
        }
        try DesiredState.perform(edits, on: &values)
        XCTAssertEqual(values, expected)
        XCTAssertEqual(values.count, 2502)
        XCTAssertEqual(values["key100000"], 7)
        XCTAssertEqual(values["a"], ["b": true])
    }
}

/// Which keys `undo` restores, and to what.
final class UndoPlanTests: XCTestCase {
    func testTheEarliestOldValueIsRestoredWhereTheLastNewOneStands() {
        let entries = [
            JournalEntry(time: 1, writer: "w", pid: 1, changes: [KeyChange(key: "a", old: nil, new: 1)]),
            JournalEntry(time: 2, writer: "w", pid: 1, changes: [KeyChange(key: "a", old: 1, new: 2)]),
            JournalEntry(
                time: 3, writer: "w", pid: 1,
                changes: [KeyChange(key: "a", old: 2, new: 3), KeyChange(key: "b", old: 9, new: nil)]),
        ]
        XCTAssertEqual(
            Undo.plan(entries, .steps(2)), [KeyChange(key: "a", old: 3, new: 1), KeyChange(key: "b", old: nil, new: 9)])
        XCTAssertEqual(Undo.plan(entries, .after(1.5)), Undo.plan(entries, .steps(2)))
        XCTAssertEqual(Undo.plan(entries, .after(3)), [])
        XCTAssertEqual(Undo.plan(entries, .steps(99))?.first, KeyChange(key: "a", old: 3, new: nil))
        var big = entries
        big[1].valuesKept = false
        XCTAssertNil(Undo.plan(big, .steps(2)), "a change kept without values cannot be undone")
        XCTAssertEqual(Undo.plan(big, .steps(1))?.count, 2)
    }
}

/// `DesiredState.run` against a store: the plan's result is written when the file is as
/// the plan read it, and the edits are made again when another writer changed it since.
final class DesiredStateRunTests: XCTestCase {
    var directory = ""
    var store: DomainStore!

    override func setUp() {
        directory = NSTemporaryDirectory() + "desired-\(UUID().uuidString)"
        store = DomainStore(
            directory: directory + "/config",
            environment: Environment(["XDG_STATE_HOME": directory + "/state", "HOME": directory]))
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func values(_ name: String) throws -> PlistDictionary? { try store.load(.named(name))?.values }

    func testAChangeMadeBetweenThePlanAndTheRunIsKept() throws {
        try store.update(.named("com.example.a")) {
            $0 = ["a": 1, "b": 2, "c": 3]; return true
        }
        let engine = DesiredState(store: store)
        let desired = SettingsState([("com.example.a", ["a": 10, "b": 20])])
        let plan = try engine.plan(desired)
        // The usual case: nobody wrote meanwhile; the planned values are written.
        XCTAssertEqual(try engine.run(plan), ["com.example.a"])
        XCTAssertEqual(try values("com.example.a"), ["a": 10, "b": 20, "c": 3])

        try store.update(.named("com.example.a")) {
            $0 = ["a": 1, "b": 2, "c": 3]; return true
        }
        let again = try engine.plan(desired)
        try store.update(.named("com.example.a")) {
            $0["c"] = 30; $0["d"] = 4; return true
        }
        XCTAssertEqual(try engine.run(again), ["com.example.a"])
        XCTAssertEqual(try values("com.example.a"), ["a": 10, "b": 20, "c": 30, "d": 4])
    }

    /// A failure in the second domain: the record keeps what the first one held, so a later
    /// apply without it gives it back.
    func testAfterAFailureTheRecordHoldsWhatTheAppliedDomainsHeld() throws {
        try store.update(.named("com.example.a")) {
            $0 = ["k": 1]; return true
        }
        try store.update(.named("com.example.b")) {
            $0 = ["k": 1]; return true
        }
        let engine = DesiredState(store: store)
        let plan = try engine.plan(SettingsState([("com.example.a", ["k": 2]), ("com.example.b", ["k": 2])]))
        let path = store.path(of: .named("com.example.b"))
        chmod(path, 0o444)
        defer { chmod(path, 0o644) }
        XCTAssertThrowsError(try engine.run(plan)) { error in
            guard case ApplyError.partial(let applied, _, let failed, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(applied, ["com.example.a"])
            XCTAssertEqual(failed, "com.example.b")
        }
        XCTAssertEqual(try values("com.example.a"), ["k": 2])
        chmod(path, 0o644)
        // Both named, emptied: a domain the file no longer names is refused (issue 49).
        try engine.run(try engine.plan(SettingsState([("com.example.a", [:]), ("com.example.b", [:])])))
        XCTAssertEqual(try values("com.example.a"), ["k": 1], "given back what it held")
        XCTAssertEqual(try values("com.example.b"), ["k": 1])
    }
}
