import Foundation
import XCTest
import TestSupport

/// Issue 30: `settings sync` tried as an attacker and as a careful user would, with real
/// git, a bare repository on disk and machines of their own folders. Each test names the
/// promise it holds: the repository's files are data, a fault loses nothing, local rules
/// stay local, deletions and names travel, a stalled remote ends.
final class SyncAttackTests: SyncTestCase {
    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    private func plist(_ dictionary: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    // MARK: §1 The repository's files are data, never paths

    func testALinkInTheRepositoryIsNeverFollowed() throws {
        let victim = world.work + "/victim"
        try write("precious\n", to: victim)
        let outside = world.work + "/outside.plist"
        try plist(["stolen": "outside's"]).write(to: URL(fileURLWithPath: outside))
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "k", "1")
        on("a", "sync")
        try world.push { clone in
            try FileManager.default.removeItem(atPath: clone + "/com.app.plist")
            try FileManager.default.createSymbolicLink(atPath: clone + "/com.app.plist", withDestinationPath: victim)
            try FileManager.default.createSymbolicLink(atPath: clone + "/com.other.plist", withDestinationPath: outside)
        }
        on("a", "write", "com.app", "k", "2")
        let round = on("a", "sync")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
        XCTAssertNil(world.live("a", "com.other"), "a link is never a domain")
        XCTAssertTrue(round.stderr.contains("com.other.plist in the repository is not a regular file"), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": "2"}"#)
        // The domain is a file in the repository again; the other link is left as it was.
        let tree = world.git(["--git-dir=" + world.remote, "ls-tree", "main"]).stdout
        XCTAssertTrue(tree.contains("100644 blob") && tree.contains("\tcom.app.plist"), tree)
        XCTAssertTrue(tree.contains("120000 blob") && tree.contains("\tcom.other.plist"), tree)
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("<string>2</string>"))
        // A second machine gets the domain, never the link's target.
        on("b", "sync", "init", world.remote)
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"k": "2"}"#)
        XCTAssertNil(world.live("b", "com.other"))
    }

    func testConflictsResolveNeverFollowsALink() throws {
        let outside = world.work + "/someone-else.plist"
        try plist(["password": "hunter2"]).write(to: URL(fileURLWithPath: outside))
        on("a", "write", "com.app", "k", "1")
        let copy = world.config("a") + "/com.app.sync-conflict-20241122-101500-ABCDEF7.plist"
        try FileManager.default.createSymbolicLink(atPath: copy, withDestinationPath: outside)
        let r = on("a", "conflicts", "--resolve", status: nil)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("com.app.sync-conflict-20241122-101500-ABCDEF7.plist"), r.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": "1"}"#)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside))
    }

    func testAPasswordInTheRemoteURLIsNeverShownNorStoredOutsideGitsConfig() throws {
        let url = "http://user:s3cretpw@127.0.0.1:9/settings.git"
        let failed = on("a", "sync", "init", url, status: 4)
        XCTAssertFalse((failed.stdout + failed.stderr).contains("s3cretpw"), failed.stderr)
        // The whole user part is hidden: a token may be the user as well as the password.
        XCTAssertTrue(failed.stderr.contains("http://***@127.0.0.1:9/settings.git"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("user:"), failed.stderr)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        on("a", "sync", "init", world.remote)
        let set = on("a", "sync", "remote", url)
        XCTAssertFalse(set.stdout.contains("s3cretpw"), set.stdout)
        let round = on("a", "sync", status: 4)
        XCTAssertFalse(round.stderr.contains("s3cretpw"), round.stderr)
        let status = on("a", "sync", "status").stdout
        XCTAssertFalse(status.contains("s3cretpw"), status)
        XCTAssertTrue(status.contains("failed: cannot reach http://***@127.0.0.1:9"), status)
        // Only git's own config (in the private folder) holds it.
        let folder = world.syncFolder("a")
        for case let file as String in FileManager.default.enumerator(atPath: folder)! {
            let path = folder + "/" + file
            guard file != "repo.git/config", let data = FileManager.default.contents(atPath: path) else { continue }
            XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("s3cretpw"), file)
        }
    }

    func testTheSyncFolderIsPrivateWhateverTheFolderAbove() throws {
        let data = world.work + "/a/data/settings"
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        on("a", "write", "com.app", "k", "1")
        on("a", "sync", "init", world.remote)
        on("a", "sync")
        XCTAssertEqual(try mode(world.syncFolder("a")), 0o700)
        XCTAssertEqual(try mode(world.syncFolder("a") + "/state"), 0o600)
        XCTAssertEqual(try mode(world.syncFolder("a") + "/last"), 0o600)
        // Made private again if someone opened it up.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: world.syncFolder("a"))
        on("a", "sync")
        XCTAssertEqual(try mode(world.syncFolder("a")), 0o700)
    }

    /// The sync's own files (`state`, `last`) go through the door for the tool's files: a
    /// link planted at one is refused in one line, never written through, and a FIFO is
    /// not waited on.
    func testTheSyncsOwnFilesAreNeverWrittenThroughALink() throws {
        on("a", "write", "com.app", "k", "1")
        on("a", "sync", "init", world.remote)
        on("a", "sync")
        let decoy = world.work + "/decoy"
        XCTAssertTrue(FileManager.default.createFile(atPath: decoy, contents: Data("keep\n".utf8)))
        let state = world.syncFolder("a") + "/state"
        try FileManager.default.removeItem(atPath: state)
        try FileManager.default.createSymbolicLink(atPath: state, withDestinationPath: decoy)
        on("a", "write", "com.app", "k", "2")
        let r = on("a", "sync", status: nil)
        XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: decoy, encoding: .utf8), "keep\n")
        try FileManager.default.removeItem(atPath: state)
        XCTAssertEqual(mkfifo(state, 0o600), 0)
        let fifo = on("a", "sync", status: nil)
        XCTAssertTrue(fifo.stderr.contains("FIFO"), fifo.stderr)
    }

    /// Every sync verb that runs git refuses, as root, a sync folder another user owns:
    /// git would run that user's hooks as root. `sync remote` did not (a hook ran as uid 0).
    func testRootRunsNoOtherUsersGitHooks() throws {
        guard let user = AttackTests.otherUser else { throw skip("needs root (CI runs as root)") }
        on("a", "write", "com.app", "k", "1")
        on("a", "sync", "init", world.remote)
        on("a", "sync")
        let data = world.work + "/a/data"
        let proof = world.work + "/hook-ran"
        let hook = world.syncFolder("a") + "/repo.git/hooks/reference-transaction"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: hook, contents: Data("#!/bin/sh\nid -u >> \(proof)\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        XCTAssertEqual(h.exec("/bin/chown", ["-R", "\(user.uid):\(user.gid)", data]).status, 0)
        for arguments in [
            ["sync", "remote", world.work + "/other.git"], ["sync", "carry", "com.*"], ["sync", "status"], ["sync"],
        ] {
            let r = world.run("a", arguments, status: nil)
            XCTAssertEqual(r.status, 4, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("belongs to user \(user.uid)"), "\(arguments): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: proof), "a hook ran as root")
    }

    /// The repository itself a link (to a copy elsewhere): refused by every verb, never
    /// written through.
    func testALinkedRepositoryIsNeverWrittenThrough() throws {
        on("a", "write", "com.app", "k", "1")
        on("a", "sync", "init", world.remote)
        on("a", "sync")
        let repository = world.syncFolder("a") + "/repo.git"
        let elsewhere = world.work + "/elsewhere.git"
        try FileManager.default.moveItem(atPath: repository, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: repository, withDestinationPath: elsewhere)
        let before = try FileManager.default.contentsOfDirectory(atPath: elsewhere + "/refs").sorted()
        let config = try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/config"))
        on("a", "write", "com.app", "k", "2")
        for arguments in [["sync"], ["sync", "remote", world.work + "/other.git"], ["sync", "carry", "com.*"]] {
            let r = world.run("a", arguments, status: nil)
            XCTAssertNotEqual(r.status, 0, "\(arguments)")
            XCTAssertTrue(r.stderr.contains("symbolic link"), "\(arguments): \(r.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/config")), config)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere + "/refs").sorted(), before)
    }

    func testHostileFilesOfTheRepositoryAreNeverImported() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "-g", "AppleLocale", "en_GB")
        let global = world.config("a") + "/.GlobalPreferences.plist"
        let before = try Data(contentsOf: URL(fileURLWithPath: global))
        try world.push { clone in
            try self.plist(["AppleLocale": "evil"]).write(to: URL(fileURLWithPath: clone + "/.GlobalPreferences.plist"))
            try self.plist(["x": 1]).write(to: URL(fileURLWithPath: clone + "/..plist"))
            try self.plist(["x": 1]).write(to: URL(fileURLWithPath: clone + "/NSGlobalDomain.plist"))
            try self.plist(["x": 1]).write(to: URL(fileURLWithPath: clone + "/-g.plist"))
            try self.write("*.plist merge=union\n", to: clone + "/.gitattributes")
            try FileManager.default.createDirectory(atPath: clone + "/ByHost", withIntermediateDirectories: true)
            try self.plist(["x": 1]).write(to: URL(fileURLWithPath: clone + "/ByHost/com.app..plist"))
        }
        on("a", "sync")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: global)), before)
        let files = try FileManager.default.contentsOfDirectory(atPath: world.config("a")).sorted()
        XCTAssertEqual(files, [".GlobalPreferences.plist"])
        // A remote merge=union changes nothing: two machines change one file, both end valid.
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.app", "a", "1")
        on("b", "write", "com.app", "b", "2")
        on("a", "sync")
        on("b", "sync")
        on("a", "sync")
        XCTAssertEqual(world.live("a"), #"{"a": "1", "b": "2"}"#)
        XCTAssertEqual(world.live("b"), #"{"a": "1", "b": "2"}"#)
    }

    /// `sudo settings sync` with a user's folders: git would leave root's files in the
    /// user's repository. Refused, one line, nothing changed.
    func testRootRefusesAFolderAnotherUserOwns() throws {
        guard geteuid() == 0 else { throw skip("needs root, as CI runs") }
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "k", "1")
        on("a", "sync")
        let data = world.work + "/a/data"
        let chown = { (owner: String) in
            XCTAssertEqual(self.h.exec("/bin/chown", ["-R", owner, data]).status, 0)
        }
        chown("65534:65534")
        defer { chown("0:0") }
        let before = SyncAttackTests.snapshot(data)
        on("a", "write", "com.app", "k", "2")
        let r = on("a", "sync", status: 4)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("belongs to user 65534"), r.stderr)
        XCTAssertEqual(SyncAttackTests.snapshot(data), before)
        // init is refused alike where the folder above belongs to someone else.
        let other = world.work + "/b/data"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        XCTAssertEqual(h.exec("/bin/chown", ["65534:65534", other]).status, 0)
        XCTAssertTrue(on("b", "sync", "init", world.remote, status: 4).stderr.contains("belongs to user 65534"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other), [])
    }

    /// A rule file that is not a regular file (a FIFO would hang the round) stops the
    /// round in one line: without its rules, a key meant to stay would travel.
    func testAnIgnoreFileThatIsNoFileStopsTheRound() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "token", "secret")
        let rules = world.config("a") + "/settings/syncignore"
        try FileManager.default.createDirectory(
            atPath: world.config("a") + "/settings", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(rules, 0o600), 0)
        let r = on("a", "sync", status: nil)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("syncignore"), r.stderr)
        XCTAssertEqual(world.remoteFiles(), [], "nothing was pushed")
    }

    /// Every file below `folder`, with its bytes, owner and mode.
    static func snapshot(_ folder: String) -> [String: String] {
        var files: [String: String] = [:]
        for file in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
            let path = folder + "/" + file
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let owner = attributes[FileAttributeKey.ownerAccountID].map { "\($0)" } ?? ""
            let mode = attributes[FileAttributeKey.posixPermissions].map { "\($0)" } ?? ""
            let data = FileManager.default.contents(atPath: path) ?? Data()
            files[file] = "\(owner) \(mode) \(data.base64EncodedString())"
        }
        return files
    }

    // MARK: §2 A fault loses nothing

    /// A hook in the sync's own repository runs just before each push: the round has read
    /// everything and merged by then.
    private func prePush(_ machine: String, _ script: String) throws {
        let hook = world.syncFolder(machine) + "/repo.git/hooks/pre-push"
        try write("#!/bin/sh\n" + script, to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)
    }

    func testAPushRefusedBecauseAnotherMachinePushedFirstIsMergedAndPushedAgain() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("b", "write", "com.app", "b", "-int", "1")
        on("b", "sync")
        on("a", "sync")
        on("b", "write", "com.app", "b", "-int", "2")
        on("b", "write", "com.app", "b_only", "-int", "3")
        // B pushes while A is between its fetch and its push, once.
        let env = world.environment("b").map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try prePush(
            "a",
            "[ -e \(world.work)/pushed ] && exit 0\ntouch \(world.work)/pushed\nenv -i \(env) \(Harness.settings) sync >/dev/null 2>&1\nexit 0\n"
        )
        on("a", "write", "com.app", "a", "-int", "1")
        let round = on("a", "sync")
        XCTAssertEqual(round.stdout, "sync: exported 1, imported 1 (com.app)\n")
        XCTAssertEqual(world.live("a"), #"{"a": 1, "b": 2, "b_only": 3}"#)
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"a": 1, "b": 2, "b_only": 3}"#)
    }

    func testAWriteDuringARoundIsKeptAndCarriedNext() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("b", "write", "com.app", "x", "from b")
        on("b", "write", "com.app", "y", "from b")
        on("b", "sync")
        on("a", "write", "com.app", "mine", "-int", "1")
        // Between A's merge and its import, the user writes y and a new key.
        let env = world.environment("a").map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try prePush(
            "a",
            "env -i \(env) \(Harness.settings) write com.app y 'written meanwhile'\n"
                + "env -i \(env) \(Harness.settings) write com.app during -int 7\nexit 0\n")
        on("a", "sync")
        XCTAssertEqual(
            world.live("a"), #"{"during": 7, "mine": 1, "x": "from b", "y": "written meanwhile"}"#)
        try FileManager.default.removeItem(atPath: world.syncFolder("a") + "/repo.git/hooks/pre-push")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 1, imported 0\n")
        on("b", "sync")
        XCTAssertEqual(
            world.live("b"), #"{"during": 7, "mine": 1, "x": "from b", "y": "written meanwhile"}"#)
    }

    func testKillingRoundsAtRandomMomentsLosesNothing() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        var generator = SystemRandomNumberGenerator()
        for i in 0..<10 {
            on("b", "write", "com.app", "b\(i)", "-int", "\(i)")
            on("b", "sync")
            on("a", "write", "com.app", "a\(i)", "-int", "\(i)")
            try world.killed("a", after: Double.random(in: 0.0...0.15, using: &generator))
        }
        // The git a killed round left running finishes or fails on its own.
        Thread.sleep(forTimeInterval: 0.5)
        on("a", "sync")
        on("b", "sync")
        on("a", "sync")
        let expected =
            "{" + ((0..<10).flatMap { ["\"a\($0)\": \($0)", "\"b\($0)\": \($0)"] }.sorted().joined(separator: ", "))
            + "}"
        XCTAssertEqual(world.live("a"), expected)
        XCTAssertEqual(world.live("b"), expected)
    }

    func testAFileOfTheRepositoryThatDoesNotParseStopsOnlyItself() throws {
        on("a", "sync", "init", world.remote)
        let deep = String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
        try world.push { clone in
            try self.write("not a property list", to: clone + "/com.bad.plist")
            try self.write(
                #"<?xml version="1.0"?><plist version="1.0"><dict><key>k</key>"# + deep + "</dict></plist>",
                to: clone + "/com.deep.plist")
            try self.plist(["k": "good"]).write(to: URL(fileURLWithPath: clone + "/com.good.plist"))
        }
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("com.bad.plist"), round.stderr)
        XCTAssertTrue(round.stderr.contains("com.deep.plist"), round.stderr)
        XCTAssertEqual(world.live("a", "com.good"), #"{"k": "good"}"#)
        XCTAssertNil(world.live("a", "com.bad"))
        XCTAssertNil(world.live("a", "com.deep"))
        XCTAssertEqual(world.remoteFile("com.bad.plist"), "not a property list")
    }

    func testAManagedKeyStaysOnItsMachine() throws {
        let admin = world.work + "/a-admin"
        world.extra["a"] = ["XDG_CONFIG_DIRS": admin]
        on("a", "write", "com.app", "locked", "user's old")
        try FileManager.default.createDirectory(atPath: admin + "/settings/managed", withIntermediateDirectories: true)
        try plist(["locked": "admin's"]).write(to: URL(fileURLWithPath: admin + "/settings/managed/com.app.plist"))
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("b", "write", "com.app", "locked", "b's")
        on("b", "write", "com.app", "shared", "-int", "1")
        on("b", "sync")
        on("a", "sync")
        XCTAssertEqual(world.live("a"), #"{"locked": "user's old", "shared": 1}"#)
        on("a", "write", "com.app", "mine", "-int", "2")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"locked": "b's", "mine": 2, "shared": 1}"#)
    }

    func testAReadOnlyDomainIsLeftAndTheNextRoundImportsIt() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.app", "k", "-int", "1")
        on("a", "write", "com.other", "k", "-int", "1")
        on("a", "sync")
        on("b", "sync")
        on("b", "write", "com.app", "k", "-int", "2")
        on("b", "write", "com.other", "k", "-int", "2")
        on("b", "sync")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: world.file("a"))
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("com.app"), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1}"#)
        XCTAssertEqual(world.live("a", "com.other"), #"{"k": 2}"#)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: world.file("a"))
        // Nothing else changed on either side: the round still knows com.app waits.
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 1 (com.app)\n")
        XCTAssertEqual(world.live("a"), #"{"k": 2}"#)
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"k": 2}"#, "the stale value was never pushed back")
    }

    /// The disk fills at each of a round's first durable writes in turn (`strace` makes
    /// the Nth fsync fail with ENOSPC): the record of how the round will end, the domain it
    /// imports, the sync's own files. The round says so, the domain is as it was or fully
    /// imported, and the next round imports it. (One of them is the import itself, which
    /// the round goes on from, saying so.)
    func testAFullDiskAtImportLosesNothing() throws {
        try Harness.require("strace", package: "strace")
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        var importFailed = false
        for n in 1...3 {
            on("b", "write", "com.app", "k", "-int", "\(n)")
            on("b", "sync")
            let before = world.live("a")
            let full = h.exec(
                "/usr/bin/strace",
                [
                    "-o", "/dev/null", "-e", "trace=fsync", "-e", "inject=fsync:error=ENOSPC:when=\(n)",
                    Harness.settings, "sync",
                ],
                environment: world.environment("a"))
            XCTAssertTrue(full.status == 0 || full.status == 4, "\(n): \(full.status) \(full.stderr)")
            XCTAssertTrue(full.stderr.contains("No space left on device"), "\(n): \(full.stderr)")
            XCTAssertTrue([before, #"{"k": \#(n)}"#].contains(world.live("a")), "\(n)")
            if full.status == 0, world.live("a") == before { importFailed = true }
            on("a", "sync")
            XCTAssertEqual(world.live("a"), #"{"k": \#(n)}"#, "\(n)")
        }
        XCTAssertTrue(importFailed, "one of the failing writes was the import's")
    }

    func testAnUnreadableLiveDomainStopsOnlyItself() throws {
        on("a", "sync", "init", world.remote)
        try write("garbage", to: world.file("a", "com.bad"))
        on("a", "write", "com.good", "k", "-int", "1")
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("com.bad"), round.stderr)
        XCTAssertEqual(world.remoteFiles(), ["com.good.plist"])
        XCTAssertEqual(try String(contentsOfFile: world.file("a", "com.bad"), encoding: .utf8), "garbage")
    }

    func testAMachineJoiningLateLosesNoOtherMachinesValue() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "a", "-int", "1")
        on("a", "write", "com.app", "shared", "new")
        on("a", "sync")
        // B's own older copy of the domain, from before it synced.
        on("b", "write", "com.app", "shared", "old")
        on("b", "write", "com.app", "b", "-int", "1")
        on("b", "sync", "init", world.remote)
        on("b", "sync")
        on("a", "sync")
        XCTAssertEqual(world.live("a"), #"{"a": 1, "b": 1, "shared": "new"}"#)
        XCTAssertEqual(world.live("b"), #"{"a": 1, "b": 1, "shared": "new"}"#)
    }

    // MARK: §3 Local rules stay local

    func testLocalRulesOnOneMachineDeleteNothingElsewhere() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.example.app", "window", "a's")
        on("a", "write", "com.example.app", "k", "-int", "1")
        on("a", "sync")
        on("b", "sync")
        let both = #"{"k": 1, "window": "a's"}"#
        XCTAssertEqual(world.live("b", "com.example.app"), both)
        try world.ignore("a", "com.example.app:window\n")
        on("a", "write", "com.example.app", "window", "a's new")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.example.app"), both)
        try world.ignore("a", "*:*\n")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.example.app"), both)
        try world.ignore("a", "")
        try world.schema("a", "com.example.app", #"{"keys": {"k": {"type": "integer", "sync": false}}}"#)
        on("a", "write", "com.example.app", "k", "-int", "5")
        // The deleted rule rejoins `window` as a joining machine's key (issue 48): the
        // repository's value stays, this machine's is logged, and k stays local.
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains(#"ours "a's new", theirs "a's""#), round.stderr)
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.example.app"), both)
        XCTAssertEqual(world.live("a", "com.example.app"), #"{"k": 5, "window": "a's"}"#)
    }

    func testAValueThisMachinesSchemaRefusesStaysAndIsSaid() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        try world.schema("a", "com.app", #"{"keys": {"volume": {"type": "integer", "minimum": 0, "maximum": 100}}}"#)
        on("a", "write", "com.app", "volume", "-int", "42")
        on("a", "sync")
        on("b", "sync")
        on("b", "write", "com.app", "volume", "-int", "150")
        on("b", "write", "com.app", "other", "-int", "1")
        on("b", "sync")
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("volume") && round.stderr.contains("150"), round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertEqual(world.live("a"), #"{"other": 1, "volume": 42}"#)
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"other": 1, "volume": 150}"#, "the refused value is not pushed back")
    }

    // MARK: §4 Deletions and names travel

    func testDeletingADomainOrItsLastKeyTravels() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.one", "k", "-int", "1")
        on("a", "write", "com.two", "k", "-int", "1")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.one"), #"{"k": 1}"#)
        on("a", "delete", "com.one")
        on("a", "delete", "com.two", "k")
        on("a", "sync")
        on("b", "sync")
        XCTAssertNil(world.live("b", "com.one"))
        XCTAssertNil(world.live("b", "com.two"))
        on("b", "write", "com.three", "k", "-int", "1")
        on("b", "sync")
        on("a", "sync")
        XCTAssertNil(world.live("a", "com.one"), "a deleted domain never comes back")
        XCTAssertEqual(world.remoteFiles(), ["com.three.plist"])
    }

    func testNamesGitQuotesTravel() throws {
        let names = ["com.exämple.app", "com.q\"uote", "com.back\\slash", "com.日本"]
        on("a", "sync", "init", world.remote)
        for name in names { on("a", "write", name, "k", "v") }
        on("a", "sync")
        on("b", "sync", "init", world.remote)
        on("b", "sync")
        for name in names { XCTAssertEqual(on("b", "read", name, "k").stdout, "v\n", name) }
    }

    func testDomainsThatDifferOnlyInCaseAreOneDomain() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.Example.App", "k", "a")
        on("a", "sync")
        on("b", "write", "com.example.app", "j", "b")
        on("b", "sync", "init", world.remote)
        on("b", "sync")
        on("a", "sync")
        XCTAssertEqual(world.live("a", "com.Example.App"), #"{"j": "b", "k": "a"}"#)
        XCTAssertEqual(world.live("b", "com.example.app"), #"{"j": "b", "k": "a"}"#)
        XCTAssertEqual(world.remoteFiles().filter { $0.lowercased() == "com.example.app.plist" }.count, 1)
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        XCTAssertEqual(on("b", "sync").stdout, "sync: exported 0, imported 0\n")
    }

    // MARK: §5 A stalled remote ends; usable

    func testAStalledRemoteEndsTheRoundAndSIGTERMEndsTheWatch() throws {
        let helpers = world.work + "/helpers"
        try write("#!/bin/sh\nexec sleep 30\n", to: helpers + "/git-remote-stall")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helpers + "/git-remote-stall")
        let path = helpers + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        on("a", "sync", "init", world.remote)
        on("a", "sync", "remote", "stall::nowhere")
        let start = Date()
        let round = on("a", "sync", status: 4, extra: ["PATH": path, "SETTINGS_SYNC_TIMEOUT": "1"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 8)
        XCTAssertTrue(round.stderr.contains("took longer than 1 s"), round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        // The watch, stuck in git with no limit to speak of, ends on SIGTERM within seconds.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["sync", "--watch"]
        process.environment = world.environment("a", ["PATH": path, "SETTINGS_SYNC_TIMEOUT": "600"])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        let stopped = Date()
        process.terminate()
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 5)
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testARoundNeedsNoGitIdentityAndFollowsTheRemotesBranch() throws {
        world.cleanUp()
        world = try SyncWorld(h, branch: "master")
        world.anonymous.insert("n")
        world.run("n", ["sync", "init", world.remote])
        world.run("n", ["write", "com.app", "k", "v"])
        let round = world.run("n", ["sync"])
        XCTAssertEqual(round.stderr, "")
        XCTAssertEqual(world.remoteFiles("master"), ["com.app.plist"])
        let author = world.git(["--git-dir=" + world.remote, "log", "-1", "--format=%an", "master"]).stdout
        XCTAssertEqual(author, "settings sync\n")
        // A plain clone checks the settings out.
        world.git(["clone", "-q", world.remote, world.work + "/plain"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: world.work + "/plain/com.app.plist"))
    }

    func testStatusSaysWhenInLocalTimeAndWhetherItFailed() throws {
        XCTAssertEqual(on("a", "sync", "status").stdout, "not syncing: settings sync init REMOTE\n")
        on("a", "sync", "init", world.remote)
        XCTAssertTrue(on("a", "sync", "status").stdout.contains("last round: never"))
        on("a", "write", "com.app", "k", "v")
        on("a", "sync")
        let ok = on("a", "sync", "status", extra: ["TZ": "UTC"]).stdout
        XCTAssertNotNil(
            ok.range(
                of: #"last round: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000, ok: exported 1, imported 0"#,
                options: .regularExpression), ok)
        try FileManager.default.moveItem(atPath: world.remote, toPath: world.remote + ".away")
        let failed = on("a", "sync", status: 4)
        XCTAssertFalse(failed.stderr.contains("and the repository exists"), failed.stderr)
        let status = on("a", "sync", "status").stdout
        XCTAssertTrue(status.contains(", failed: cannot reach"), status)
        try FileManager.default.moveItem(atPath: world.remote + ".away", toPath: world.remote)
    }

    func testWatchIsQuietWhenIdleAndEndsWithZeroAfterARecoveredFailure() throws {
        on("a", "sync", "init", world.remote)
        try FileManager.default.moveItem(atPath: world.remote, toPath: world.remote + ".away")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["sync", "--watch", "--interval", "0.3"]
        process.environment = world.environment("a")
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 0.8)
        try FileManager.default.moveItem(atPath: world.remote + ".away", toPath: world.remote)
        Thread.sleep(forTimeInterval: 1.5)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(errors.contains("cannot reach"), errors)
    }

    func testLeaveRemoteAndCarry() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "k", "1")
        on("a", "write", "org.other", "k", "1")
        on("a", "sync")
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "org.other.plist"])
        XCTAssertEqual(on("a", "sync", "carry", "com.*").stdout, "sync: carrying com.*\n")
        on("a", "write", "org.other", "k", "2")
        on("a", "sync")
        XCTAssertTrue(world.remoteFile("org.other.plist").contains("<string>1</string>"))
        let second = world.work + "/second.git"
        world.git(["init", "-q", "--bare", "-b", "main", second])
        on("a", "sync", "remote", second)
        on("a", "write", "com.app", "k", "2")
        on("a", "sync")
        let tree = world.git(["--git-dir=" + second, "ls-tree", "--name-only", "main"]).stdout
        XCTAssertEqual(tree, "com.app.plist\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: world.file("a")))
        XCTAssertTrue(on("a", "sync", "leave").stdout.contains("no longer syncs"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: world.syncFolder("a")))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: world.file("a"))), before)
        XCTAssertEqual(on("a", "sync", status: 1).stderr.split(separator: "\n").count, 1)
    }

    /// The idle shortcut remembers the rules: a pattern that now carries a domain only
    /// the repository has brings it at the next round, though nothing else changed.
    func testANewPatternCarriesADomainOnlyTheRepositoryHas() throws {
        on("a", "sync", "init", world.remote, "com.*")
        on("b", "sync", "init", world.remote)
        on("b", "write", "org.other", "k", "-int", "1")
        on("b", "sync")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        XCTAssertNil(world.live("a", "org.other"))
        XCTAssertEqual(on("a", "sync", "carry").stdout, "sync: carrying every domain\n")
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 1 (org.other)\n")
    }

    func testConflictLinesEscapeControlCharacters() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        let key = "line\nsettings: forged\t"
        on("a", "write", "com.app", key, "a")
        on("b", "write", "com.app", key, "b")
        on("a", "sync")
        let round = on("b", "sync")
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertTrue(round.stderr.contains(#"/line\u000asettings: forged\u0009"#), round.stderr)
        let log = on("b", "sync", "log").stdout
        XCTAssertEqual(log.split(separator: "\n").count, 1, log)
        XCTAssertFalse(log.contains("\t"))
    }
}
