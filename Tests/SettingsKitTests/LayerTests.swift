import Foundation
import SettingsKit
import SettingsStore
import Synchronization
import XCTest

/// SettingsKit reads through an administrator's layers as the command line does (issue
/// 21): a managed value wins, a machine-wide one fills in, a change to either is seen
/// at once and observed, and a managed key cannot be set.
final class LayerTests: XCTestCase {
    var scratch: Scratch!
    var system: String { scratch.directory + "/xdg" }

    override func setUp() {
        scratch = Scratch()
        setenv("XDG_CONFIG_DIRS", system, 1)
    }

    override func tearDown() {
        unsetenv("XDG_CONFIG_DIRS")
        scratch.remove()
    }

    private func admin(_ layer: String, _ name: String, _ text: String) throws {
        let dir = system + "/settings/" + layer
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let temporary = dir + "/.new"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        _ = rename(temporary, dir + "/" + name)
    }

    func testManagedAndMachineValuesAreReadAndSeenAtOnce() throws {
        let errors = Mutex<[SettingsError]>([])
        let settings = Settings(domain: "com.example.layers", directory: scratch.directory) { error in
            errors.withLock { $0.append(error) }
        }
        let volume = SettingsKey<Int>("volume", default: 50)
        let theme = SettingsKey<String>("theme", default: "light")
        try settings.set(70, for: volume)
        XCTAssertEqual(settings[theme], "light")
        // The folders appear after the first read: the cache must notice.
        try admin("defaults", "com.example.layers.plist", "{ theme = dark; volume = 10; }")
        XCTAssertEqual(settings[theme], "dark")
        XCTAssertEqual(settings[volume], 70, "the user's own value is above the machine's")
        let seen = Mutex<[Int]>([])
        let token = settings.observe(volume) { change in seen.withLock { $0.append(change.newValue) } }
        try admin("managed", "com.example.layers.json", #"{"volume": 30}"#)
        XCTAssertEqual(settings[volume], 30, "a managed value wins")
        let deadline = Date().addingTimeInterval(3)
        while seen.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(seen.withLock { $0 }, [30], "observation reports the managed file's change")
        token.cancel()
        XCTAssertThrowsError(try settings.set(80, for: volume)) { error in
            XCTAssertEqual(
                error as? SettingsError,
                .store(.managed(key: "volume", path: system + "/settings/managed/com.example.layers.json")))
        }
        try settings.set("blue", for: theme)
        XCTAssertEqual(settings[theme], "blue")
        // A managed file that does not parse is reported once and locks nothing.
        try admin("managed", "com.example.layers.json", "{")
        XCTAssertEqual(settings[volume], 70)
        XCTAssertEqual(settings[volume], 70)
        XCTAssertEqual(errors.withLock { $0.count }, 1, "\(errors.withLock { $0 })")
        try settings.set(71, for: volume)
        XCTAssertEqual(settings[volume], 71)
    }
}
