import Foundation
import PlistModel
import PlistCodecs
import SettingsStore
import SettingsKit
import Synchronization
import XCTest

// The seeds' own examples, ported to SettingsKit: each compiles and runs on Linux.

// Seed 000 (FSUserDefaults): properties persisted by their type code.
// Seed 001 (KVO with UserDefaults): music switches and volumes clamped to 0...100.
// Seed 002 (SwiftyUserDefaults): DefaultsKey with += and optionals.
// Seed 004 (@UserDefault property wrapper): Optional and RawRepresentable values.
extension SettingsKeys {
    static let anInteger = SettingsKey<Int>("anInteger", default: 0)
    static let aString = SettingsKey<String?>("aString")
    static let music = SettingsKey<Bool>("music", default: true)
    static let sounds = SettingsKey<Bool>("sounds", default: true)
    static let musicVolume = SettingsKey<Float>("musicVolume", default: 50, clampedTo: 0...100)
    static let soundsVolume = SettingsKey<Float>("soundsVolume", default: 50, clampedTo: 0...100)
    static let color = SettingsKey<String?>("color")
    static let counter = SettingsKey<Int>("counter", default: 0)
    static let magic = SettingsKey<Double>("magic", default: 0)
    static let theme = SettingsKey<Theme>("theme", default: .system)
    static let accent = SettingsKey<Theme?>("accent")
    static let nickname = SettingsKey<String?>("nickname")
}

enum Theme: String, SettingsValue { case light, dark, system }

final class SeedExampleTests: XCTestCase {
    var scratch: Scratch!
    var settings: Settings!

    override func setUp() {
        scratch = Scratch()
        settings = Settings(domain: "com.example.seeds", directory: scratch.directory)
    }

    override func tearDown() { scratch.remove() }

    private func type(_ key: String) -> String {
        scratch.run("settings", ["read-type", "com.example.seeds", key]).trimmingCharacters(in: .newlines)
    }

    /// Seed 000: `MyDefaults.shared.anInteger = anInteger`, `aString = "aString"`.
    func testTypeCodeProperties() {
        XCTAssertEqual(settings[.anInteger], 0)
        XCTAssertNil(settings[.aString])
        settings[.anInteger] = 42
        settings[.aString] = "aString"
        XCTAssertEqual(settings[.anInteger], 42)
        XCTAssertEqual(settings[.aString], "aString")
        XCTAssertEqual(type("anInteger"), "Type is integer")
        XCTAssertEqual(type("aString"), "Type is string")
        settings[.aString] = nil
        XCTAssertNil(settings[.aString])
        XCTAssertFalse(settings.contains(.aString))
    }

    /// Seed 001: switches and clamped volumes, observed as the seed's MusicController does.
    func testClampedVolumesWithObserve() throws {
        let seen = Mutex<[String]>([])
        let musicObserver = settings.observe(.music) { change in seen.withLock { $0.append("music \(change.newValue)") }
        }
        let volumeObserver = settings.observe(.musicVolume) { change in
            seen.withLock { $0.append("volume \(change.oldValue)->\(change.newValue)") }
        }
        settings[.music] = false
        settings[.musicVolume] = 150
        XCTAssertEqual(settings[.musicVolume], 100)
        settings[.musicVolume] = 100  // the same value: nothing delivered
        settings[.musicVolume] = -3
        XCTAssertEqual(settings[.musicVolume], 0)
        XCTAssertEqual(type("musicVolume"), "Type is float")
        // Let the watcher see our own writes too: they must not be delivered again.
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(seen.withLock { $0 }, ["music false", "volume 50.0->100.0", "volume 100.0->0.0"])
        musicObserver.cancel()
        volumeObserver.cancel()
    }

    /// Seed 002: `Defaults[.counter] += 1`, optional keys, `Defaults["magic"] += 10`.
    func testDefaultsKeysWithPlusEqualsAndOptionals() {
        settings[.counter] += 1
        settings[.counter] += 1
        XCTAssertEqual(settings[.counter], 2)
        XCTAssertNil(settings[.color])
        settings[.color] = "red"
        XCTAssertEqual(settings[.color], "red")
        settings[.magic] = 3.14
        settings[.magic] += 10
        XCTAssertEqual(settings[.magic], 13.14, accuracy: 1e-9)
        XCTAssertEqual(type("magic"), "Type is float")
        settings[.color] = nil
        XCTAssertNil(settings[.color])
    }

    /// Seed 004: `@UserDefault(key:defaultValue:)` for Optional and RawRepresentable values.
    func testPropertyWrapperWithOptionalAndRawRepresentable() {
        struct Preferences {
            @Setting var theme: Theme
            @Setting var accent: Theme?
            @Setting var nickname: String?
            init(_ settings: Settings) {
                _theme = Setting(.theme, in: settings)
                _accent = Setting(.accent, in: settings)
                _nickname = Setting(.nickname, in: settings)
            }
        }
        let preferences = Preferences(settings)
        XCTAssertEqual(preferences.theme, .system)
        XCTAssertNil(preferences.accent)
        preferences.theme = .dark
        preferences.accent = .light
        preferences.nickname = "Ann"
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.seeds", "theme"]), "dark\n")
        XCTAssertEqual(Preferences(settings).theme, .dark)
        XCTAssertEqual(Preferences(settings).accent, .light)
        preferences.nickname = nil
        XCTAssertNil(Preferences(settings).nickname)
        // A stored value the enum does not know reads as the default.
        scratch.run("settings", ["write", "com.example.seeds", "theme", "neon"])
        XCTAssertEqual(preferences.theme, .system)
    }

    /// An app ships the schema of its keys; the shell then types, checks and completes.
    func testKeysEmitTheirSchema() throws {
        let text = Settings.schema(for: [SettingsKeys.musicVolume, SettingsKeys.music, SettingsKeys.aString])
        let folder = scratch.directory + "/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/com.example.seeds.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(scratch.run("settings", ["list-keys", "com.example.seeds"]), "aString\nmusic\nmusicVolume\n")
        XCTAssertEqual(scratch.run("settings", ["range", "com.example.seeds", "musicVolume"]), "range real 0 100\n")
        XCTAssertEqual(scratch.run("settings", ["range", "com.example.seeds", "music"]), "type boolean\n")
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.seeds", "musicVolume"]), "50\n")
        scratch.run("settings", ["write", "com.example.seeds", "musicVolume", "75.5"])
        XCTAssertEqual(settings[.musicVolume], 75.5)
        XCTAssertEqual(type("musicVolume"), "Type is float")
    }
}
