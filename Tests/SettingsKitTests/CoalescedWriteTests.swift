import Foundation
import SettingsKit
import SettingsStore
import Synchronization
import XCTest
import TestSupport

/// `Settings(domain:writes: .coalesced)` (issue 22 §3): a burst of sets is one write; reads
/// and observers see each set at once; `flush()`, the window and a normal exit write it.
final class CoalescedWriteTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    private var file: String { scratch.directory + "/com.example.burst.plist" }
    private func inode() -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? NSNumber)?.uint64Value
    }

    func testABurstIsOneWriteSeenAtOnce() throws {
        let settings = Settings(domain: "com.example.burst", directory: scratch.directory, writes: .coalesced)
        let seen = Mutex<[Int]>([])
        let key = SettingsKey<Int>("k0", default: -1)
        let token = settings.observe(key) { change in seen.withLock { $0.append(change.newValue) } }
        for i in 0..<100 { settings[SettingsKey<Int>("k\(i)", default: -1)] = i }
        settings[key] = 7
        XCTAssertEqual(settings[key], 7, "read at once")
        XCTAssertEqual(settings[SettingsKey<Int>("k99", default: -1)], 99)
        XCTAssertEqual(seen.withLock { $0 }, [0, 7], "observers hear each set at once")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "nothing written inside the window")
        try settings.flush()
        let written = inode()
        XCTAssertNotNil(written)
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.burst", "k99"]), "99\n")
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.burst", "k0"]), "7\n")
        try settings.flush()
        XCTAssertEqual(inode(), written, "nothing gathered, nothing written")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(seen.withLock { $0 }, [0, 7], "the watcher's sight of the flush is not delivered again")
        token.cancel()
    }

    func testTheWindowAndANormalExitWriteWhatWasGathered() {
        let settings = Settings(domain: "com.example.burst", directory: scratch.directory, writes: .coalesced)
        settings[SettingsKey<String>("name", default: "")] = "Ann"
        let deadline = Date().addingTimeInterval(2)
        while !FileManager.default.fileExists(atPath: file), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.burst", "name"]), "Ann\n")
        // Another process sets 500 keys and exits at once: the exit flushes them.
        scratch.run("SettingsKitProbe", ["coalesced", scratch.directory, "com.example.exit", "500"])
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.exit", "k499"]), "499\n")
    }

    func testModifyAndBatchFlushFirstAndManagedKeysAreRefusedAtOnce() throws {
        let settings = Settings(domain: "com.example.burst", directory: scratch.directory, writes: .coalesced)
        let count = SettingsKey<Int>("count", default: 0)
        settings[count] = 5
        try settings.modify(count) { $0 += 1 }
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.burst", "count"]), "6\n")
        settings[count] = 10
        try settings.batch { $0[SettingsKey<Int>("other", default: 0)] = 1 }
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.burst", "count"]), "10\n")
        let system = scratch.directory + "/xdg"
        setenv("XDG_CONFIG_DIRS", system, 1)
        defer { unsetenv("XDG_CONFIG_DIRS") }
        try FileManager.default.createDirectory(atPath: system + "/settings/managed", withIntermediateDirectories: true)
        try Data(#"{"count": 1}"#.utf8).write(
            to: URL(fileURLWithPath: system + "/settings/managed/com.example.burst.json"))
        let locked = Settings(domain: "com.example.burst", directory: scratch.directory, writes: .coalesced)
        XCTAssertThrowsError(try locked.set(2, for: count)) { error in
            XCTAssertEqual(
                error as? SettingsError,
                .store(.managed(key: "count", path: system + "/settings/managed/com.example.burst.json")))
        }
    }
}

/// After this process's own write the cache is the new file's, without reading it, but
/// only when it held the file the write replaced.
final class OwnWriteCacheTests: XCTestCase {
    func testAnotherWritersChangeBeforeOurWriteIsNotHidden() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let settings = Settings(domain: "com.example.cache", directory: scratch.directory)
        let a = SettingsKey<Int>("a", default: 0), b = SettingsKey<Int>("b", default: 0)
        settings[a] = 1
        XCTAssertEqual(settings[b], 0)
        // Another writer changes b; our next write replaces that file, so our cache
        // (of the file before) must not simply be patched with a.
        scratch.run("settings", ["write", "com.example.cache", "b", "-int", "5"])
        settings[a] = 2
        XCTAssertEqual(settings[b], 5)
        XCTAssertEqual(settings[a], 2)
        // Our own writes in a row, each read back at once.
        for i in 3...20 {
            settings[a] = i
            XCTAssertEqual(settings[a], i)
        }
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.cache", "a"]), "20\n")
    }
}

/// One parse per observed change: the write's own read of the file under its lock. The
/// read after it takes the written values, and the watcher, seeing the file this process
/// wrote, takes them from the cache too (counted as the opens of the domain file, from the
/// system door's own trace, `CallTrace`).
final class ParseCountTests: XCTestCase {
    func testAnObservedSetReadsTheFileOnce() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.run("settings", ["write", "com.example.parse", "count", "-int", "1"])
        let delivered = Mutex<[Int]>([])
        let (_, calls) = CallTrace.record(.all) {
            let settings = Settings(domain: "com.example.parse", directory: scratch.directory)
            let token = settings.observe(.parseCount) { change in delivered.withLock { $0.append(change.newValue) } }
            settings[.parseCount] += 1
            usleep(300_000)  // the watcher sees the write meanwhile
            token.cancel()
        }
        XCTAssertEqual(delivered.withLock { $0 }, [2])
        let opens = calls.filter {
            $0.name == "open" && $0.path == scratch.directory + "/com.example.parse.plist" && $0.result >= 0
        }
        // The first read (observe's current value; the watcher's start takes it from the
        // cache), then the write's read under its lock: nothing after.
        XCTAssertEqual(opens.count, 2, "\(opens)")
    }

    /// A warm read asks the process-wide folder watch once (one `read(2)` of its queue),
    /// however many files the lookup covers (the domain, the global domain, four
    /// administrators' files each), and makes no `stat` and no `open`.
    func testAWarmReadMakesOneReadOfTheWatchAndNoStat() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.run("settings", ["write", "com.example.warm", "count", "-int", "1"])
        let settings = Settings(domain: "com.example.warm", directory: scratch.directory)
        XCTAssertEqual(settings[.parseCount], 1)
        func calls(_ reads: Int) -> (reads: Int, others: Int) {
            let (sum, calls) = CallTrace.record {
                var sum = settings[.parseCount]
                for _ in 0..<reads { sum += settings[.parseCount] }
                return sum
            }
            XCTAssertEqual(sum, reads + 1)
            // A get's look at the watch is the read that finds the queue empty (EAGAIN).
            // Events of the folders above the config folder (a busy /tmp) are read too, with
            // data, and only counted out: they change nothing the get does.
            let quiet = calls.filter { $0.name == "read" && $0.result < 0 && $0.error == EAGAIN }.count
            return (quiet, calls.filter { $0.name != "read" }.count)
        }
        let few = calls(10), many = calls(1010)
        XCTAssertEqual(many.reads - few.reads, 1000, "one look at the watch per get")
        XCTAssertEqual(many.others - few.others, 0, "no stat, no open on a warm get")
        XCTAssertGreaterThan(few.reads, 0, "the trace saw the gets")
    }
}

extension SettingsKeys {
    fileprivate static let parseCount = SettingsKey<Int>("count", default: 0)
}
