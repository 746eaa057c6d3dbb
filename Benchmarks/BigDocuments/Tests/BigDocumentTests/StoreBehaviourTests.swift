import Foundation
import XCTest

/// The store's guarantees on a 100,000-key domain, seen from outside (from the root
/// suite's `StoreBehaviourTests`): writers killed mid-write never break the file, and a
/// one-key write of a big binary domain needs little more memory than the file.
final class StoreBehaviourTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// Writers killed at random moments while they update a 100,000-key domain: after
    /// every kill the file parses and holds every key of the writes that finished.
    func testKilledWritersNeverBreakTheFile() throws {
        let made = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; plistlib.dump({'key%d' % i: i for i in range(100_000)}, open(sys.argv[1], 'wb'))",
                h.path("com.big"),
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let rounds = h.config + "-rounds"
        try FileManager.default.createDirectory(atPath: rounds, withIntermediateDirectories: true)
        addTeardownBlock { [rounds] in try? FileManager.default.removeItem(atPath: rounds) }
        // Kill within 1.5 times the length of one whole write, so some finish and some don't.
        // The whole write is timed as the writers below run it: a process of its own.
        let start = Date()
        let first = h.exec(Harness.settings, ["write", "com.big", "first", "-int", "0"])
        let window = Date().timeIntervalSince(start) * 1.5
        XCTAssertEqual(first.status, 0, first.stderr)
        var finished = ["first"]
        var killed = 0
        var generator = SystemRandomNumberGenerator()
        // Each round's file is copied, and parsed by plistlib on another thread while the
        // next writer runs (two cores); what it finds is asserted below, round by round.
        let checks = DispatchGroup()
        let checker = DispatchQueue(label: "killed-writers.check")
        let problems = NSLock(), found = Found()
        for round in 0..<12 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Harness.settings)
            process.arguments = ["write", "com.big", "round\(round)", "-int", "\(round)"]
            process.environment = ["XDG_CONFIG_HOME": h.config, "HOME": h.config, "XDG_STATE_HOME": h.state]
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...window, using: &generator))
            if process.isRunning { kill(process.processIdentifier, SIGKILL); killed += 1 }
            process.waitUntilExit()
            if process.terminationReason == .exit && process.terminationStatus == 0 { finished.append("round\(round)") }
            let copy = rounds + "/round\(round).plist"
            try Data(contentsOf: URL(fileURLWithPath: h.path("com.big"))).write(to: URL(fileURLWithPath: copy))
            let expected = finished
            let h = self.h!
            checker.async(group: checks) {
                let check = h.exec("/usr/bin/env", ["python3", "-c", Self.roundCheck, copy, "\(round)"] + expected)
                var lines = check.stdout.split(separator: "\n").map(String.init)
                if check.status != 0 { lines.append("round \(round): \(check.stderr)") }
                problems.withLock {
                    found.lines += lines; found.rounds += 1
                }
            }
        }
        checks.wait()
        problems.withLock {
            XCTAssertEqual(found.rounds, 12, "every round's file was checked")
            XCTAssertEqual(found.lines, [], "every round's file parses whole, with every finished write in it")
        }
        // Whatever was killed, the next writer proceeds and cleans up after it.
        h.ok("write", "com.big", "after", "1")
        let names = try FileManager.default.contentsOfDirectory(atPath: h.config)
        XCTAssertEqual(names.filter { $0.hasPrefix(".") }, [], "no temporary files left")
        XCTAssertGreaterThan(killed, 0, "no writer was killed mid-way")
        print("killed \(killed) of 12 writers; \(finished.count - 1) finished")
    }

    /// Reads a round's copy (argument 1) with plistlib and prints a line for each way it
    /// falls short: not a dictionary, fewer keys than the 100,000 and the finished writes,
    /// a finished write's key (arguments 3…) missing.
    static let roundCheck = """
        import plistlib, sys
        path, round, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
        try:
            now = plistlib.load(open(path, "rb"))
        except Exception as error:
            print("round %s: %s" % (round, error)); sys.exit(0)
        if not isinstance(now, dict):
            print("round %s: the root is not a dictionary" % round); sys.exit(0)
        if len(now) < 100_000 + len(expected):
            print("round %s: %d keys" % (round, len(now)))
        for key in expected:
            if key not in now:
                print("round %s: %s lost" % (round, key))
        """

    /// What the killed-writers checks found, shared with the thread that parses.
    private final class Found: @unchecked Sendable {
        var lines: [String] = []
        var rounds = 0
    }

    /// A one-key write to a 100,000-key binary domain edits the file's objects instead of
    /// building every value (rebuilding the tree took over ten times the file), from a
    /// mapping whose pages it gives back as it goes (issue 50: 3.3 times the file at its
    /// peak, 1.7 over a trivial read's, when it held the file whole; 2.58 and 1.05 now): at
    /// most 2.8 times the file at its peak and 1.2 over the read's (its stored thresholds),
    /// and plistlib reads every other value unchanged. Memory, unlike time, is steady
    /// enough to test.
    func testOneKeyWriteOfABigBinaryDomainNeedsLittleMoreThanTheFile() throws {
        let big = h.path("com.big")
        let made = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import datetime, plistlib, sys
                d = {}
                for i in range(100_000):
                    k, t = "key%06d" % i, i % 6
                    d[k] = [i * 7919, i / 7.0, "value number %d" % i, bytes(24), ["item %d" % i, i], {"name": "e%d" % i, "n": i}][t]
                plistlib.dump(d, open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
                plistlib.dump({"k": 1}, open(sys.argv[2], "wb"))
                """, big, h.path("com.small"),
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        let baseline = try h.peakKB(["read", "com.small", "k"])
        let write = try h.peakKB(["write", "com.big", "key050007", "-int", "5"])
        print("peak \(write) KB, baseline \(baseline) KB, file \(size / 1024) KB")
        Thresholds.check(
            "StoreBehaviourTests",
            [
                "one-key binary write, growth over the file": Double((write - baseline) * 1024) / Double(size),
                "one-key binary write, peak over the file": Double(write * 1024) / Double(size),
            ])
        let check = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import plistlib, sys
                d = plistlib.load(open(sys.argv[1], "rb"))
                assert open(sys.argv[1], "rb").read(8) == b"bplist00", "still binary"
                assert d["key050007"] == 5 and d["key050002"] == ["item 50002", 50002] and len(d) == 100_000, "values"
                """, big,
            ])
        XCTAssertEqual(check.status, 0, check.stderr)
    }
}
