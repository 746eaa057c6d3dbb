import Foundation
import SettingsKit
import XCTest

/// Each test gets a fresh domain in a fresh folder, as each peer test gets a fresh suite.
class PeerTestCase: XCTestCase {
    var folder = ""
    var settings: Settings!

    override func setUp() {
        folder = NSTemporaryDirectory() + "peer-suites-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        settings = Settings(domain: "com.peers.suite", directory: folder)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// A second `Settings` on the same file: what the peers reach as the suite's
    /// `UserDefaults` (and what another process would read).
    var suite: Settings { Settings(domain: "com.peers.suite", directory: folder) }

    /// The domain's file as Foundation reads it.
    var file: [String: Any] {
        let path = folder + "/com.peers.suite.plist"
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
    }
}

/// Collects what an observer was told, across threads.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []
    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var values: [Value] { lock.withLock { items } }
}

/// Waits up to `seconds` for `condition`, polling; for deliveries from the watcher thread.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
