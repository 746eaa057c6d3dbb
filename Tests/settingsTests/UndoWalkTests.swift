import Foundation
import XCTest

/// `undo` and `redo` as a history with a pointer (issue 49, cases 12, 13 and 16): undo
/// walks back, redo forward, each names the change it took back; a 32-bit real comes
/// back; a clock stepped back never reaches older changes.
final class UndoWalkTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// A binary domain (plistlib's) holding `values` (a Python literal), so a `-float`
    /// stays a 32-bit real.
    func binaryDomain(_ domain: String, _ values: String = "{'n': 1}") {
        let made = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; plistlib.dump(\(values), open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)",
                h.path(domain),
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    /// Case 16: each undo goes one change further back and says which it took back (when,
    /// who, its keys); redo makes them again in turn; a new change ends what can be redone.
    func testUndoWalksBackAndRedoForward() {
        h.ok("write", "com.example.app", "a", "-int", "1")
        h.ok("write", "com.example.app", "b", "-int", "2")
        h.ok("write", "com.example.app", "c", "-int", "3")
        let first = h.ok("undo", "com.example.app")
        XCTAssertTrue(first.hasPrefix("undid "), first)
        XCTAssertTrue(first.contains("settings write (pid "), first)
        XCTAssertTrue(first.hasSuffix("): c\n-/c = 3\n"), first)
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/b = 2\n")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"a": 1}"#)
        let redo = h.ok("redo", "com.example.app")
        XCTAssertTrue(redo.hasPrefix("redid "), redo)
        XCTAssertTrue(redo.hasSuffix("): b\n+/b = 2\n"), redo)
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "+/c = 3\n")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"a": 1, "b": 2, "c": 3}"#)
        let none = h.run(["redo", "com.example.app"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderr, "settings: nothing to redo in com.example.app\n")
        // Undone again, then a new change: nothing to redo, and undo goes on from there.
        h.ok("undo", "com.example.app")
        h.ok("write", "com.example.app", "d", "-int", "4")
        XCTAssertEqual(h.run(["redo", "com.example.app"]).status, 1, "a new change ends what can be redone")
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/d = 4\n")
        XCTAssertEqual(changes(h.ok("undo", "com.example.app", "--steps", "2")), "-/a = 1\n-/b = 2\n")
        XCTAssertEqual(h.run(["undo", "com.example.app"]).status, 1, "nothing older to undo")
    }

    /// An undo of an outside change (one the journal found, not yet journalled) is known
    /// for what it took back: the next undo goes on to the write before it, and redo walks
    /// forward again through both.
    func testUndoOfAnOutsideChangeGoesOnToTheWriteBefore() {
        h.ok("write", "com.example.app", "k", "-int", "1")
        h.ok("write", "com.example.app", "k", "-int", "2")
        binaryDomain("com.example.app", "{'k': 3}")
        let outside = h.ok("undo", "com.example.app")
        XCTAssertTrue(outside.contains("outside change"), outside)
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/k = 2\n+/k = 1\n")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"k": 1}"#)
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "-/k = 1\n+/k = 2\n")
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "-/k = 2\n+/k = 3\n")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"k": 3}"#)
    }

    /// Case 12: a `-float` change in a binary domain is undone, and the 32-bit real given
    /// back stays 32 bits (the journal's JSON reads it as 64).
    func testAFloatChangeInABinaryDomainIsUndone() {
        binaryDomain("com.example.f")
        h.ok("write", "com.example.f", "ratio", "-float", "0.1")
        h.ok("write", "com.example.f", "ratio", "-float", "0.7")
        let r = h.run(["undo", "com.example.f"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "no 'changed since'")
        XCTAssertEqual(h.ok("read-type", "com.example.f", "ratio"), "Type is float\n")
        let bytes = FileManager.default.contents(atPath: h.path("com.example.f")) ?? Data()
        XCTAssertNotNil(bytes.range(of: Data([0x22, 0x3D, 0xCC, 0xCC, 0xCD])), "0.1 as a 32-bit real")
    }

    /// Case 13: `undo --to 30m` after the clock was stepped back stops at the first change
    /// stamped before then: one stamped hours earlier, though newer, is not taken back.
    func testUndoToStopsAtAChangeStampedEarlier() throws {
        h.ok("write", "com.example.app", "k", "-int", "1")
        h.ok("write", "com.example.app", "k", "-int", "2")
        let folder = h.state + "/settings/history"
        let name = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".jsonl") })
        let path = folder + "/" + name
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        // The newest change stamped five hours back: the clock was stepped back before it.
        let stepped = Date().timeIntervalSince1970 - 5 * 3600
        lines[1] = lines[1].replacingOccurrences(
            of: #""time":[0-9.e+]+"#, with: "\"time\":\(stepped)", options: .regularExpression)
        try Data(("\n" + lines.joined(separator: "\n")).utf8).write(to: URL(fileURLWithPath: path))
        let r = h.run(["undo", "com.example.app", "--to", "30m"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "k"), "2\n", "nothing taken back")
    }
}

