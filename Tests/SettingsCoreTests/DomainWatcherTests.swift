import Foundation
import XCTest
@testable import SettingsCore

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
        XCTAssertNoThrow(try store.update(.named(domain), host: .any, key: key) { $0 = value; return true })
    }

    /// Runs `body` on another thread after `delay`, while the test waits on the watcher.
    private func later(_ delay: Double = 0.1, _ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { Thread.sleep(forTimeInterval: delay); body() }
    }

    func testAnAtomicWriteIsOneChange() throws {
        set("volume", .int(1))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        let store = self.store!
        later { try? store.update(.named("com.w"), host: .any, key: "music") { $0 = .bool(true); return true } }
        XCTAssertEqual(try watcher.next(timeout: 5), [DomainWatcher.Change(key: "music", old: nil, new: .bool(true))])
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
            XCTAssertEqual(try watcher.next(timeout: 5), [DomainWatcher.Change(key: "n", old: .int(Int64(i - 1)), new: .int(Int64(i)))])
        }
    }

    func testABurstIsOneChangeAndARevertIsNone() throws {
        set("n", .int(0))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any, debounce: 0.2)
        let store = self.store!
        later(0.05) { for i in 1...20 { try? store.update(.named("com.w"), host: .any, key: "n") { $0 = .int(Int64(i)); return true } } }
        XCTAssertEqual(try watcher.next(timeout: 5), [DomainWatcher.Change(key: "n", old: .int(0), new: .int(20))])
        later(0.05) {
            try? store.update(.named("com.w"), host: .any, key: "n") { $0 = .int(99); return true }
            try? store.update(.named("com.w"), host: .any, key: "n") { $0 = .int(20); return true }
        }
        XCTAssertNil(try watcher.next(timeout: 1), "a write and its revert in one window")
    }

    func testOtherDomainsAreIgnoredAndARemovalIsReported() throws {
        set("volume", .int(3))
        let watcher = try DomainWatcher(store: store, domain: .named("com.w"), host: .any)
        let store = self.store!
        later { try? store.update(.named("com.other"), host: .any, key: "k") { $0 = .int(1); return true } }
        XCTAssertNil(try watcher.next(timeout: 0.6))
        let path = store.path(of: .named("com.w"), host: .any)
        later { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try watcher.next(timeout: 5), [DomainWatcher.Change(key: "volume", old: .int(3), new: nil)])
    }

    func testAFolderThatDoesNotExistYet() throws {
        let deep = DomainStore(directory: directory + "/not/yet")
        let watcher = try DomainWatcher(store: deep, domain: .named("com.w"), host: .current)
        later { try? deep.update(.named("com.w"), host: .current, key: "k") { $0 = .string("v"); return true } }
        XCTAssertEqual(try watcher.next(timeout: 5), [DomainWatcher.Change(key: "k", old: nil, new: .string("v"))])
    }

    func testDifferenceIsPerKeyAndSorted() {
        let changes = DomainWatcher.difference(from: ["a": .int(1), "b": .int(2), "c": .int(3)], to: ["b": .int(2), "c": .int(4), "d": .int(5)])
        XCTAssertEqual(changes.map(\.key), ["a", "c", "d"])
        XCTAssertEqual(changes.map(\.new), [nil, .int(4), .int(5)])
    }
}
