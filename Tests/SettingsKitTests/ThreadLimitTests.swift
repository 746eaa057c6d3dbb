import Foundation
import Synchronization
import XCTest

@testable import SettingsKit
import SettingsStore

/// Issue 32: at the system's limit of threads, `pthread_create` fails. A coalesced write
/// is then written at once, and observing says it cannot watch; nothing traps and nothing
/// is lost. The failure is forced with a stack no system can give.
final class ThreadLimitTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() {
        scratch = Scratch()
        BackgroundThread.stackSize = 1 << 46
    }
    override func tearDown() {
        BackgroundThread.stackSize = 0
        scratch.remove()
    }

    func testAThreadThatCannotStartIsAnError() {
        XCTAssertThrowsError(try BackgroundThread {}) { XCTAssertEqual($0 as? Errno, Errno(EAGAIN)) }
        BackgroundThread.stackSize = 0
        let ran = Mutex(false)
        let thread = try? BackgroundThread { ran.withLock { $0 = true } }
        thread?.join()
        XCTAssertTrue(ran.withLock { $0 })
    }

    func testACoalescedSetIsWrittenAtOnce() {
        let errors = Mutex<[SettingsError]>([])
        let settings = Settings(
            domain: "com.example.limit", directory: scratch.directory, writes: .coalesced,
            errorHandler: { error in errors.withLock { $0.append(error) } })
        settings[SettingsKey<Int>("k", default: 0)] = 5
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.limit", "k"]), "5\n")
        XCTAssertEqual(errors.withLock { $0 }.count, 0)
    }

    func testObservingSaysItCannotWatch() {
        let errors = Mutex<[SettingsError]>([])
        let settings = Settings(
            domain: "com.example.limit", directory: scratch.directory,
            errorHandler: { error in errors.withLock { $0.append(error) } })
        let token = settings.observe(SettingsKey<Int>("k", default: 0)) { _ in }
        let said = errors.withLock { $0 }.map(\.message)
        XCTAssertEqual(said.count, 1, "\(said)")
        XCTAssertTrue(said.first?.hasPrefix("cannot watch ") ?? false, "\(said)")
        token.cancel()
        settings[SettingsKey<Int>("k", default: 0)] = 1
        XCTAssertEqual(settings[SettingsKey<Int>("k", default: 0)], 1)
    }
}
