import Foundation
import XCTest

/// Issue 48: a round fails safe. A merge input that is missing (a branch gone, an object
/// lost, a base git cannot read, a link where a domain's file was) is never read as
/// "empty", which a three-way merge takes for "everything was removed"; and a round
/// stopped after its push (kill, SIGTERM, a failing `update-ref`, the network dropping
/// after the remote took it) is finished by the next one, never merged again as if its
/// own push were another machine's change. Each fault is checked to have happened.
final class SyncFailSafeTests: SyncTestCase {
    /// Two machines in step on com.app {k: 1, x: 0} and com.two {k: 2}.
    private func inStep() {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", "com.app", "x", "-int", "0")
        on("a", "write", "com.app", "k", "-int", "1")
        on("a", "write", "com.two", "k", "-int", "2")
        on("a", "sync")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"k": 1, "x": 0}"#)
    }

    private func write(_ text: String, to path: String, mode: Int = 0o644) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    // MARK: A branch gone, a remote re-created

    func testARenamedBranchIsFollowedToTheRemotesHeadAndLosesNothing() throws {
        inStep()
        world.git(["--git-dir=" + world.remote, "branch", "-m", "main", "trunk"])
        XCTAssertEqual(
            world.git(["--git-dir=" + world.remote, "symbolic-ref", "HEAD"]).stdout, "refs/heads/trunk\n")
        on("a", "write", "com.app", "x", "-int", "5")
        let round = on("a", "sync")
        XCTAssertTrue(
            round.stderr.contains("has no branch main any more; following the remote's HEAD, trunk"), round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 5}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        // One history: no parentless `main` beside `trunk`.
        let branches = world.git(["--git-dir=" + world.remote, "for-each-ref", "--format=%(refname)", "refs/heads"])
        XCTAssertEqual(branches.stdout, "refs/heads/trunk\n")
        XCTAssertTrue(world.remoteFile("com.app.plist", "trunk").contains("<integer>5</integer>"))
        XCTAssertEqual(on("a", "sync", "status").stdout.contains("trunk"), true)
        // A removal still travels: the rename is no rewrite, and the other machine follows too.
        on("b", "delete", "com.two")
        XCTAssertTrue(on("b", "sync").stderr.contains("following the remote's HEAD, trunk"))
        XCTAssertEqual(world.live("b"), #"{"k": 1, "x": 5}"#)
        XCTAssertEqual(on("a", "sync").stderr, "")
        XCTAssertNil(world.live("a", "com.two"))
        XCTAssertEqual(world.remoteFiles("trunk"), ["com.app.plist"])
    }

    func testARemoteRecreatedAndSeededByANewMachineIsAJoin() throws {
        inStep()
        try FileManager.default.removeItem(atPath: world.remote)
        world.git(["init", "-q", "--bare", "-b", "main", world.remote])
        on("c", "sync", "init", world.remote)
        on("c", "write", "com.app", "x", "-int", "9")
        on("c", "write", "com.new", "k", "-int", "3")
        on("c", "sync")
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("merged as a join"), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 9}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.live("a", "com.new"), #"{"k": 3}"#)
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.new.plist", "com.two.plist"])
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.live("b", "com.new"), #"{"k": 3}"#)
    }

    /// A branch gone with a remote HEAD that names no branch there: the round stops.
    func testABranchGoneWithNoHeadToFollowStopsTheRound() throws {
        inStep()
        world.git(["--git-dir=" + world.remote, "branch", "-m", "main", "trunk"])
        world.git(["--git-dir=" + world.remote, "symbolic-ref", "HEAD", "refs/heads/elsewhere"])
        let round = on("a", "sync", status: 4)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertTrue(round.stderr.contains("main"), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 0}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.remoteFiles("trunk"), ["com.app.plist", "com.two.plist"])
        XCTAssertEqual(world.remoteFiles("elsewhere"), [])
    }

    // MARK: A round stopped after its push

    /// A writes y, so B's next round has something to apply; B sets x and k, and its
    /// round is stopped by `stop` after the remote took its push. B then sets x again and
    /// removes k: the next rounds finish the stopped one and carry those, undoing nothing.
    private func stoppedAfterItsPush(_ stop: () throws -> Void, file: StaticString = #filePath, line: UInt = #line)
        rethrows
    {
        inStep()
        on("a", "write", "com.app", "y", "-int", "7")
        on("a", "sync")
        on("b", "write", "com.app", "x", "-int", "1")
        on("b", "write", "com.app", "k", "-int", "2")
        try stop()
        XCTAssertTrue(world.wasHit, "the fault happened", file: file, line: line)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("<integer>2</integer>"), file: file, line: line)
        on("b", "write", "com.app", "x", "-int", "2")
        on("b", "delete", "com.app", "k")
        let next = on("b", "sync", line: line)
        XCTAssertEqual(next.stderr.contains("conflict"), false, next.stderr, file: file, line: line)
        XCTAssertEqual(world.live("b"), #"{"x": 2, "y": 7}"#, file: file, line: line)
        on("a", "sync", line: line)
        XCTAssertEqual(world.live("a"), #"{"x": 2, "y": 7}"#, file: file, line: line)
        XCTAssertEqual(on("b", "sync", line: line).stdout, "sync: exported 0, imported 0\n", file: file, line: line)
        XCTAssertEqual(on("b", "sync", "log", status: nil).stdout.contains("conflict"), false, file: file, line: line)
    }

    func testAFailingUpdateRefAfterThePushIsFinishedByTheNextRound() throws {
        try stoppedAfterItsPush {
            let path = try world.gitWrapper(
                #"case " $* " in *" update-ref "*) touch "$HIT"; echo "fatal: cannot lock ref" >&2; exit 128;; esac"#)
            let round = on("b", "sync", status: 4, extra: ["PATH": path])
            XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
            // It applied y here before update-ref failed: it says so, not "unchanged".
            XCTAssertTrue(round.stderr.contains("changed settings here, then stopped"), round.stderr)
            XCTAssertTrue(round.stderr.contains("update-ref"), round.stderr)
            XCTAssertFalse(round.stderr.contains("unchanged"), round.stderr)
        }
    }

    /// A record of a stopped round that cannot be read (a disk that lost it): what was
    /// pushed is unknown, so the round merges as a machine joining does and loses nothing.
    func testARecordThatCannotBeReadIsMergedAsAJoin() throws {
        inStep()
        on("b", "write", "com.app", "x", "-int", "3")
        on("b", "sync")
        on("a", "write", "com.two", "new", "-int", "1")
        try "garbage".write(toFile: world.syncFolder("a") + "/pending", atomically: true, encoding: .utf8)
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("cannot be read: merged as a machine joining does"), round.stderr)
        XCTAssertFalse(round.stderr.contains("rewritten"), "no rewritten history is claimed: \(round.stderr)")
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 3}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2, "new": 1}"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: world.syncFolder("a") + "/pending"))
        XCTAssertEqual(on("a", "sync").stderr, "")
        on("b", "sync")
        XCTAssertEqual(world.live("b", "com.two"), #"{"k": 2, "new": 1}"#)
    }

    /// The sync's own files planted as links are refused before the round pushes or
    /// applies anything, not after.
    func testAPlantedLogIsRefusedBeforeAnythingIsPushed() throws {
        inStep()
        let decoy = world.work + "/decoy"
        try "decoy\n".write(toFile: decoy, atomically: true, encoding: .utf8)
        for file in ["log", "last", "state"] {
            let path = world.syncFolder("a") + "/" + file
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: decoy)
            on("a", "write", "com.app", "x", "-int", "9")
            let before = world.remoteFile("com.app.plist")
            let round = on("a", "sync", status: 3)
            XCTAssertTrue(round.stderr.contains(file), round.stderr)
            XCTAssertEqual(world.remoteFile("com.app.plist"), before, "\(file): nothing pushed")
            XCTAssertEqual(try String(contentsOfFile: decoy, encoding: .utf8), "decoy\n")
            try FileManager.default.removeItem(atPath: path)
        }
        on("a", "sync")
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("<integer>9</integer>"))
    }

    func testThePushLandingAsTheNetworkDropsIsTakenAsPushed() throws {
        try stoppedAfterItsPush {
            let path = try world.gitWrapper(
                #"case " $* " in *" push "*) "$REAL" "$@"; touch "$HIT"; echo "fatal: the remote end hung up" >&2; "#
                    + "exit 128;; esac")
            on("b", "sync", status: nil, extra: ["PATH": path])
        }
    }

    /// A hook on the remote that sends `signal` to the `settings` process whose push it
    /// runs for, once the remote has taken the push.
    private func hookSending(_ signal: String) throws {
        try write(
            """
            #!/bin/sh
            [ -n "$STOP_ROUND" ] || exit 0
            p=$PPID
            while [ "$p" -gt 1 ]; do
                if [ "$(cat /proc/$p/comm)" = settings ]; then touch "\(world.hit)"; kill -\(signal) "$p"; exit 0; fi
                p=$(awk '{print $4}' /proc/$p/stat)
            done

            """, to: world.remote + "/hooks/post-receive", mode: 0o755)
    }

    func testARoundKilledAfterItsPushIsFinishedByTheNextRound() throws {
        try hookSending("KILL")
        stoppedAfterItsPush {
            let round = on("b", "sync", status: nil, extra: ["STOP_ROUND": "1"])
            XCTAssertNotEqual(round.status, 0)
        }
    }

    func testSIGTERMToTheWatchAfterItsPushIsFinishedByTheNextRound() throws {
        try hookSending("TERM")
        try stoppedAfterItsPush {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Harness.settings)
            process.arguments = ["sync", "--watch"]
            process.environment = world.environment("b", ["STOP_ROUND": "1"])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let start = Date()
            while process.isRunning, Date().timeIntervalSince(start) < 20 { Thread.sleep(forTimeInterval: 0.05) }
            XCTAssertFalse(process.isRunning, "the watch ended on SIGTERM")
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    // MARK: A base or an object that cannot be read

    func testABaseThatCannotBeReadStopsTheRoundAndChangesNothing() throws {
        inStep()
        let base = world.ref("a", "refs/settings/base:com.app.plist")
        XCTAssertFalse(base.isEmpty)
        on("b", "write", "com.app", "y", "-int", "1")
        on("b", "sync")
        on("a", "delete", "com.app", "k")
        on("a", "write", "com.app", "x", "-int", "5")
        let remote = world.git(["--git-dir=" + world.remote, "rev-parse", "main"]).stdout
        let path = try world.gitWrapper(
            """
            case " $* " in *" cat-file "*)
                input=$(cat)
                case "$input" in *\(base)*)
                    touch "$HIT"; [ -n "$STALL" ] && exec sleep 30; echo "fatal: unable to read \(base)" >&2; exit 128;;
                esac
                printf '%s\\n' "$input" | "$REAL" "$@"; exit $?;;
            esac
            """)
        for extra in [["PATH": path], ["PATH": path, "STALL": "1", "SETTINGS_SYNC_TIMEOUT": "1"]] {
            try? FileManager.default.removeItem(atPath: world.hit)
            let round = on("a", "sync", status: 4, extra: extra)
            XCTAssertTrue(world.wasHit)
            XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
            XCTAssertEqual(world.live("a"), #"{"x": 5}"#)
            XCTAssertEqual(world.git(["--git-dir=" + world.remote, "rev-parse", "main"]).stdout, remote)
        }
        on("a", "sync")
        XCTAssertEqual(world.live("a"), #"{"x": 5, "y": 1}"#)
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"x": 5, "y": 1}"#)
    }

    /// An object of the fetched remote lost from this machine's repository (a disk error,
    /// power lost before git's object reached the disk): the round stops; nothing is deleted.
    private func lostObject(_ object: (String) -> String) throws {
        inStep()
        on("b", "write", "com.app", "y", "-int", "1")
        on("b", "sync")
        let repository = world.syncFolder("a") + "/repo.git"
        world.git(["--git-dir=" + repository, "fetch", "-q", "origin"])
        let id = object(repository)
        let loose = repository + "/objects/" + id.prefix(2) + "/" + id.dropFirst(2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: loose), "the object is loose: \(id)")
        try FileManager.default.removeItem(atPath: loose)
        let round = on("a", "sync", status: 4)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertTrue(round.stderr.contains(id), round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 0}"#)
        XCTAssertEqual(world.live("a", "com.two"), #"{"k": 2}"#)
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.two.plist"])
    }

    func testALostTreeStopsTheRound() throws {
        try lostObject { repository in
            world.git(["--git-dir=" + repository, "rev-parse", "refs/remotes/origin/main^{tree}"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func testALostBlobStopsTheRound() throws {
        try lostObject { repository in
            world.git(["--git-dir=" + repository, "rev-parse", "refs/remotes/origin/main:com.app.plist"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    // MARK: A tree entry of another kind

    /// A link, a folder or a gitlink committed as `com.app.plist` says nothing of the
    /// domain: no machine deletes it, and the first to change it puts the file back.
    func testAnEntryOfAnotherKindInPlaceOfADomainDeletesNothing() throws {
        inStep()
        for kind in ["link", "folder", "gitlink"] {
            try world.push { clone in
                let file = clone + "/com.app.plist"
                try? FileManager.default.removeItem(atPath: file)
                switch kind {
                case "link":
                    try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/etc/passwd")
                case "folder": try self.write("x", to: file + "/inside")
                default:
                    self.world.git(["rm", "-q", "--cached", "-r", "--ignore-unmatch", "com.app.plist"], in: clone)
                    let head = self.world.git(["rev-parse", "HEAD"], in: clone).stdout
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    self.world.git(
                        ["update-index", "--add", "--cacheinfo", "160000,\(head),com.app.plist"], in: clone)
                    // A submodule not checked out: `add -A` keeps the entry.
                    try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
                }
            }
            let round = on("b", "sync")
            XCTAssertTrue(round.stderr.contains("com.app.plist in the repository is not a regular file"), round.stderr)
            XCTAssertEqual(world.live("b"), #"{"k": 1, "x": 0}"#, kind)
            on("a", "write", "com.two", "k", "-int", "3")
            on("a", "sync")
            XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 0}"#, kind)
            on("b", "sync")
            XCTAssertEqual(world.live("b", "com.two"), #"{"k": 3}"#, kind)
            // The first machine that changes the domain puts its file back.
            on("b", "write", "com.app", "x", "-int", "1")
            on("b", "sync")
            XCTAssertTrue(world.remoteFile("com.app.plist").contains("<integer>1</integer>"), kind)
            on("a", "sync")
            XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 1}"#, kind)
            on("b", "write", "com.app", "x", "-int", "0")
            on("b", "sync")
            on("a", "sync")
            world.git(["pull", "-q", "--rebase"], in: world.work + "/evil")
        }
    }

    // MARK: Bounded cost

    /// A blob over the round's limit (zeros: gigabytes cost the remote megabytes) is
    /// named and not read; the rest arrives. `SETTINGS_BIG_BLOB` sets its size (CI: 2 GB,
    /// under a 2 GB memory limit); by default it is just over the limit.
    func testABlobOverTheLimitIsNamedAndTheRestArrives() throws {
        let size = Int(ProcessInfo.processInfo.environment["SETTINGS_BIG_BLOB"] ?? "") ?? (64 << 20) + 1
        inStep()
        // Committed in the remote itself, as a push leaves it there (a loose object): a
        // clone's add and push were two more passes of git over the blob.
        let huge = world.work + "/com.huge.plist"
        XCTAssertEqual(h.exec("/usr/bin/env", ["truncate", "-s", "\(size)", huge]).status, 0)
        let fast = ["-c", "core.compression=1", "-c", "pack.compression=1", "-c", "core.bigFileThreshold=1m"]
        let remote = "--git-dir=" + world.remote
        let blob = world.git(fast + [remote, "hash-object", "-w", huge]).stdout.trimmingCharacters(in: .newlines)
        let entries = world.git([remote, "ls-tree", "main"]).stdout + "100644 blob \(blob)\tcom.huge.plist\n"
        let made = h.exec("/usr/bin/env", ["git", remote, "mktree"], stdin: Data(entries.utf8))
        XCTAssertEqual(made.status, 0, made.stderr)
        let tree = made.stdout.trimmingCharacters(in: .newlines)
        let commit = world.git([remote, "commit-tree", tree, "-p", "main", "-m", "huge"]).stdout
        world.git([remote, "update-ref", "refs/heads/main", commit.trimmingCharacters(in: .newlines)])
        on("b", "write", "com.app", "x", "-int", "7")
        on("b", "sync")
        let round = h.exec(
            "/bin/sh", ["-c", "ulimit -v 2000000; exec \"$0\" sync", Harness.settings],
            environment: world.environment("a"))
        XCTAssertEqual(round.status, 0, round.stderr)
        XCTAssertTrue(round.stderr.contains("com.huge.plist is larger than 64 MiB"), round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        XCTAssertEqual(world.live("a"), #"{"k": 1, "x": 7}"#)
        XCTAssertNil(world.live("a", "com.huge"))
        // The repository keeps it as it is; no machine pushed it back or removed it.
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist", "com.huge.plist", "com.two.plist"])
    }

    // MARK: Every value travels, exactly

    func testValuesTheRepositorysXMLCannotHoldTravelExactly() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        // An app's binary domain: a control character, and a date with a fraction of a second.
        let script = """
            import plistlib, sys, datetime
            plistlib.dump({"bell": "ring\\u0007", "when": datetime.datetime(2026, 1, 2, 3, 4, 5, 250000),
                           "plain": 1}, open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
            """
        try FileManager.default.createDirectory(atPath: world.config("a"), withIntermediateDirectories: true)
        XCTAssertEqual(h.exec("/usr/bin/env", ["python3", "-c", script, world.file("a")]).status, 0)
        let round = on("a", "sync")
        XCTAssertEqual(round.stderr, "")
        XCTAssertEqual(round.stdout, "sync: exported 1, imported 0\n")
        on("b", "sync")
        XCTAssertEqual(
            world.live("b"), #"{"bell": "ring\u0007", "plain": 1, "when": "2026-01-02 03:04:05.250000"}"#)
        // Quiet from then on, on both machines.
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
        XCTAssertEqual(on("b", "sync").stderr, "")
        XCTAssertEqual(on("b", "sync").stdout, "sync: exported 0, imported 0\n")
    }

    // MARK: Kills at every step

    /// Rounds killed at random moments, applying big domains as well as small ones, with
    /// edits and removals in between: nothing is lost and no edit is undone. The loop's
    /// length is `SETTINGS_KILLS` (CI runs 50).
    func testRandomKillsDuringRoundsLoseNothingAndUndoNoEdit() throws {
        let kills = Int(ProcessInfo.processInfo.environment["SETTINGS_KILLS"] ?? "") ?? 4
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        var big: [String: Int] = [:]
        for i in 0..<3000 { big["key\(i)"] = i }
        let seed = world.work + "/big.plist"
        try PropertyListSerialization.data(fromPropertyList: big, format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: seed))
        on("b", "import", "com.big", seed)
        var generator = SystemRandomNumberGenerator()
        for i in 0..<kills {
            // B changes the big domain and adds a key; A edits, adds and removes.
            on("b", "write", "com.big", "key\(i % 3000)", "-int", "\(-i)")
            on("b", "write", "com.app", "b\(i)", "-int", "\(i)")
            on("b", "sync")
            on("a", "write", "com.app", "counter", "-int", "\(i)")
            on("a", "write", "com.app", "tmp\(i)", "-int", "\(i)")
            if i > 0 { on("a", "delete", "com.app", "tmp\(i - 1)") }
            try world.killed("a", after: Double.random(in: 0.0...0.25, using: &generator))
            Thread.sleep(forTimeInterval: 0.2)
        }
        on("a", "sync")
        on("b", "sync")
        on("a", "sync")
        var expected = (0..<kills).map { "\"b\($0)\": \($0)" }
        expected += ["\"counter\": \(kills - 1)", "\"tmp\(kills - 1)\": \(kills - 1)"]
        expected.sort()
        XCTAssertEqual(world.live("a"), "{" + expected.joined(separator: ", ") + "}")
        XCTAssertEqual(world.live("b"), world.live("a"))
        XCTAssertEqual(world.live("a", "com.big"), world.live("b", "com.big"))
        let bigOnA = world.live("a", "com.big") ?? ""
        XCTAssertTrue(bigOnA.contains("\"key\((kills - 1) % 3000)\": \(-(kills - 1))"), String(bigOnA.prefix(200)))
        XCTAssertEqual(on("a", "sync").stdout, "sync: exported 0, imported 0\n")
    }
}
