import Foundation
import XCTest

/// Issue 23 §3: `settings sync` with real git on this machine: a bare repository on disk
/// and two "machines", each its own config, data and home folders.
final class SyncTests: SyncTestCase {
    var work: String { world.work }
    var remote: String { world.remote }

    private func machine(_ name: String) -> [String: String] { world.machine(name) }

    /// The domain on a machine, as plistlib reads its live file.
    private func live(_ name: String, _ domain: String = "com.app") -> String { world.live(name, domain) ?? "(none)" }

    func testTwoMachinesChangingDifferentKeysBothEndWithBoth() {
        on("a", "sync", "init", remote)
        on("b", "sync", "init", remote)
        on("a", "write", "com.app", "x", "-int", "1")
        on("b", "write", "com.app", "y", "-bool", "true")
        on("b", "write", "com.app", "when", "-date", "2024-11-22T10:00:00Z")
        on("a", "sync")
        on("b", "sync")
        on("a", "sync")
        let both = #"{"when": "2024-11-22 10:00:00", "x": 1, "y": true}"#
        XCTAssertEqual(live("a"), both)
        XCTAssertEqual(live("b"), both)
        XCTAssertEqual(on("a", "read-type", "com.app", "when").stdout, "Type is date\n")
        // Nothing changed: a round exports and imports nothing.
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        let status = on("b", "sync", "status").stdout
        XCTAssertTrue(status.contains("remote: \(remote)") && status.contains("carried: com.app"), status)
    }