extension UndoWalkTests {
    /// Case 20: settings' own writes are never said to be "not through settings": those
    /// made with the journal off are found as changes nobody journalled, and said so (and
    /// can still be undone); those made through a domain that is a link to another's file
    /// are in that file's one journal, as the writes they are.
    func testOwnWritesAreNeverCalledOutsideChanges() throws {
        // Each its own process, as a script makes them.
        for (value, size) in [("1", "1048576"), ("2", "0"), ("3", "1048576")] {
            let r = h.exec(
                Harness.settings, ["write", "com.example.app", "k", "-int", value],
                environment: ["SETTINGS_HISTORY_SIZE": size])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let off = h.ok("history", "com.example.app")
        XCTAssertFalse(off.contains("not through settings"), off)
        XCTAssertTrue(
            off.contains("outside change (not journalled: another program, or settings with the journal off)\n"), off)

        h.ok("write", "com.example.target", "k", "-int", "1")
        try FileManager.default.createSymbolicLink(
            atPath: h.path("com.example.link"), withDestinationPath: h.path("com.example.target"))
        h.ok("write", "com.example.link", "k", "-int", "2")
        h.ok("write", "com.example.target", "k", "-int", "3")
        let history = h.ok("history", "com.example.target")
        XCTAssertFalse(history.contains("outside change"), history)
        XCTAssertTrue(history.contains("-/k = 2\n+/k = 3\n"), history)
        XCTAssertEqual(h.ok("history", "com.example.link"), history, "one file, one journal")
    }
}

extension UndoWalkTests {
    /// A kill of `undo` while it waits for the domain's lock (another writer holds it)
    /// changes nothing and leaves nothing in the way: the next undo takes back the same
    /// change, and redo makes it again.
    func testAKilledUndoLosesNothing() throws {
        h.ok("write", "com.example.app", "k", "-int", "1")
        h.ok("write", "com.example.app", "k", "-int", "2")
        let before = h.snapshot()
        let holder = try h.holdingLock(on: h.path("com.example.app"))
        defer { if holder.isRunning { holder.terminate() } }
        let (undo, _, _) = try h.start(["undo", "com.example.app"])
        WatchTests.waitUntilSleeping(undo)
        XCTAssertTrue(undo.isRunning, "the undo waits for the lock")
        kill(undo.processIdentifier, SIGKILL)
        undo.waitUntilExit()
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(h.snapshot(), before)
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/k = 2\n+/k = 1\n")
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "-/k = 1\n+/k = 2\n")
    }
}

extension UndoWalkTests {
    /// A 32-bit real given back where no value is now (undo of a delete, redo of an undo
    /// that removed it) comes back 32 bits: the journal keeps its width (`$float`).
    func testA32BitRealComesBackWhereNothingIs() {
        binaryDomain("com.example.f")
        h.ok("write", "com.example.f", "r", "-float", "0.1")
        func isFloat32() -> Bool {
            let bytes = FileManager.default.contents(atPath: h.path("com.example.f")) ?? Data()
            return bytes.range(of: Data([0x22, 0x3D, 0xCC, 0xCC, 0xCD])) != nil
        }
        XCTAssertTrue(isFloat32())
        h.ok("undo", "com.example.f")
        XCTAssertFalse(isFloat32())
        h.ok("redo", "com.example.f")
        XCTAssertTrue(isFloat32(), "redo gives back the 32-bit real")
        h.ok("delete", "com.example.f", "r")
        h.ok("undo", "com.example.f")
        XCTAssertTrue(isFloat32(), "undo of the delete gives back the 32-bit real")
        XCTAssertEqual(h.ok("read-type", "com.example.f", "r"), "Type is float\n")
    }
}

extension UndoWalkTests {
    /// A journal replaced by a link (or a FIFO) is never read through: `history` and `undo`
    /// say so in one warning, not an empty history without a word.
    func testAPlantedJournalIsSaidNotSilentlyEmpty() throws {
        h.ok("write", "com.example.app", "k", "-int", "1")
        let folder = h.state + "/settings/history"
        let name = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".jsonl") })
        let decoy = h.files + "/decoy.jsonl"
        try FileManager.default.createDirectory(atPath: h.files, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: decoy)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: decoy)
        let history = h.run(["history", "com.example.app"])
        XCTAssertEqual(history.stdout, "")
        XCTAssertEqual(history.stderr.split(separator: "\n").count, 1, history.stderr)
        XCTAssertTrue(history.stderr.contains("cannot read the history"), history.stderr)
        let undo = h.run(["undo", "com.example.app"])
        XCTAssertEqual(undo.status, 1)
        XCTAssertTrue(undo.stderr.contains("cannot read the history"), undo.stderr)
        XCTAssertEqual(h.ok("read", "com.example.app", "k"), "1\n")
    }
}

extension UndoWalkTests {
    /// Found from outside: a 64-bit real given back over a 32-bit one stays 64 bits (and
    /// the other way), and a `-float` change in an XML domain, which holds it as 64 bits,
    /// is undone.
    func testRealsComeBackAtTheWidthTheyHad() {
        binaryDomain("com.example.g", "{'v': 1.1}")
        h.ok("write", "com.example.g", "v", "-float", "2.2")
        h.ok("undo", "com.example.g")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.g")), #"{"v": 1.1}"#, "the 64-bit real, as it was")
        h.ok("write", "com.example.g", "v", "-float", "2.2")
        h.ok("write", "com.example.g", "v", "-double", "3.3")
        h.ok("undo", "com.example.g")
        h.ok("redo", "com.example.g")
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.g")), #"{"v": 3.3}"#)

        h.ok("write", "com.example.x", "v", "-float", "2.2")
        h.ok("write", "com.example.x", "v", "-float", "3.3")
        let undo = h.run(["undo", "com.example.x"])
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(undo.stderr, "")
        XCTAssertEqual(h.ok("read", "com.example.x", "v"), "2.2\n")

    }
}
