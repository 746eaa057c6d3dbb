import Foundation
import XCTest

/// The journal, `history` and `undo` through the binary, with other writers: SettingsKit in
/// another process, and Foundation's UserDefaults, which does not use the store.
final class HistoryTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    var journalFolder: String { h.state + "/settings/history" }

    func journals() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: journalFolder)) ?? []).filter {
            $0.hasSuffix(".jsonl")
        }
    }

    func testEveryWriterIsJournalledWithItsOldAndNewValues() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "volume", "-int", "7")
        _ = h.run(["import", "com.example.app", "-", "--json"], stdin: Data(#"{"theme": "dark"}"#.utf8))
        let kit = h.exec(
            Harness.binDirectory + "/SettingsKitProbe", ["count", h.config, "com.example.app", "2"])
        XCTAssertEqual(kit.status, 0, kit.stderr)
        let text = h.ok("history", "com.example.app")
        let headers = text.split(separator: "\n").filter { !$0.hasPrefix("-") && !$0.hasPrefix("+") }
        XCTAssertEqual(headers.count, 5, text)
        XCTAssertTrue(headers[0].hasSuffix(")") && headers[0].contains(" settings write (pid "), text)
        XCTAssertTrue(headers[2].contains(" settings import (pid "), text)
        XCTAssertTrue(headers[3].contains(" SettingsKitProbe (pid "), text)
        XCTAssertTrue(text.contains("-/volume = 5\n+/volume = 7\n"), text)
        XCTAssertTrue(text.contains("+/count = 1\n"), text)
        XCTAssertEqual(h.ok("history", "com.example.app", "theme").split(separator: "\n").count, 2)
        let json = h.ok("history", "com.example.app", "volume", "--json").split(separator: "\n")
        XCTAssertEqual(json.count, 2)
        let record = try JSONSerialization.jsonObject(with: Data(json[1].utf8)) as! [String: Any]
        XCTAssertEqual(record["writer"] as? String, "settings write")
        XCTAssertEqual(
            (record["changes"] as? [[String: Any]])?.first?["new"] as? Int, 7, "typed values, in the JSON mapping")
        XCTAssertEqual(
            h.ok("history", "com.example.app", "--since", "1h").split(separator: "\n").count,
            text.split(separator: "\n").count)
        XCTAssertEqual(h.ok("history", "com.example.app", "--since", "2999-01-01T00:00:00Z"), "")
        XCTAssertEqual(h.run(["history", "com.example.app", "--since", "yesterday"]).status, 2)
        // Private: the folder 0700, each file 0600.
        let folder = try FileManager.default.attributesOfItem(atPath: journalFolder)
        XCTAssertEqual(folder[.posixPermissions] as? Int, 0o700)
        for name in try FileManager.default.contentsOfDirectory(atPath: journalFolder) {
            let file = try FileManager.default.attributesOfItem(atPath: journalFolder + "/" + name)
            XCTAssertEqual(file[.posixPermissions] as? Int, 0o600, name)
        }
    }

    /// Foundation's UserDefaults writes without the store: its change shows as an outside
    /// one, before the store's next, and undo takes back either.
    func testAChangeOutsideTheStoreShowsWhenNextSeen() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "volume", "int", "9"]).status, 0)
        let now = h.ok("history", "com.example.app")
        XCTAssertTrue(
            now.hasSuffix(
                "outside change (not journalled: another program, or settings with the journal off)\n-/volume = 5\n+/volume = 9\n"
            ), now)
        h.ok("write", "com.example.app", "theme", "-string", "dark")
        let later = h.ok("history", "com.example.app")
        XCTAssertTrue(
            later.contains(
                "outside change (not journalled: another program, or settings with the journal off)\n-/volume = 5\n+/volume = 9\n"
            ), later)
        XCTAssertTrue(later.hasSuffix("+/theme = \"dark\"\n"), later)
        XCTAssertEqual(
            changes(h.ok("undo", "com.example.app", "--steps", "2")), "-/volume = 9\n+/volume = 5\n-/theme = \"dark\"\n"
        )
        XCTAssertEqual(h.plistlibJSON(h.path("com.example.app")), #"{"volume": 5}"#)
    }

    /// The journal's copy of the file the store last wrote is cut to size when the file
    /// shrinks, and grows with it: a leftover tail would not parse, and would hide the
    /// next outside change.
    func testAnOutsideChangeAfterTheFileShrankOrGrewIsItemised() throws {
        h.ok("write", "com.example.app", "note", "-string", String(repeating: "x", count: 5000))
        h.ok("write", "com.example.app", "note", "-string", "short")
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "volume", "int", "9"]).status, 0)
        var text = h.ok("history", "com.example.app")
        XCTAssertTrue(
            text.hasSuffix(
                "outside change (not journalled: another program, or settings with the journal off)\n+/volume = 9\n"),
            text)
        h.ok("write", "com.example.app", "note", "-string", String(repeating: "y", count: 3000))
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "volume", "int", "10"]).status, 0)
        text = h.ok("history", "com.example.app")
        XCTAssertTrue(
            text.hasSuffix(
                "outside change (not journalled: another program, or settings with the journal off)\n-/volume = 9\n+/volume = 10\n"
            ), text)
    }

    /// A write of a domain that has a file, traced: the folders it knows are there (the
    /// config folder, the journal's) are never looked at, and the journal's copy of the
    /// new file is written from the bytes in hand, header first, with one `pwritev` (not
    /// read back). The copy is the file, byte for byte, behind a header naming its inode
    /// and size, as an independent reader sees them. (The calls are the system door's own
    /// record, `CallTrace`.)
    func testAWriteCopiesTheFileInOneCallAndLooksAtNoFolder() throws {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        let (r, calls) = h.traced(["write", "com.example.app", "k", "v"])
        XCTAssertEqual(r.status, 0, r.stderr)
        func stats(of path: String) -> Int {
            calls.filter { ["stat", "lstat"].contains($0.name) && $0.path == path }.count
        }
        XCTAssertEqual(stats(of: h.config), 0, "the config folder looked at:\n\(calls)")
        XCTAssertEqual(stats(of: journalFolder), 0, "the journal's folder looked at:\n\(calls)")
        let domain = h.path("com.example.app")
        XCTAssertEqual(stats(of: domain), 2, "once to choose the lock, once under it:\n\(calls)")
        // The copy's descriptor, from its open to its close: one pwritev, of the header and
        // the whole new file at once.
        let opened = try XCTUnwrap(
            calls.firstIndex { $0.name.hasPrefix("open") && $0.path?.hasSuffix(".last") == true && $0.result >= 0 },
            "\(calls)")
        let fd = CInt(calls[opened].result)
        let closed = calls[opened...].firstIndex { $0.name == "close" && $0.fd == fd } ?? calls.endIndex
        let onCopy = calls[(opened + 1)..<closed].filter { $0.fd == fd && $0.name == "pwritev" }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: domain)[.size] as? Int)
        XCTAssertEqual(onCopy.map(\.result), [128 + size], "\(calls[opened..<closed])")
        let last = journalFolder + "/" + journals()[0].dropLast(".jsonl".count) + ".last"
        let copy = try Data(contentsOf: URL(fileURLWithPath: last))
        let file = try Data(contentsOf: URL(fileURLWithPath: domain))
        XCTAssertEqual(copy.dropFirst(128), file)
        let attributes = try FileManager.default.attributesOfItem(atPath: domain)
        let header = String(decoding: copy.prefix(128), as: UTF8.self).split(separator: " ")
        XCTAssertEqual(header.first, "settings-last")
        XCTAssertEqual(header.count, 6, "device, inode, size, modification time and the padding's newline")
        XCTAssertEqual(UInt64(header[2]), (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
        XCTAssertEqual(Int(header[3]), file.count)
    }

    /// Undo is a new change, itself undoable, key by key: a later change to another key
    /// stays, and a key changed since is left alone and said.
    func testUndoIsAPerKeyMergeAndUndoable() {
        h.ok("write", "com.example.app", "volume", "-int", "5")
        h.ok("write", "com.example.app", "volume", "-int", "7")
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/volume = 7\n+/volume = 5\n")
        XCTAssertEqual(h.ok("read", "com.example.app", "volume"), "5\n")
        // Undo walks back, redo forward (issue 49: a second undo redid the first).
        XCTAssertEqual(changes(h.ok("undo", "com.example.app")), "-/volume = 5\n", "the first write, taken back")
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "+/volume = 5\n")
        XCTAssertEqual(changes(h.ok("redo", "com.example.app")), "-/volume = 5\n+/volume = 7\n")
        XCTAssertEqual(h.run(["redo", "com.example.app"]).status, 1, "nothing left to redo")
        h.ok("write", "com.example.app", "a", "-int", "1")
        h.ok("write", "com.example.app", "b", "-int", "1")
        // An outside change to b since; undoing both a and b keeps it and says so.
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "b", "int", "2"]).status, 0)
        let r = h.run(["undo", "com.example.app", "--steps", "2"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(changes(r.stdout), "-/b = 2\n", "the outside change and the write of b before it")
        let again = h.run(["undo", "com.example.app", "--to", "1h"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: h.path("com.example.app")), "every change of the hour undone")
        XCTAssertEqual(h.run(["undo", "com.example.none"]).status, 1)
        XCTAssertEqual(h.run(["undo", "com.example.app", "--steps", "0"]).status, 2)
        XCTAssertEqual(h.run(["undo", "com.example.app", "--steps", "1", "--to", "1h"]).status, 2)
    }

    func testAKeyChangedSinceIsLeftAlone() {
        h.ok("write", "com.example.app", "a", "-int", "1")
        h.ok("write", "com.example.app", "a", "-int", "2")
        // Journalled off: the store cannot see this one until the next write.
        _ = h.run(["write", "com.example.app", "a", "-int", "3"], environment: ["SETTINGS_HISTORY_SIZE": "0"])
        let r = h.run(["undo", "com.example.app", "--steps", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(changes(r.stdout), "-/a = 3\n+/a = 2\n", "the change it had not seen is the one undone")
    }

    /// The journal never makes a write fail, survives a torn last line, and stays bounded.
    func testTheJournalIsSafeAndBounded() throws {
        // A state folder that cannot be made: the write still succeeds, silently.
        let blocker = h.config + "-blocker"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data()))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: blocker) }
        let blocked = h.run(["write", "com.example.app", "k", "-int", "1"], environment: ["XDG_STATE_HOME": blocker])
        XCTAssertEqual(blocked.status, 0)
        XCTAssertEqual(blocked.stderr, "")
        XCTAssertEqual(h.ok("read", "com.example.app", "k"), "1\n")
        // A crash mid-line: the torn record is skipped and the next one is whole.
        h.ok("write", "com.example.app", "k", "-int", "2")
        let journal = journalFolder + "/" + journals()[0]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"time":1,"writer":"torn","pid":1,"chan"#.utf8))
        try handle.close()
        h.ok("write", "com.example.app", "k", "-int", "3")
        let text = h.ok("history", "com.example.app")
        XCTAssertFalse(text.contains("torn"))
        XCTAssertTrue(text.hasSuffix("-/k = 2\n+/k = 3\n"), text)
        // Bounded: past the size, the oldest go; the newest stays.
        for i in 0..<30 {
            h.run(
                ["write", "com.example.app", "k", "-string", String(repeating: "x", count: 100) + "\(i)"],
                environment: ["SETTINGS_HISTORY_SIZE": "4000"])
        }
        let size = try FileManager.default.attributesOfItem(atPath: journal)[.size] as! Int
        XCTAssertLessThanOrEqual(size, 4000)
        XCTAssertTrue(h.ok("history", "com.example.app").hasSuffix("x29\"\n"))
        // Past its age: a trim keeps only what is younger (a day's millionth, here).
        h.ok("write", "com.example.aged", "k", "-int", "1")
        h.ok("write", "com.example.aged", "k", "-int", "2")
        Thread.sleep(forTimeInterval: 0.2)
        h.run(
            ["write", "com.example.aged", "k", "-int", "3"],
            environment: ["SETTINGS_HISTORY_SIZE": "200", "SETTINGS_HISTORY_DAYS": "0.000001"])
        XCTAssertEqual(h.ok("history", "com.example.aged").split(separator: "\n").count, 3, "one change left")
        // Off: nothing is journalled.
        h.run(["write", "com.example.off", "k", "-int", "1"], environment: ["SETTINGS_HISTORY_SIZE": "0"])
        XCTAssertEqual(h.ok("history", "com.example.off"), "")
    }

    /// Writers at once: every change is one whole entry, none lost, none torn.
    func testConcurrentWritersEachGetOneWholeEntry() throws {
        let script =
            "for i in $(seq 1 10); do \(Harness.settings) write com.example.busy \"$1-$i\" -int $i || exit 1; done"
        let processes = try (1...4).map { n -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, "sh", "w\(n)"]
            process.environment = h.environment([:])
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
        }
        let json = h.ok("history", "com.example.busy", "--json").split(separator: "\n")
        XCTAssertEqual(json.count, 40)
        let keys = try Set(
            json.map { line -> String in
                let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                XCTAssertNotEqual(record["writer"] as? String, "outside", "no change is taken for an outside one")
                return ((record["changes"] as! [[String: Any]])[0]["key"] as! String)
            })
        XCTAssertEqual(keys.count, 40)
    }

    /// A change too large to keep (a 20,000-key import) is one short line with its count,
    /// and cannot be undone; an outside change to a file over 1 MiB is said, not parsed.
    func testBigChangesAreCountedNotKept() throws {
        var json = "{"
        for i in 0..<20_000 { json += "\"key\(i)\": \"a value long enough to count \(i)\"," }
        json += "\"last\": 1}"
        let r = h.run(["import", "com.example.big", "-", "--json"], stdin: Data(json.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let journal = try FileManager.default.contentsOfDirectory(atPath: journalFolder).first {
            $0.hasSuffix(".jsonl")
        }!
        let size = try FileManager.default.attributesOfItem(atPath: journalFolder + "/" + journal)[.size] as! Int
        XCTAssertLessThan(size, 300, "one short line")
        XCTAssertTrue(h.ok("history", "com.example.big").hasSuffix("  (20001 keys; too large to keep their values)\n"))
        let undo = h.run(["undo", "com.example.big"])
        XCTAssertEqual(undo.status, 2)
        XCTAssertTrue(undo.stderr.contains("too large for the journal to keep its values"), undo.stderr)
        // Changed outside (a copy of the same file put back): said, not parsed twice.
        let path = h.path("com.example.big")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertGreaterThan(bytes.count, 1 << 20)
        try FileManager.default.removeItem(atPath: path)
        try bytes.write(to: URL(fileURLWithPath: path))
        h.ok("write", "com.example.big", "last", "-int", "2")
        let text = h.ok("history", "com.example.big")
        XCTAssertTrue(
            text.contains(
                "outside change (not journalled: another program, or settings with the journal off)\n  (not compared: the file is over 1 MiB)\n"
            ), text)
        XCTAssertTrue(text.hasSuffix("-/last = 1\n+/last = 2\n"), text)
    }
}