    /// Two domains whose names differ only in normalization ("é" as U+00E9 and as "e" +
    /// U+0301) are two files in the store, and two domains on every machine (issue 47: the
    /// round paired them by `String` as one, and the machines never agreed).
    func testDomainsWhoseNamesDifferOnlyInNormalizationSyncAsTwo() {
        let composed = "com.s.\u{E9}", decomposed = "com.s.e\u{301}"
        on("a", "write", composed, "k", "from-a")
        on("b", "write", decomposed, "k", "from-b")
        on("a", "sync", "init", remote, "com.s.*")
        on("a", "sync")
        on("b", "sync", "init", remote, "com.s.*")
        let joined = on("b", "sync")
        XCTAssertFalse(joined.stderr.contains("conflict"), joined.stderr)
        on("a", "sync")
        for machine in ["a", "b"] {
            XCTAssertEqual(live(machine, composed), #"{"k": "from-a"}"#, machine)
            XCTAssertEqual(live(machine, decomposed), #"{"k": "from-b"}"#, machine)
        }
        // One machine holding both carries both; nothing is left out.
        on("a", "write", decomposed, "k", "changed-on-a")
        let round = on("a", "sync")
        XCTAssertFalse(round.stderr.contains("another spelling"), round.stderr)
        on("b", "sync")
        XCTAssertEqual(live("b", decomposed), #"{"k": "changed-on-a"}"#)
        XCTAssertEqual(live("b", composed), #"{"k": "from-a"}"#)
    }

    func testTheValueAlreadyPushedWinsAndTheOtherIsKeptInTheLog() {
        on("a", "sync", "init", remote)
        on("b", "sync", "init", remote)
        on("a", "write", "com.app", "z", "from a")
        on("b", "write", "com.app", "z", "from b")
        on("b", "write", "com.app", "only_b", "-int", "2")
        on("a", "sync")
        let round = on("b", "sync")
        XCTAssertTrue(
            round.stderr.contains(#"conflict at /z in com.app.plist: ours "from b", theirs "from a""#), round.stderr)
        XCTAssertEqual(live("b"), #"{"only_b": 2, "z": "from a"}"#)
        XCTAssertTrue(on("b", "sync", "log").stdout.contains(#"ours "from b""#))
        on("a", "sync")
        XCTAssertEqual(live("a"), #"{"only_b": 2, "z": "from a"}"#)
    }

    func testInitOfARemoteThatCannotBeReachedIsOneLineAndLeavesNothing() {
        let r = on("a", "sync", "init", work + "/nowhere.git", status: 4)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(work)/a/data/settings/sync"))
        XCTAssertEqual(on("a", "sync", status: 1).stderr.split(separator: "\n").count, 1)
    }

    func testAnUnreachableRemoteChangesNothingAndTheNextRoundCarriesIt() throws {
        on("a", "sync", "init", remote)
        on("a", "write", "com.app", "x", "-int", "1")
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(work)/a/config/com.app.plist"))
        try FileManager.default.moveItem(atPath: remote, toPath: remote + ".away")
        let failed = on("a", "sync", status: 4)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("cannot reach"), failed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(work)/a/config/com.app.plist")), before)
        XCTAssertTrue(on("a", "sync", "status").stdout.contains("failed: cannot reach"))
        try FileManager.default.moveItem(atPath: remote + ".away", toPath: remote)
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 1, imported 0\n", "the waiting change is carried")
        on("b", "sync", "init", remote)
        on("b", "sync")
        XCTAssertEqual(live("b"), #"{"x": 1}"#)
    }

    /// An idle round skips a domain whose bytes and rules are as at its last round; a
    /// changed rule, with the file unchanged, still makes it look again, and a same-size
    /// change of a value is a changed byte.
    func testAChangedRuleReExportsAnUnchangedDomain() throws {
        try world.ignore("a", "com.app:token\ncom.app:note\n")
        on("a", "sync", "init", remote)
        on("b", "sync", "init", remote)
        on("a", "write", "com.app", "shared", "yes")
        on("a", "write", "com.app", "token", "mine")
        on("a", "write", "com.app", "note", "only here")
        on("a", "sync")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        XCTAssertFalse(world.remoteFile("com.app.plist").contains("mine"))
        on("b", "sync")
        on("b", "write", "com.app", "token", "theirs")
        on("b", "sync")
        on("a", "sync")
        XCTAssertEqual(
            live("a"), #"{"note": "only here", "shared": "yes", "token": "mine"}"#, "a local key is not imported")
        // The rules go; the file is unchanged: the keys travel from now on, as a joining
        // machine's do (issue 48). The repository has no note: this one is exported. It has
        // another machine's token: that one stays, and this machine's is logged.
        try world.ignore("a", "")
        let round = on("a", "sync")
        XCTAssertEqual(round.stdout, "sync: exported 1, imported 1 (com.app)\n")
        XCTAssertTrue(round.stderr.contains(#"ours "mine", theirs "theirs""#), round.stderr)
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("only here"))
        XCTAssertFalse(world.remoteFile("com.app.plist").contains("mine"))
        // A changed value in an unchanged-size file is a changed byte: exported.
        on("a", "write", "com.app", "shared", "yep")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 1, imported 0\n")
        XCTAssertEqual(live("a"), #"{"note": "only here", "shared": "yep", "token": "theirs"}"#)
    }

    func testKeysAndDomainsThatStayLocal() throws {
        // A schema's "sync": false keeps a key on each machine too.
        for name in ["a", "b"] {
            let folder = "\(work)/\(name)/config/settings/schemas"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try #"{"keys": {"window": {"type": "string", "sync": false}}}"#.write(
                toFile: folder + "/com.app.json", atomically: true, encoding: .utf8)
        }
        on("a", "write", "com.app", "window", "a-pos")
        on("a", "sync", "init", remote, "com.*")
        on("a", "write", "com.app", "shared", "yes")
        on("a", "write", "com.app", "token", "secret")
        on("a", "write", "com.local", "k", "v")
        on("a", "-currentHost", "write", "com.app", "display", "this machine's")
        on("a", "write", "org.other", "k", "v")
        // Each machine's own rules (the same on both here).
        for name in ["a", "b"] { try world.ignore(name, "# what stays on each machine\ncom.app:token\ncom.local\n") }
        on("a", "sync")
        on("b", "sync", "init", remote)
        on("b", "write", "com.app", "token", "b's own")
        on("b", "write", "com.app", "window", "b-pos")
        on("b", "sync")
        XCTAssertEqual(live("b"), #"{"shared": "yes", "token": "b's own", "window": "b-pos"}"#)
        on("a", "sync")
        XCTAssertEqual(live("a"), #"{"shared": "yes", "token": "secret", "window": "a-pos"}"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(work)/b/config/com.local.plist"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(work)/b/config/ByHost"), "-currentHost stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(work)/b/config/org.other.plist"))
        // The repository holds what travels, never the secret.
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist"])
        let shared = world.remoteFile("com.app.plist")
        XCTAssertFalse(shared.contains("secret") || shared.contains("pos"), shared)
    }

    func testWatchRunsARoundAfterAChangeAndEndsCleanlyOnSIGTERM() throws {
        on("a", "sync", "init", remote)
        on("b", "sync", "init", remote)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["sync", "--watch", "--interval", "1"]
        process.environment = h.environment(machine("a"))
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        on("a", "write", "com.app", "x", "-int", "5")
        // The change settles (a second), a round pushes it; B's round brings it.
        var arrived = false
        let deadline = Date().addingTimeInterval(15)
        while !arrived, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            on("b", "sync")
            arrived = FileManager.default.fileExists(atPath: "\(work)/b/config/com.app.plist")
        }
        XCTAssertTrue(arrived)
        XCTAssertEqual(live("b"), #"{"x": 5}"#)
        process.terminate()  // SIGTERM
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        let log = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("sync: exported 1"), log)
        // Nothing half done: no lock left in the repository.
        let refs = FileManager.default.enumerator(atPath: world.syncFolder("a") + "/repo.git/refs")
        XCTAssertFalse((refs?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".lock") })
    }

    /// ATTACKS.md's races: two rounds at once take turns; a git killed mid-way leaves its
    /// lock files, which the next round clears.
    func testConcurrentRoundsTakeTurnsAndAKilledRoundIsCleanedUp() throws {
        on("a", "sync", "init", remote)
        on("a", "write", "com.app", "x", "-int", "1")
        let rounds = (0..<3).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Harness.settings)
            process.arguments = ["sync"]
            process.environment = h.environment(machine("a"))
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in rounds { try process.run() }
        for process in rounds { process.waitUntilExit() }
        XCTAssertEqual(rounds.map(\.terminationStatus), [0, 0, 0])
        let repository = world.syncFolder("a") + "/repo.git"
        for lock in ["/packed-refs.lock", "/refs/remotes/origin/main.lock", "/refs/settings/base.lock"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: repository + lock, contents: Data()), lock)
        }
        on("a", "write", "com.app", "x", "-int", "2")
        on("a", "sync")
        on("b", "sync", "init", remote)
        on("b", "sync")
        XCTAssertEqual(live("b"), #"{"x": 2}"#)
    }
}
