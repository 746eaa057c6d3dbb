import Foundation
import XCTest

/// `watch --exec`: the user's command after each settled batch, one at a time, never for a
/// change it made itself, through the real binary.
final class WatchExecTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testTheCommandRunsPerBatchOneAtATimeAndNotForItsOwnChanges() throws {
        h.ok("write", "com.example.app", "volume", "-int", "1")
        let log = scratch("exec.log"), wrote = scratch("wrote")
        // Each run logs its start, its environment and input, writes a key of its own
        // (which must not run it again), and waits until the test has written again, so
        // that write lands while it runs.
        let command = """
            { echo "start $SETTINGS_DOMAIN"; printf '%s\\n' "$SETTINGS_CHANGED"; cat; } >> \(log)
            \(Harness.settings) write com.example.app normalized -int $$
            i=0; while [ ! -e \(wrote) ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
            echo end >> \(log)
            """
        // Two runs end it: a third, for its own key, would show in the log in their place.
        let (process, out, err) = try h.start([
            "watch", "com.example.app", "--exec", command, "--count", "2", "--timeout", "20", "--debounce", "300",
        ])
        WatchTests.waitUntilWaiting(process)
        h.ok("write", "com.example.app", "volume", "-int", "2")
        h.ok("write", "com.example.app", "theme", "-string", "dark")
        // While the first run waits: one more batch, run after it ends.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("volume\t2") {
            Thread.sleep(forTimeInterval: 0.01)
        }
        h.ok("write", "com.example.app", "volume", "-int", "3")
        XCTAssertTrue(FileManager.default.createFile(atPath: wrote, contents: nil))
        waitForExit(process, within: 20)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            start com.example.app
            /theme
            /volume
            theme\tdark
            volume\t2
            end
            start com.example.app
            /volume
            volume\t3
            end

            """, "two runs, one after the other, none for its own key")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(stderr, "")
    }

    func testAFailingCommandIsOneLineAndTheWatchGoesOn() throws {
        let (process, _, err) = try h.start([
            "watch", "com.example.app", "--exec", "exit 3", "--count", "2", "--timeout", "5",
        ])
        WatchTests.waitUntilWaiting(process)
        h.ok("write", "com.example.app", "a", "-int", "1")
        Thread.sleep(forTimeInterval: 0.3)
        h.ok("write", "com.example.app", "a", "-int", "2")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(repeating: "settings: warning: --exec command exited with status 3\n", count: 2))
        XCTAssertEqual(h.run(["watch", "com.example.app", "--exec"]).status, 2)
    }

    /// `settings watch ARGS…` started in this folder's environment plus `extra` (which
    /// the command inherits), once it waits for changes.
    private func startWatch(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
        process: Process, output: Pipe, error: Pipe
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["watch"] + arguments
        process.environment = h.environment(extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        WatchTests.waitUntilWaiting(process)
        return (process, out, err)
    }

    /// Waits for `process` to end, at most `seconds`: past them it is killed and the test fails.
    private func waitForExit(
        _ process: Process, within seconds: Double, file: StaticString = #filePath, line: UInt = #line
    ) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            XCTFail("still running after \(seconds) s", file: file, line: line)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// A scratch file beside the config folder, removed after the test.
    private func scratch(_ name: String) -> String {
        let path = h.config + "-" + name
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Imports `count` keys (`key(i)`, string values `value(i)`) in one write: one batch.
    private func importKeys(
        _ domain: String, count: Int, key: (Int) -> String, value: (Int) -> String
    ) throws {
        var dictionary: [String: Any] = [:]
        for i in 0..<count { dictionary[key(i)] = value(i) }
        let file = scratch("import.plist")
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: file))
        h.ok("import", domain, file)
    }

    /// Issue 49, case 6: a batch of 5,000 lines (about 430 KB, far past a pipe's 64 KiB)
    /// reaches the command's standard input whole, every line in full.
    func testTheWholeBatchReachesStandardInput() throws {
        let received = scratch("stdin")
        let (process, _, err) = try startWatch([
            "com.example.big", "--exec", "cat > \(received)", "--count", "1", "--timeout", "20",
        ])
        let key = { (i: Int) in "key-" + String(format: "%05d", i) }
        let value = { (i: Int) in String(repeating: "v", count: 60) + String(i) }
        try importKeys("com.example.big", count: 5000, key: key, value: value)
        waitForExit(process, within: 20)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
        let lines = try String(contentsOfFile: received, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5001, "5,000 lines and the end of the last")
        XCTAssertEqual(lines.last, "")
        XCTAssertEqual(Array(lines.dropLast()), (0..<5000).map { Substring(key($0) + "\t" + value($0)) })
    }

    /// Issue 49, case 6: pointers past the 128 KiB an argument or variable may take (Linux's
    /// MAX_ARG_STRLEN) no longer fail the spawn nor end the watch: `SETTINGS_CHANGED`
    /// holds the whole lines that fit in 64 KiB, `SETTINGS_CHANGED_CUT` the number left
    /// out, standard input every line; and the next batch runs as usual.
    func testAHugeBatchCutsTheVariableAndTheWatchGoesOn() throws {
        let log = scratch("log"), changed = scratch("changed")
        let command = """
            printf '%s\\n' "$SETTINGS_CHANGED" >> \(changed)
            n=$(printf '%s\\n' "$SETTINGS_CHANGED" | wc -l)
            echo "run ${SETTINGS_CHANGED_CUT-none} $n $(wc -l)" >> \(log)
            """
        let (process, _, err) = try startWatch([
            "com.example.big", "--exec", command, "--count", "2", "--timeout", "20",
        ])
        let key = { (i: Int) in "a-rather-long-key-name-that-fills-bytes-" + String(format: "%05d", i) }
        try importKeys("com.example.big", count: 5000, key: key, value: { String($0) })
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, process.isRunning,
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").isEmpty
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        h.ok("write", "com.example.big", "after", "-int", "1")
        waitForExit(process, within: 20)
        XCTAssertEqual(process.terminationStatus, 0, "the watch went on to its second run")
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
        // Each pointer is 46 bytes, joined by newlines: 1,394 of them fit in 65,536 bytes.
        let fit = (65536 + 1) / 47
        let runs = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(runs, "run \(5000 - fit) \(fit) 5000\nrun none 1 1\n")
        let lines = try String(contentsOfFile: changed, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, (0..<fit).map { "/" + key($0) } + ["/after"])
    }

    /// The runs of a command that writes the domain itself, one line each with the
    /// pointers it was run for, after an outside change and, once the watch waits again
    /// after that run, a second one: it must be `run /outside`, `run /later`, its own
    /// write (read back without the journal's JSON) running it for no batch, alone or
    /// beside the second change. `extra` is the watch's environment, which the command
    /// inherits.
    private func runsAfterTwoChanges(
        _ domain: String, ownWrite: String, environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let log = scratch("runs")
        let command = "echo run $SETTINGS_CHANGED >> \(log); \(Harness.settings) write \(domain) \(ownWrite)"
        let (process, _, err) = try startWatch(
            [domain, "--exec", command, "--count", "2", "--timeout", "20"], environment: extra)
        let outside = h.run(["write", domain, "outside", "-int", "1"], environment: extra)
        XCTAssertEqual(outside.status, 0, outside.stderr, file: file, line: line)
        // Once the run has logged, the watch next blocks in poll(2) only after the command
        // ended and the domain was read again: the later change is no longer the command's.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning, ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").isEmpty
        {
            Thread.sleep(forTimeInterval: 0.005)
        }
        WatchTests.waitUntilWaiting(process)
        let later = h.run(["write", domain, "later", "-int", "1"], environment: extra)
        XCTAssertEqual(later.status, 0, later.stderr, file: file, line: line)
        waitForExit(process, within: 20, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(stderr, "", file: file, line: line)
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    /// Issue 49, case 17: with the journal off there is no mark to find, and the command
    /// ran for ever on its own writes.
    func testItsOwnWritesRunItNoMoreWithTheJournalOff() throws {
        let runs = try runsAfterTwoChanges(
            "com.example.app", ownWrite: "own -int $$", environment: ["SETTINGS_HISTORY_SIZE": "0"])
        XCTAssertEqual(runs, "run /outside\nrun /later\n")
    }

    /// Issue 49, case 17: a 32-bit real in a binary domain came back from the journal's
    /// JSON as a 64-bit one, unequal to the value written, so it ran again for ever.
    func testItsOwnFloatInABinaryDomainRunsItNoMore() throws {
        let path = h.path("com.example.bin")
        try FileManager.default.createDirectory(atPath: h.config, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: ["seed": 1], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: path))
        let runs = try runsAfterTwoChanges("com.example.bin", ownWrite: "level -float 1.$$")
        XCTAssertEqual(runs, "run /outside\nrun /later\n")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(String(decoding: bytes.prefix(8), as: UTF8.self), "bplist00", "still a binary domain")
        XCTAssertTrue(h.plistlibJSON(path).contains("\"level\""), "the command's write landed")
    }

    /// Issue 49, case 17: a value too big for the journal (past an eighth of
    /// SETTINGS_HISTORY_SIZE) is kept there without its value, so it was never matched.
    func testItsOwnValueTooBigForTheJournalRunsItNoMore() throws {
        let runs = try runsAfterTwoChanges(
            "com.example.app", ownWrite: "big -string $(printf %03000d $$)",
            environment: ["SETTINGS_HISTORY_SIZE": "8192"])
        XCTAssertEqual(runs, "run /outside\nrun /later\n")
        let values = try JSONSerialization.jsonObject(with: Data(h.plistlibJSON(h.path("com.example.app")).utf8))
        XCTAssertEqual(((values as? [String: Any])?["big"] as? String)?.count, 3000, "the command's write landed")
    }

    /// Whether the process runs: it is there and not a zombie (a parent not waiting yet).
    private func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// The processes alive whose command line is exactly `words`.
    private func living(_ words: [String]) -> [Int32] {
        let wanted = Data(words.joined(separator: "\u{0}").utf8 + [0])
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return ids.compactMap { Int32($0) }.filter {
            FileManager.default.contents(atPath: "/proc/\($0)/cmdline") == wanted && isAlive($0)
        }
    }

    /// Starts a watch whose command sleeps (`sleep SECONDS` under a shell), makes it run,
    /// and returns the watch and the shell's and sleep's processes once both run.
    private func watchWithASleepingCommand(_ seconds: String, prefix: String = "") throws -> (
        watch: Process, error: Pipe, command: [Int32]
    ) {
        let pids = scratch("pids-\(seconds)")
        let (process, _, err) = try startWatch([
            "com.example.app", "--exec", "\(prefix)echo $$ > \(pids); sleep \(seconds); :",
        ])
        addTeardownBlock { [self] in
            for pid in living(["sleep", seconds]) { kill(pid, SIGKILL) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        h.ok("write", "com.example.app", "k", "-string", seconds)
        var command: [Int32] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, command.count < 2 {
            Thread.sleep(forTimeInterval: 0.01)
            let shell = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").first
            command = shell.flatMap { Int32($0) }.map { [$0] + living(["sleep", seconds]) } ?? []
        }
        XCTAssertEqual(command.count, 2, "the shell and its sleep run")
        return (process, err, command)
    }

    /// Issue 49, case 18: a signal to the watch while its command runs ends the command's
    /// whole process group and waits for it, so no process of it outlives the watch (a
    /// supervisor restarting the watch would otherwise run two at once).
    func testASignalEndsTheRunningCommandBeforeTheWatch() throws {
        for (signal, seconds) in [(SIGTERM, "27.15"), (SIGINT, "27.2"), (SIGHUP, "27.1")] {
            let (watch, err, command) = try watchWithASleepingCommand(seconds)
            kill(watch.processIdentifier, signal)
            waitForExit(watch, within: 5)
            XCTAssertEqual(watch.terminationStatus, 0, "signal \(signal)")
            let outlived = command.filter(isAlive)
            XCTAssertEqual(outlived, [], "processes of the command outlived the watch (signal \(signal))")
            // (Read only when none did: one that did holds the pipe open.)
            if outlived.isEmpty {
                XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
            }
        }
    }

    /// The parent `/proc` gives a process, nil once it is gone.
    private func parent(of pid: Int32) -> Int32? {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("PPid:") }.flatMap {
            Int32($0.dropFirst(5).trimmingCharacters(in: .whitespaces))
        }
    }

    /// A child the command leaves running (`cmd &`) is reparented to the watch, not to
    /// init, and the watch reaps it once it ends (by the next run at the latest): a
    /// signal's wait for the command's group never waits on a zombie that init has not
    /// reaped yet (a second in some sandboxes, for ever in a container whose first
    /// process reaps nothing; the wait then lasted the grace and a second more).
    func testTheCommandsOrphansAreTheWatchsToReap() throws {
        let pids = scratch("orphans")
        let (watch, _, err) = try startWatch(["com.example.app", "--exec", "sleep 27.4 & echo $! >> \(pids)"])
        addTeardownBlock { [self] in
            for pid in living(["sleep", "27.4"]) { kill(pid, SIGKILL) }
            if watch.isRunning { kill(watch.processIdentifier, SIGKILL) }
        }
        func orphans(_ count: Int) -> [Int32] {
            let deadline = Date().addingTimeInterval(10)
            var found: [Int32] = []
            while Date() < deadline, found.count < count {
                Thread.sleep(forTimeInterval: 0.005)
                let text = (try? String(contentsOfFile: pids, encoding: .utf8)) ?? ""
                found = text.split(separator: "\n").compactMap { Int32($0) }
            }
            return found
        }
        h.ok("write", "com.example.app", "k", "-int", "1")
        let first = try XCTUnwrap(orphans(1).first)
        // Once the command's shell has ended, its child's parent is the watch.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, parent(of: first) != watch.processIdentifier { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(parent(of: first), watch.processIdentifier, "the orphan is the watch's")
        kill(first, SIGKILL)
        h.ok("write", "com.example.app", "k", "-int", "2")
        XCTAssertEqual(orphans(2).count, 2, "the second run")
        XCTAssertNil(parent(of: first), "the ended orphan was reaped before the next run, not left a zombie")
        kill(watch.processIdentifier, SIGTERM)
        waitForExit(watch, within: 5)
        XCTAssertEqual(watch.terminationStatus, 0)
        // (The second orphan, left running as a command's child may be, holds the pipe.)
        for pid in orphans(2) { kill(pid, SIGKILL) }
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
    }

    /// A command that ignores the signal is killed after two seconds: the watch still ends.
    func testACommandIgnoringTheSignalIsKilled() throws {
        let (watch, _, command) = try watchWithASleepingCommand("27.3", prefix: "trap '' TERM; ")
        let sent = Date()
        kill(watch.processIdentifier, SIGTERM)
        waitForExit(watch, within: 5)
        XCTAssertEqual(watch.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(sent), 5)
        XCTAssertEqual(command.filter(isAlive), [])
    }
}
