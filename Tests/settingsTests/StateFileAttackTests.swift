import Foundation
import XCTest
import TestSupport
@testable import SettingsStore

/// The files the tool keeps beside the domains (the journal's `.jsonl` and `.last`, apply's
/// records, the key index, `edit`'s copies, `snapshot -o`, published schemas) go through
/// one door (`StateFile`): no link followed, no FIFO waited on, nothing given to a user it
/// did not make. Each row runs as root on a user's folders where that user planted a
/// link, a FIFO or a folder link, always pointing at decoys this test made; the decoys
/// must come out as they went in, owner and bytes, and the write itself must succeed
/// (the journal never fails a write) with one warning, or be refused in one line.
final class StateFileAttackTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// A user's home below the scratch folder, owned by the second user, with its config
    /// and state folders, and a folder of root-owned decoys beside it.
    struct Victim {
        let home: String, config: String, state: String, cache: String, decoys: String
        let user: (uid: UInt32, gid: UInt32)
        var environment: [String: String] {
            ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state, "XDG_CACHE_HOME": cache, "HOME": home]
        }
        var history: String { state + "/settings/history" }
        /// The journal's file for a domain of this config folder.
        func journal(_ domain: String, _ suffix: String) -> String {
            history + "/" + Path.flatName(of: config + "/" + domain + ".plist") + suffix
        }
    }

    func victim() throws -> Victim {
        guard let user = AttackTests.otherUser else { throw skip("needs root (CI runs as root)") }
        let fm = FileManager.default
        XCTAssertEqual(chmod(h.config, 0o755), 0)
        let home = h.config + "/victim"
        let v = Victim(
            home: home, config: home + "/.config", state: home + "/.local/state", cache: home + "/.cache",
            decoys: h.config + "/decoys", user: user)
        for folder in [home, v.config, home + "/.local", v.state, v.state + "/settings", v.history, v.cache] {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            XCTAssertEqual(chown(folder, user.uid, user.gid), 0)
        }
        try fm.createDirectory(atPath: v.decoys, withIntermediateDirectories: true)
        for (name, text) in [("secret", "root's own file\n"), ("record.json", "{\"domains\":{}}\n"), ("empty", "")] {
            XCTAssertTrue(fm.createFile(atPath: v.decoys + "/" + name, contents: Data(text.utf8)))
            XCTAssertEqual(chmod(v.decoys + "/" + name, 0o644), 0)
        }
        try fm.createDirectory(atPath: v.decoys + "/folder", withIntermediateDirectories: true)
        return v
    }

    /// A link at `path` to `target`, owned by the user, as the user would plant it.
    func plant(_ path: String, to target: String, _ v: Victim) {
        XCTAssertEqual(symlink(target, path), 0, path)
        XCTAssertEqual(lchown(path, v.user.uid, v.user.gid), 0, path)
    }

    /// The decoys, every file's bytes and owner: what must not change.
    func decoys(_ v: Victim) -> [String: String] {
        var out: [String: String] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: v.decoys)) ?? [] {
            let path = v.decoys + "/" + name
            let (uid, gid) = AttackTests.owner(path)
            out[name] = "\(uid):\(gid) " + (FileManager.default.contents(atPath: path)?.base64EncodedString() ?? "dir")
        }
        return out
    }

    /// `settings ARGS…` as root in the victim's folders, under `timeout` (a FIFO must not hang it).
    func run(_ arguments: [String], _ v: Victim, seconds: Int = 20) -> Harness.Result {
        h.exec("/usr/bin/timeout", ["\(seconds)", Harness.settings] + arguments, environment: v.environment)
    }

    /// Root writes with the journal's files linked to root's: nothing is written through
    /// the links, nothing is given away, the write succeeds, and one warning says why.
    func testTheJournalIsNeverWrittenThroughALink() throws {
        for suffix in [".last", ".jsonl"] {
            for decoy in ["secret", "empty"] {
                let v = try victim()
                let before = decoys(v)
                XCTAssertEqual(run(["write", "com.t", "k", "1"], v).status, 0)
                try? FileManager.default.removeItem(atPath: v.journal("com.t", suffix))
                plant(v.journal("com.t", suffix), to: v.decoys + "/" + decoy, v)
                let r = run(["write", "com.t", "k", "secret-value"], v)
                XCTAssertEqual(r.status, 0, "\(suffix) → \(decoy): \(r.stderr)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                XCTAssertTrue(r.stderr.contains("warning: the change is in place, but not in its history"), r.stderr)
                XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
                XCTAssertEqual(decoys(v), before, "\(suffix) → \(decoy)")
                XCTAssertEqual(run(["read", "com.t", "k"], v).stdout, "secret-value\n")
                h.cleanUp()
                h = Harness()
            }
        }
    }

    /// `history/` itself a link to root's folder: root makes nothing there.
    func testTheHistoryFolderIsNeverALink() throws {
        let v = try victim()
        try assertFolderLinkRefused(v.history, v, saying: "symbolic link")
    }

    /// The state folder's own parent a link the user owns: root does not follow it.
    func testRootFollowsNoUsersLinkAboveTheStateFolder() throws {
        let v = try victim()
        try assertFolderLinkRefused(v.state, v, saying: "which root does not follow")
    }

    /// `folder` replaced by the user's link to root's empty folder: a write still
    /// succeeds, says `message`, and makes nothing in root's folder.
    func assertFolderLinkRefused(_ folder: String, _ v: Victim, saying message: String, line: UInt = #line) throws {
        try FileManager.default.removeItem(atPath: folder)
        plant(folder, to: v.decoys + "/folder", v)
        let before = decoys(v)
        let r = run(["write", "com.t", "k", "1"], v)
        XCTAssertEqual(r.status, 0, r.stderr, line: line)
        XCTAssertTrue(r.stderr.contains(message), r.stderr, line: line)
        XCTAssertEqual(decoys(v), before, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: v.decoys + "/folder"), [], line: line)
    }

    /// A FIFO at either journal file: the write ends, its lock is let go (the next write
    /// ends too), and `history` does not wait either.
    func testAFIFOInTheJournalHangsNothing() throws {
        for suffix in [".jsonl", ".last"] {
            let v = try victim()
            XCTAssertEqual(run(["write", "com.t", "k", "1"], v).status, 0)
            try FileManager.default.removeItem(atPath: v.journal("com.t", suffix))
            XCTAssertEqual(mkfifo(v.journal("com.t", suffix), 0o644), 0)
            for value in ["2", "3"] {
                let r = run(["write", "com.t", "k", value], v, seconds: 10)
                XCTAssertEqual(r.status, 0, "\(suffix): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("a FIFO"), r.stderr)
            }
            XCTAssertNotEqual(run(["history", "com.t"], v, seconds: 10).status, 124, suffix)
            XCTAssertEqual(run(["read", "com.t", "k"], v).stdout, "3\n")
            h.cleanUp()
            h = Harness()
        }
    }

    /// `apply`'s record linked to a file that parses as one: it is neither read nor
    /// replaced, and apply says so in one line and writes nothing.
    func testTheApplyRecordIsNeverWrittenThroughALink() throws {
        let v = try victim()
        let folder = v.state + "/settings/apply"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chown(folder, v.user.uid, v.user.gid), 0)
        // The record of desired.json, applied with no --as, is apply/desired.json.
        plant(folder + "/desired.json", to: v.decoys + "/record.json", v)
        let desired = v.home + "/desired.json"
        try Data(#"{"com.t":{"k":1}}"#.utf8).write(to: URL(fileURLWithPath: desired))
        let before = decoys(v)
        let r = run(["apply", desired], v)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(decoys(v), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: v.config + "/com.t.plist"))
    }

    /// `snapshot -o` at a link, and `edit`'s folder a link: refused, decoys untouched.
    func testSnapshotAndEditFollowNoLink() throws {
        let v = try victim()
        XCTAssertEqual(run(["write", "com.t", "k", "1"], v).status, 0)
        let before = decoys(v)
        plant(v.home + "/snap.json", to: v.decoys + "/secret", v)
        let snap = run(["snapshot", "com.t", "-o", v.home + "/snap.json"], v)
        XCTAssertNotEqual(snap.status, 0)
        XCTAssertTrue(snap.stderr.contains("symbolic link"), snap.stderr)
        // A FIFO the user made there: refused at once, not waited on.
        try FileManager.default.removeItem(atPath: v.home + "/snap.json")
        XCTAssertEqual(mkfifo(v.home + "/snap.json", 0o644), 0)
        let fifo = run(["snapshot", "com.t", "-o", v.home + "/snap.json"], v, seconds: 10)
        XCTAssertEqual(fifo.status, 3, fifo.stderr)
        XCTAssertTrue(fifo.stderr.contains("a FIFO"), fifo.stderr)
        plant(v.state + "/settings/edit", to: v.decoys + "/folder", v)
        let edit = h.exec(
            "/usr/bin/timeout", ["20", Harness.settings, "edit", "com.t"],
            environment: v.environment.merging(["EDITOR": "true"]) { $1 })
        XCTAssertNotEqual(edit.status, 0)
        XCTAssertTrue(edit.stderr.contains("symbolic link"), edit.stderr)
        XCTAssertEqual(decoys(v), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: v.decoys + "/folder"), [])
    }

    /// A file where the tool's folder belongs is named as what it is, not a folder.
    func testAFileWhereAFolderBelongsIsSaidSo() throws {
        let v = try victim()
        XCTAssertEqual(run(["write", "com.t", "k", "1"], v).status, 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: v.state + "/settings/edit", contents: Data("x".utf8)))
        let edit = h.exec(
            "/usr/bin/timeout", ["20", Harness.settings, "edit", "com.t"],
            environment: v.environment.merging(["EDITOR": "true"]) { $1 })
        XCTAssertEqual(edit.status, 3, edit.stderr)
        XCTAssertTrue(edit.stderr.contains("it is a regular file, not a folder"), edit.stderr)
    }

    /// The key index of a big domain linked to root's file: a read neither reads through
    /// it nor replaces what it names.
    func testTheKeyIndexIsNeverALink() throws {
        let v = try victim()
        var big = "<plist version=\"1.0\"><dict>"
        for i in 0..<12_000 { big += "<key>key\(i)</key><string>value number \(i)</string>" }
        big += "</dict></plist>\n"
        try Data(big.utf8).write(to: URL(fileURLWithPath: v.config + "/com.big.plist"))
        let index = v.cache + "/settings/index"
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: true)
        let name = Path.flatName(of: v.config + "/com.big.plist")
        plant(index + "/" + name, to: v.decoys + "/secret", v)
        let before = decoys(v)
        for _ in 0..<2 { XCTAssertEqual(run(["read", "com.big", "key7"], v).stdout, "value number 7\n") }
        XCTAssertEqual(decoys(v), before)
    }
}
