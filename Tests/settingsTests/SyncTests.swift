import Foundation
import XCTest

/// Issue 23 §3: `settings sync` with real git on this machine: a bare repository on disk
/// and two "machines", each its own config, data and home folders.
final class SyncTests: XCTestCase {
    var h: Harness!
    var work = ""
    var remote: String { work + "/remote.git" }

    override func setUpWithError() throws {
        try Harness.require("git", package: "git")
        h = Harness()
        work = h.config + "-sync"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let r = h.exec("/usr/bin/env", ["git", "init", "-q", "--bare", remote])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: work)
        h.cleanUp()
    }

    /// One machine's folders and identity.
    private func machine(_ name: String) -> [String: String] {
        [
            "XDG_CONFIG_HOME": "\(work)/\(name)/config", "XDG_DATA_HOME": "\(work)/\(name)/data",
            "HOME": "\(work)/\(name)/home", "GIT_CONFIG_GLOBAL": "\(work)/\(name)/gitconfig",
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": "\(name)@example.com",
            "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": "\(name)@example.com",
        ]
    }

    @discardableResult
    private func on(_ name: String, _ arguments: String..., status: Int32? = 0, line: UInt = #line) -> Harness.Result {
        let r = h.exec(Harness.settings, arguments, environment: machine(name))
        if let status { XCTAssertEqual(r.status, status, "\(name): settings \(arguments): \(r.stderr)", line: line) }
        return r
    }

    /// The domain on a machine, as plistlib reads its live file.
    private func live(_ name: String, _ domain: String = "com.app") -> String {
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import json, plistlib, sys; "
                    + "print(json.dumps(plistlib.load(open(sys.argv[1], 'rb')), sort_keys=True, default=str))",
                "\(work)/\(name)/config/\(domain).plist",
            ])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.trimmingCharacters(in: .newlines)
    }

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
        XCTAssertTrue(on("a", "sync", "status").stdout.contains("unreachable"))
        try FileManager.default.moveItem(atPath: remote + ".away", toPath: remote)
        on("a", "sync")
        on("b", "sync", "init", remote)
        on("b", "sync")
        XCTAssertEqual(live("b"), #"{"x": 1}"#)
    }

    /// An idle round skips a domain whose bytes and rules are as at its last export; a
    /// new rule, with the file unchanged, still makes it export again.
    func testAChangedRuleReExportsAnUnchangedDomain() throws {
        on("a", "sync", "init", remote)
        on("a", "write", "com.app", "shared", "yes")
        on("a", "write", "com.app", "token", "secret")
        on("a", "sync")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        let repository = "\(work)/a/data/settings/sync"
        XCTAssertTrue(try String(contentsOfFile: repository + "/com.app.plist", encoding: .utf8).contains("secret"))
        try "com.app:token\n".write(toFile: repository + "/.settingsignore", atomically: true, encoding: .utf8)
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 1, imported 0\n")
        XCTAssertFalse(try String(contentsOfFile: repository + "/com.app.plist", encoding: .utf8).contains("secret"))
        // A changed value in an unchanged-size file is a changed byte: exported.
        on("a", "write", "com.app", "shared", "yep")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 1, imported 0\n")
        XCTAssertEqual(live("a"), #"{"shared": "yep", "token": "secret"}"#)
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
        try "# what stays on each machine\ncom.app:token\ncom.local\n".write(
            toFile: "\(work)/a/data/settings/sync/.settingsignore", atomically: true, encoding: .utf8)
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
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(work)/b/data/settings/sync")
        XCTAssertEqual(files.filter { $0.hasSuffix(".plist") }, ["com.app.plist"])
        let shared = try String(contentsOfFile: "\(work)/b/data/settings/sync/com.app.plist", encoding: .utf8)
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
        // Nothing half done: no lock left in the clone.
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(work)/a/data/settings/sync/.git/index.lock"))
    }

    /// ATTACKS.md's races: two rounds at once take turns; a round killed mid-way leaves
    /// git's lock and a merge under way, which the next round clears.
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
        let clone = "\(work)/a/data/settings/sync/.git"
        FileManager.default.createFile(atPath: clone + "/index.lock", contents: Data())
        on("a", "write", "com.app", "x", "-int", "2")
        on("a", "sync")
        on("b", "sync", "init", remote)
        on("b", "sync")
        XCTAssertEqual(live("b"), #"{"x": 2}"#)
    }
}
