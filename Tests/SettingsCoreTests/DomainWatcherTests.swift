import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The watcher sees net changes made every way a domain file changes: our atomic
/// rename, an in-place rewrite as Foundation does it, a removal, a folder that appears.
final class DomainWatcherTests: XCTestCase {
    var directory: String!
    var store: DomainStore!

    override func setUp() {
        directory = NSTemporaryDirectory() + "watch-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = DomainStore(directory: directory)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func set(_ key: String, _ value: PlistValue?, in domain: String = "com.w") {
        XCTAssertNoThrow(
            try store.update(.named(domain), host: .any, key: key) {
                $0 = value; return true
            })
    }

    /// Runs `body` on another thread after `delay`, while the test waits on the watcher.
    private func later(_ delay: Double = 0.02, _ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: delay); body()
        }
    }

    func testAnAtomicWriteIsOneChange() throws {
        set("volume", .int(1))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        let store = self.store!
        later {
            _ = try? store.update(.named("com.w"), host: .any, key: "music") {
                $0 = .bool(true); return true
            }
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "music", old: nil, new: .bool(true))])
    }

    /// Foundation truncates and rewrites the file in place; no empty moment is reported
    /// as every key deleted.
    func testInPlaceRewritesAreSeenWithoutSpuriousDeletions() throws {
        set("n", .int(0))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        let path = store.path(of: .named("com.w"), host: .any)
        for i in 1...3 {
            later {
                let handle = FileHandle(forWritingAtPath: path)!
                handle.truncateFile(atOffset: 0)
                Thread.sleep(forTimeInterval: 0.02)  // the empty file is visible for a moment
                handle.write(Data(XMLWriter.encode(.dict(["n": .int(Int64(i))]))))
                handle.closeFile()
            }
            XCTAssertEqual(
                try watcher.next(timeout: 5), [KeyChange(key: "n", old: .int(Int64(i - 1)), new: .int(Int64(i)))])
        }
    }

    func testABurstIsOneChangeAndARevertIsNone() throws {
        set("n", .int(0))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any, debounce: 0.2)
        let store = self.store!
        later {
            for i in 1...20 {
                _ = try? store.update(.named("com.w"), host: .any, key: "n") {
                    $0 = .int(Int64(i)); return true
                }
            }
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "n", old: .int(0), new: .int(20))])
        later {
            _ = try? store.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(99); return true
            }
            _ = try? store.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(20); return true
            }
        }
        XCTAssertNil(try watcher.next(timeout: 0.5), "a write and its revert in one window")
    }

    func testOtherDomainsAreIgnoredAndARemovalIsReported() throws {
        set("volume", .int(3))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        // Queued before `next`, so it is read whatever the machine's load.
        set("k", .int(1), in: "com.other")
        XCTAssertNil(try watcher.next(timeout: 0.2))
        let path = store.path(of: .named("com.w"), host: .any)
        later { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "volume", old: .int(3), new: nil)])
    }

    func testAFolderThatDoesNotExistYet() throws {
        let deep = DomainStore(directory: directory + "/not/yet")
        let watcher = try DomainWatcher(store: deep, domain: .named("com.w"), host: .current)
        later {
            _ = try? deep.update(.named("com.w"), host: .current, key: "k") {
                $0 = .string("v"); return true
            }
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "k", old: nil, new: .string("v"))])
    }

    func testDifferenceIsPerKeyAndSorted() {
        let changes = (["b": .int(2), "c": .int(4), "d": .int(5)] as PlistDictionary).changes(from: [
            "a": .int(1), "b": .int(2), "c": .int(3),
        ])
        XCTAssertEqual(changes.map(\.key), ["a", "c", "d"])
        XCTAssertEqual(changes.map(\.new), [nil, .int(4), .int(5)])
    }

    /// SettingsKit stops an observation from another thread: `next` returns nil at once
    /// and keeps returning nil.
    func testCancelFromAnotherThreadEndsAWaitingNext() throws {
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        let canceller = watcher.canceller
        later(0.05) { canceller.cancel() }
        let start = DomainWatcher.clock()
        XCTAssertNil(try watcher.next())
        XCTAssertLessThan(DomainWatcher.clock() - start, 2)
        XCTAssertNil(try watcher.next(timeout: 5))
        XCTAssertLessThan(DomainWatcher.clock() - start, 2, "a cancelled watcher does not wait again")
    }

    /// Every watcher's descriptors (inotify and the cancel signal) close with it: each
    /// one the system door made on this thread (`CallTrace`) is closed again. (Counting
    /// `/proc/self/fd` saw other tests' threads hold descriptors for a moment.)
    func testAWatcherLeavesNoDescriptorOpen() throws {
        let (_, calls) = try CallTrace.record {
            for _ in 0..<10 {
                let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
                let canceller = watcher.canceller
                canceller.cancel()
                XCTAssertNil(try watcher.next())
            }
        }
        XCTAssertEqual(calls.filter { $0.name == "inotify_init1" && $0.result >= 0 }.count, 10, "a queue each")
        XCTAssertEqual(calls.filter { $0.name == "pipe" && $0.result >= 0 }.count, 20, "a cancel signal each")
        XCTAssertEqual(CallTrace.leftOpen(calls).count, 0, "left open: \(CallTrace.leftOpen(calls).values)")
    }

    /// A domain kept in a dotfiles repository and linked into the config folder: writes
    /// to the link's target, in its own folder, are changes of the domain.
    func testASymlinkedDomainIsWatchedAtItsTarget() throws {
        let elsewhere = directory + "/dotfiles"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let target = DomainStore(directory: elsewhere)
        XCTAssertNoThrow(
            try target.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(1); return true
            })
        try FileManager.default.createSymbolicLink(
            atPath: store.path(of: .named("com.w"), host: .any),
            withDestinationPath: "dotfiles/com.w.plist")
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        XCTAssertEqual(watcher.values, ["n": .int(1)])
        later {
            _ = try? target.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(2); return true
            }
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "n", old: .int(1), new: .int(2))])
        // Pointing the link elsewhere is a change too, and the new target is watched.
        let third = DomainStore(directory: directory + "/other")
        XCTAssertNoThrow(
            try third.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(3); return true
            })
        let link = store.path(of: .named("com.w"), host: .any)
        later {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "other/com.w.plist")
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "n", old: .int(2), new: .int(3))])
        later {
            _ = try? third.update(.named("com.w"), host: .any, key: "n") {
                $0 = .int(4); return true
            }
        }
        XCTAssertEqual(try watcher.next(timeout: 5), [KeyChange(key: "n", old: .int(3), new: .int(4))])
    }
}
