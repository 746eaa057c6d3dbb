import Foundation
import SettingsKit
import Synchronization
import XCTest

/// What the peers' own suites (sindresorhus/Defaults, SwiftyUserDefaults) expect, and
/// SettingsKit did differently (issue 22 §1): each test failed before its fix.
final class PeerBehaviourTests: XCTestCase {
    var scratch: Scratch!
    var settings: Settings!

    override func setUp() {
        scratch = Scratch()
        settings = Settings(domain: "com.example.peers", directory: scratch.directory)
    }

    override func tearDown() { scratch.remove() }

    private var file: String { scratch.directory + "/com.example.peers.plist" }

    /// The domain as plistlib reads it, as Python's repr of each key's value and type.
    private func plistlib(_ key: String) -> String {
        scratch.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; v = plistlib.load(open(sys.argv[1], 'rb'))[sys.argv[2]]; print(repr(v))",
                file, key,
            ]
        ).trimmingCharacters(in: .newlines)
    }

    func testAnEmptyArrayIsStoredAsAnEmptyArray() {
        let errors = Mutex<[SettingsError]>([])
        settings = Settings(domain: "com.example.peers", directory: scratch.directory) { error in
            errors.withLock { $0.append(error) }
        }
        let names = SettingsKey<[String]>("names", default: ["default"])
        let numbers = SettingsKey<[Int]>("numbers", default: [1])
        let bytes = SettingsKey<[UInt8]>("bytes", default: [1])
        settings[names] = []
        settings[numbers] = []
        settings[bytes] = []
        XCTAssertEqual(settings[names], [])
        XCTAssertEqual(settings[numbers], [])
        XCTAssertEqual(settings[bytes], [])
        XCTAssertEqual(plistlib("names"), "[]")
        XCTAssertEqual(plistlib("numbers"), "[]")
        XCTAssertEqual(plistlib("bytes"), "b''", "[UInt8] is data, empty or not")
        XCTAssertEqual(errors.withLock { $0 }, [])
    }

    func testADateKeepsItsFractionHereAndInAnotherProcess() throws {
        let when = SettingsKey<Date?>("when")
        let date = Date(timeIntervalSinceReferenceDate: 754_000_000.123456)
        settings[when] = date
        XCTAssertEqual(settings[when], date)
        XCTAssertEqual(Settings(domain: "com.example.peers", directory: scratch.directory)[when], date)
        XCTAssertEqual(
            scratch.run("SettingsKitProbe", ["get-date", scratch.directory, "com.example.peers", "when"]),
            "\(date.timeIntervalSinceReferenceDate)\n")
        // Readable by plistlib (to the microsecond, its precision) and by Foundation, exactly.
        XCTAssertEqual(plistlib("when"), "datetime.datetime(2024, 11, 22, 20, 26, 40, 123456)")
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let read = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        XCTAssertEqual(read?["when"] as? Date, date)
        // A whole-second date leaves a new domain XML, as Foundation writes it.
        let other = Settings(domain: "com.example.whole", directory: scratch.directory)
        other[when] = Date(timeIntervalSinceReferenceDate: 754_000_000)
        let head = try Data(contentsOf: URL(fileURLWithPath: scratch.directory + "/com.example.whole.plist")).prefix(5)
        XCTAssertEqual(String(decoding: head, as: UTF8.self), "<?xml")
    }

    /// Found by Defaults' stress suite: a Swift `String` is any text, and Foundation on
    /// macOS stores it; XML cannot hold a control character, so the domain becomes binary
    /// (as for a fractional date) instead of the set being refused. The CLI still refuses
    /// and says to use -data (StoreBehaviourTests).
    func testTextWithAControlCharacterMakesTheDomainBinary() throws {
        settings[SettingsKey<String>("plain", default: "")] = "x"
        let text = SettingsKey<String>("text", default: "")
        let value = "\u{0}\u{1}Line1\r\nLine2"
        settings[text] = value
        XCTAssertEqual(Settings(domain: "com.example.peers", directory: scratch.directory)[text], value)
        XCTAssertEqual(plistlib("text"), "'\\x00\\x01Line1\\r\\nLine2'")
        XCTAssertEqual(plistlib("plain"), "'x'")
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read =
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: URL(fileURLWithPath: file)), format: &format) as? [String: Any]
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(read?["text"] as? String, value)
        // A key is text too, and a coalesced set takes the same way.
        let coalesced = Settings(domain: "com.example.keys", directory: scratch.directory, writes: .coalesced)
        coalesced[SettingsKey<Int>("bad\u{1}key", default: 0)] = 1
        try coalesced.flush()
        XCTAssertEqual(
            Settings(domain: "com.example.keys", directory: scratch.directory)[
                SettingsKey<Int>("bad\u{1}key", default: 0)], 1)
    }

    func testTheInitialObservationReportsTheAbsentValueAsOld() {
        let volume = SettingsKey<Int>("volume", default: 50)
        let name = SettingsKey<String?>("name")
        settings[volume] = 70
        settings[name] = "Ann"
        let seen = Mutex<[String]>([])
        let first = settings.observe(volume, initial: true) { change in
            seen.withLock { $0.append("\(change.oldValue) -> \(change.newValue)") }
        }
        let second = settings.observe(name, initial: true) { change in
            seen.withLock {
                $0.append("\(String(describing: change.oldValue)) -> \(String(describing: change.newValue))")
            }
        }
        XCTAssertEqual(seen.withLock { $0 }, ["50 -> 70", "nil -> Optional(\"Ann\")"])
        first.cancel()
        second.cancel()
    }

    func testLaunchArgumentBooleansReadAsFoundationReadsThem() {
        let flag = SettingsKey<Bool>("flag", default: false)
        let off = SettingsKey<Bool>("off", default: true)
        for (word, expected) in [
            ("Y", true), ("y", true), ("T", true), ("t", true), ("YES", true), ("true", true), ("1", true),
            ("2", true), ("+007", true), (" yes", true), ("N", false), ("n", false), ("F", false), ("f", false),
            ("NO", false), ("false", false), ("0", false), ("maybe", false),
        ] {
            let s = Settings(
                domain: "com.example.peers", arguments: ["prog", "-flag", word, "-off", word],
                directory: scratch.directory)
            XCTAssertEqual(s[flag], expected, word)
            XCTAssertEqual(s[off], expected, word)
        }
    }
}
