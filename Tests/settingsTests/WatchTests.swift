import Foundation
import Synchronization
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// `settings watch` as a script uses it: the real binary in the background, writes from
/// other processes, lines on its standard output.
final class WatchTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// Returns once `process` (a `watch`) blocks in poll(2), waiting for the kernel's
    /// events: its watches are armed and its first snapshot read, so a change made now is
    /// reported. Reading /proc instead of sleeping a fixed time is both faster and free of
    /// the race a slow machine would lose. At most 10 s.
    static func waitUntilWaiting(_ process: Process) {
        let deadline = Date().addingTimeInterval(10)
        let path = "/proc/\(process.processIdentifier)/syscall"
        while Date() < deadline, process.isRunning {
            // The first field is the number of the system call it is blocked in: poll or ppoll on x86_64, ppoll on arm64.
            let call = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: " ").first
            #if arch(x86_64)
                if call == "7" || call == "271" { return }
            #else
                if call == "73" { return }
            #endif
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Returns once `process` sleeps in nanosleep(2), as a writer does between its tries of
    /// a lock another holds (`FileSystem.lockExclusive`): it has reached the lock and
    /// waits there. At most 10 s.
    static func waitUntilSleeping(_ process: Process) {
        let deadline = Date().addingTimeInterval(10)
        let path = "/proc/\(process.processIdentifier)/syscall"
        while Date() < deadline, process.isRunning {
            // nanosleep or clock_nanosleep: 35 or 230 on x86_64, 101 or 115 on arm64.
            let call = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: " ").first
            #if arch(x86_64)
                if call == "35" || call == "230" { return }
            #else
                if call == "101" || call == "115" { return }
            #endif
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// A `settings watch` running in the background: `waitForLines` waits for what it has
    /// printed so far, and calling it waits for it to end and returns status and output.
    final class Watching {
        let process: Process
        private let out: Pipe, err: Pipe
        private var output = Data(), error = Data()

        init(_ process: Process, out: Pipe, err: Pipe) { (self.process, self.out, self.err) = (process, out, err) }

        /// Returns once the watch has printed `count` lines in all on standard output (or
        /// `error`), or has ended: a change it reported, waited on instead of a sleep.
        func waitForLines(_ count: Int, onError: Bool = false) {
            let handle = (onError ? err : out).fileHandleForReading
            while (onError ? error : output).count(where: { $0 == UInt8(ascii: "\n") }) < count {
                let more = handle.availableData
                if more.isEmpty { return }
                if onError { error += more } else { output += more }
            }
        }

        func callAsFunction() -> (Int32, String, String) {
            output += out.fileHandleForReading.readDataToEndOfFile()
            error += err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: output, as: UTF8.self),
                String(decoding: error, as: UTF8.self)
            )
        }
    }

    /// Starts `settings watch ARGS…` and, unless told not to (the caller then waits for it
    /// with `waitUntilWaiting`), waits until it waits for changes; calling the result waits
    /// for it to end and returns status and output. `options` go before the verb
    /// (`-currentHost`).
    private func watch(
        _ arguments: [String], config: String? = nil, options: [String] = [], environment extra: [String: String] = [:],
        waiting: Bool = true
    ) throws -> Watching {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = options + ["watch"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config ?? h.config
        environment["HOME"] = h.config + "/home"
        environment["XDG_CONFIG_DIRS"] = h.system
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if waiting { Self.waitUntilWaiting(process) }
        return Watching(process, out: out, err: err)
    }

    func testOneWriteIsExactlyOneLine() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "--count", "1"])
        h.ok("write", "com.w", "music", "-bool", "true")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "music\t1\n")
    }

    /// Our atomic renames alternating with a real Foundation `UserDefaults` writer,
    /// which rewrites the file in place: six changes, six lines, no deletion.
    func testAtomicWritesAndFoundationWritesAlternating() throws {
        h.ok("write", "com.w", "n", "-int", "0")
        let finish = try watch(["com.w", "--count", "6", "--debounce", "20", "--timeout", "20"])
        for i in 1...3 {
            h.ok("write", "com.w", "n", "-int", "\(2 * i - 1)")
            finish.waitForLines(2 * i - 1)
            let r = h.exec(Harness.probe, ["set", "com.w", "n", "int", "\(2 * i)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            finish.waitForLines(2 * i)
        }
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, (1...6).map { "n\t\($0)\n" }.joined())
    }

    /// Nothing changed before --timeout: status 124, as timeout(1), and one line (issue 19).
    func testOtherDomainsOnlyTimeOutWithStatus124() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "--timeout", "0.3"])
        h.ok("write", "com.other", "music", "-bool", "true")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 124)
        XCTAssertEqual(out, "")
        XCTAssertEqual(err, "settings: no change to com.w in 0.3 s\n")
    }

    func testAKeyFilterAndADeletedFile() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "volume", "--count", "1"])
        h.ok("write", "com.w", "music", "-bool", "true")
        h.ok("write", "com.w", "list", "-array", "a", "b")
        try FileManager.default.removeItem(atPath: h.path("com.w"))
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "volume\t(deleted)\n")
    }

    func testInitialValuesThenAChangeOnOneLineEach() throws {
        h.ok("write", "com.w", "list", "-array", "a", "b c")
        h.ok("write", "com.w", "text", "-string", "two\nlines")
        let finish = try watch(["com.w", "--initial", "--count", "1"])
        h.ok("write", "com.w", "map", "-dict", "k", "v")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "list\t( a, \"b c\" )\ntext\t\"two\\nlines\"\nmap\t{ k = v; }\n")
    }

    func testAConfigFolderThatDoesNotExistYet() throws {
        let later = h.config + "/later/config"
        let finish = try watch(["com.w", "--count", "1"], config: later)
        let r = h.run(["write", "com.w", "k", "v"], environment: ["XDG_CONFIG_HOME": later])
        XCTAssertEqual(r.status, 0, r.stderr)
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "k\tv\n")
    }

    func testASignalEndsItWithStatus0AndBadOptionsWith2() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["watch", "com.w"]
        process.environment = ["XDG_CONFIG_HOME": h.config, "HOME": h.config]
        try process.run()
        Self.waitUntilWaiting(process)
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        for (arguments, message) in [
            (["watch", "com.w", "--count", "0"], "a whole number from 1 to 9223372036854775807"),
            (["watch", "com.w", "--timeout", "-1"], "a number from 0 to 31536000"),
            (["watch", "com.w", "--bogus"], "unknown option '--bogus' for watch"),
            (["watch"], "watch needs a domain"),
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments)")
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
    }

    /// Must-show 1: `--json --count 1` and one write print exactly one `set` record.
    func testJSONOneWriteIsOneSetRecord() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "--json", "--count", "1"])
        h.ok("write", "com.w", "music", "-bool", "true")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        let lines = out.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, out)
        let record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(record["domain"] as? String, "com.w")
        XCTAssertEqual(record["key"] as? String, "music")
        XCTAssertEqual(record["path"] as? String, "/music")
        XCTAssertEqual(record["change"] as? String, "set")
        XCTAssertTrue(record["old"] is NSNull)
        XCTAssertEqual(record["new"] as? Bool, true)
        XCTAssertEqual(Array(record.keys).sorted(), ["change", "domain", "key", "new", "old", "path"])
    }

    /// Values in records use the JSON mapping: checked with Python's json, an independent reader.
    func testJSONRecordsUseTheMappingForEveryType() throws {
        h.ok("write", "com.w", "when", "-date", "2024-01-02 03:04:05 +0000")
        h.ok("write", "com.w", "blob", "-data", "00ff")
        h.ok("write", "com.w", "ratio", "-float", "1")
        h.ok("write", "com.w", "big", "-int", "9223372036854775807")
        h.ok("write", "com.w", "tile", "-dict", "a/b", "-string", "x")
        let finish = try watch(["com.w", "--json", "--initial", "--count", "1"])
        h.ok("delete", "com.w", "ratio")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        let script = """
            import json, sys
            for line in sys.stdin:
                r = json.loads(line)
                print(r["change"], r["path"], json.dumps(r["old"]), json.dumps(r["new"]), type(r["new"]).__name__)
            """
        let r = h.exec("/usr/bin/env", ["python3", "-c", script], stdin: Data(out.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stdout,
            """
            initial /big null 9223372036854775807 int
            initial /blob null {"$data": "AP8="} dict
            initial /ratio null 1.0 float
            initial /tile null {"a/b": "x"} dict
            initial /when null {"$date": "2024-01-02T03:04:05Z"} dict
            delete /ratio 1.0 null NoneType

            """)
    }

    /// `-p` watches one place inside a value: a change elsewhere in the same key prints nothing.
    func testAPointerWatchesOnePlaceInsideAKey() throws {
        h.ok("write", "com.w", "window", "-dict", "frame", "(1, 2)", "title", "x")
        let finish = try watch(["com.w", "-p", "/window/frame/0", "--count", "1"])
        h.ok("write", "com.w", "window", "-dict", "frame", "(1, 2)", "title", "y")
        Thread.sleep(forTimeInterval: 0.2)
        h.ok("write", "com.w", "other", "-int", "1")
        Thread.sleep(forTimeInterval: 0.2)
        h.ok("write", "com.w", "window", "-dict", "frame", "(5, 2)", "title", "y")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "/window/frame/0\t5\n")
    }

    func testBadPointersAreUsageErrors() {
        for (pointer, message) in [
            ("window", "must be empty or start with '/'"), ("/a~2", "'~' must be followed by 0"),
            ("", "names the whole domain"),
        ] {
            let r = h.run(["watch", "com.w", "-p", pointer])
            XCTAssertEqual(r.status, 2, pointer)
            XCTAssertTrue(r.stderr.hasPrefix("settings: invalid -p: ") && r.stderr.contains(message), r.stderr)
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
        }
    }

    /// `complete paths D` feeds `-p` completion: a pointer for every value, escaped.
    func testCompletePathsListsEveryPointer() {
        h.ok("write", "com.w", "window", "-dict", "a/b", "(1, { x = 2; })", "t~", "y")
        XCTAssertEqual(
            h.ok("complete", "paths", "com.w"),
            "/window\n/window/a~1b\n/window/a~1b/0\n/window/a~1b/1\n/window/a~1b/1/x\n/window/t~0\n")
        XCTAssertEqual(h.ok("complete", "paths", "com.none"), "")
    }

    /// Must-show 3, against the real binary: 20 writes in a few milliseconds are one line
    /// with the final value, and a write with its revert inside the window is none: the
    /// next line is a later change's, written three windows after the revert (a line for
    /// the revert would come first, and `--count 2` ends the watch on it).
    func testABurstIsOneLineAndARevertIsNone() throws {
        h.ok("write", "com.w", "n", "-int", "0")
        let store = DomainStore(directory: h.config)
        let finish = try watch(["com.w", "--count", "2", "--timeout", "20", "--debounce", "100"])
        let start = DomainWatcher.clock()
        for i in 1...20 {
            try store.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(Int64(i)); return true
            }
        }
        let burst = DomainWatcher.clock() - start
        finish.waitForLines(1)
        try store.update(.named("com.w"), host: .any, key: "n") {
            $0 = .int(99); return true
        }
        try store.update(.named("com.w"), host: .any, key: "n") {
            $0 = .int(20); return true
        }
        Thread.sleep(forTimeInterval: 0.3)
        try store.update(.named("com.w"), host: .any, key: "later") {
            $0 = .int(1); return true
        }
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "n\t20\nlater\t1\n", "20 writes in \(Int(burst * 1000)) ms")
    }

    /// The global domain, a -currentHost domain and a path domain are watched like any other.
    func testGlobalCurrentHostAndPathDomains() throws {
        // Three watches at once, each seeing only its own domain's write among the four.
        let file = h.config + "/elsewhere/Info.plist"
        try FileManager.default.createDirectory(atPath: h.config + "/elsewhere", withIntermediateDirectories: true)
        let global = try watch(["-g", "--count", "1"], waiting: false)
        let byHost = try watch(["com.w", "--count", "1"], options: ["-currentHost"], waiting: false)
        let path = try watch([file, "--count", "1"], waiting: false)
        for watching in [global, byHost, path] { Self.waitUntilWaiting(watching.process) }

        h.ok("write", "com.w", "plain", "1")  // not the ByHost file: ignored
        h.ok("write", "NSGlobalDomain", "AppleLocale", "en_GB")
        h.ok("-currentHost", "write", "com.w", "screen", "-int", "2")
        h.ok("write", file, "CFBundleVersion", "42")
        XCTAssertEqual(global().1, "AppleLocale\ten_GB\n")
        XCTAssertEqual(byHost().1, "screen\t2\n")
        XCTAssertEqual(path().1, "CFBundleVersion\t42\n")
    }

    /// A file that stops parsing is one line on stderr, never every key deleted; it is
    /// left byte for byte as it is, and the next good write is seen again.
    func testACorruptFileIsReportedOnceAndNeverAsDeletions() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "--count", "1"], environment: ["SETTINGS_READ_RETRY": "0.1"])
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>volume</key>".utf8)
        try garbage.write(to: URL(fileURLWithPath: h.path("com.w")), options: .atomic)
        finish.waitForLines(1, onError: true)  // past the store's retries
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.path("com.w"))), garbage)
        try Data(XMLWriter.encode(.dict(["volume": .int(4)]))).write(
            to: URL(fileURLWithPath: h.path("com.w")), options: .atomic)
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "volume\t4\n")
        let lines = err.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, err)
        XCTAssertTrue(lines.first?.hasPrefix("settings: cannot parse \(h.path("com.w")): XML") ?? false, err)
    }

    // MARK: Attacks (issue 18)

    /// Another domain in the folder rewritten every 20 ms does not hold back the
    /// watched domain's change: the quiet window is the watched file's.
    func testABusyNeighbourDoesNotStarveTheWatch() throws {
        h.ok("write", "com.w", "k", "0")
        let store = DomainStore(directory: h.config)
        let stop = Atomic(false)
        let noise = Thread {
            var i: Int64 = 0
            while !stop.load(ordering: .relaxed) {
                i += 1
                _ = try? store.update(.named("com.noise"), host: .any, key: "n") {
                    $0 = .int(i); return true
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        noise.start()
        defer { stop.store(true, ordering: .relaxed) }
        let finish = try watch(["com.w", "--count", "1", "--timeout", "5"])
        let start = Date()
        h.ok("write", "com.w", "k", "1")
        let (status, out, err) = finish()
        let latency = Date().timeIntervalSince(start)
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "k\t1\n")
        XCTAssertLessThan(latency, 1.5, "the change waited for the neighbour to stop")
    }

    /// `watch com.app` sees `com.App.plist` being created, as `read com.app` finds it.
    func testACaseVariantOfTheFileIsSeen() throws {
        let finish = try watch(["com.app", "--count", "1", "--timeout", "5"])
        h.ok("write", "com.App", "k", "1")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "k\t1\n")
    }

    /// The config folder is a link, re-pointed while watching: the watch follows and
    /// reports the new folder's values, then its changes.
    func testARePointedConfigFolderIsFollowed() throws {
        for name in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: h.config + "/" + name, withIntermediateDirectories: true)
        }
        try DomainStore(directory: h.config + "/A").update(.named("com.w"), host: .any, key: "k") {
            $0 = .int(1); return true
        }
        try DomainStore(directory: h.config + "/B").update(.named("com.w"), host: .any, key: "k") {
            $0 = .int(2); return true
        }
        try FileManager.default.createSymbolicLink(atPath: h.config + "/cfg", withDestinationPath: "A")
        let finish = try watch(["com.w", "--count", "2", "--timeout", "5"], config: h.config + "/cfg")
        try FileManager.default.createSymbolicLink(atPath: h.config + "/cfg.new", withDestinationPath: "B")
        XCTAssertEqual(rename(h.config + "/cfg.new", h.config + "/cfg"), 0)
        finish.waitForLines(1)
        try DomainStore(directory: h.config + "/cfg").update(.named("com.w"), host: .any, key: "k") {
            $0 = .int(3); return true
        }
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "k\t2\nk\t3\n")
    }

    /// The watch shows the domain as readers see it: a managed file made, changed and
    /// removed (its folders made after the watch started) is a change of the key.
    func testAnAdministratorsFilesAreWatchedToo() throws {
        h.ok("write", "com.w", "volume", "-int", "3")
        let finish = try watch(["com.w", "--count", "3", "--timeout", "20"])
        h.admin("managed", "com.w.json", #"{"volume": 9}"#)
        finish.waitForLines(1)
        h.admin("defaults", "com.w.plist", "{ theme = dark; }")
        finish.waitForLines(2)
        try FileManager.default.removeItem(atPath: h.system + "/settings/managed/com.w.json")
        let (status, out, err) = finish()
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "volume\t9\ntheme\tdark\nvolume\t3\n")
    }
}
