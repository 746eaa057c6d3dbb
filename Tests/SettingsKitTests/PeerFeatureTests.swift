// Only SettingsKit (and the test tools): what a program needs to use it and to make its
// own types storable must come with `import SettingsKit` alone.
import Foundation
import SettingsKit
import Synchronization
import XCTest

/// A custom type, made storable with nothing but SettingsKit's re-exported names.
struct RGB: SettingsValue, Equatable {
    var red, green, blue: Int
    var propertyListValue: PlistValue? {
        .dict([
            "r": .int(PlistInteger(Int64(red))), "g": .int(PlistInteger(Int64(green))),
            "b": .int(PlistInteger(Int64(blue))),
        ])
    }
    init(red: Int, green: Int, blue: Int) { (self.red, self.green, self.blue) = (red, green, blue) }
    init?(propertyListValue value: PlistValue) {
        guard case .dict(let d) = value, let r = d["r"].flatMap(Int.init(propertyListValue:)),
            let g = d["g"].flatMap(Int.init(propertyListValue:)), let b = d["b"].flatMap(Int.init(propertyListValue:))
        else { return nil }
        self.init(red: r, green: g, blue: b)
    }
}

enum Weekday: String, SettingsDictionaryKey { case monday, tuesday }

extension SettingsKeys {
    static let peerVolume = SettingsKey<Int>("volume", default: 50)
    static let peerMuted = SettingsKey<Bool>("muted", default: false)
    static let peerColor = SettingsKey<RGB>("color", default: RGB(red: 0, green: 0, blue: 0))
}

/// The features the peers' suites need (issue 22 §2).
final class PeerFeatureTests: XCTestCase {
    var scratch: Scratch!
    var settings: Settings!

    override func setUp() {
        scratch = Scratch()
        settings = Settings(domain: "com.example.features", directory: scratch.directory)
    }

    override func tearDown() { scratch.remove() }

    private func read(_ key: String) -> String {
        scratch.run("settings", ["read", "com.example.features", key])
    }

    func testKeysByName() throws {
        XCTAssertEqual(settings.peerVolume, 50)
        settings.peerVolume = 70
        settings.peerVolume += 1
        XCTAssertEqual(settings.peerVolume, 71)
        XCTAssertEqual(read("volume"), "71\n")
        try settings.batch {
            $0.peerMuted = true; $0.peerVolume = 5
        }
        XCTAssertEqual(settings.peerMuted, true)
        let seen = Mutex<[Int]>([])
        let token = settings.observe(\.peerVolume) { change in seen.withLock { $0.append(change.newValue) } }
        settings.peerVolume = 6
        XCTAssertEqual(seen.withLock { $0 }, [6])
        token.cancel()
    }

    func testCustomAndBuiltInTypes() {
        settings.peerColor = RGB(red: 1, green: 2, blue: 3)
        XCTAssertEqual(
            Settings(domain: "com.example.features", directory: scratch.directory).peerColor,
            RGB(red: 1, green: 2, blue: 3))
        let set = SettingsKey<Set<String>>("set", default: [])
        let closed = SettingsKey<ClosedRange<Int>>("closed", default: 0...1)
        let open = SettingsKey<Range<Double>>("open", default: 0..<1)
        let byDay = SettingsKey<[Weekday: Int]>("byDay", default: [:])
        let byNumber = SettingsKey<[Int: String]>("byNumber", default: [:])
        let small = SettingsKey<Int8>("small", default: 0)
        let big = SettingsKey<UInt64>("big", default: 0)
        settings[set] = ["a", "b"]
        settings[closed] = 3...7
        settings[open] = 0.5..<2.5
        settings[byDay] = [.monday: 1, .tuesday: 2]
        settings[byNumber] = [1: "one", 20: "twenty"]
        settings[small] = -128
        settings[big] = .max
        let fresh = Settings(domain: "com.example.features", directory: scratch.directory)
        XCTAssertEqual(fresh[set], ["a", "b"])
        XCTAssertEqual(fresh[closed], 3...7)
        XCTAssertEqual(fresh[open], 0.5..<2.5)
        XCTAssertEqual(fresh[byDay], [.monday: 1, .tuesday: 2])
        XCTAssertEqual(fresh[byNumber], [1: "one", 20: "twenty"])
        XCTAssertEqual(fresh[small], -128)
        XCTAssertEqual(fresh[big], .max)
        XCTAssertEqual(read("closed"), "(\n    3,\n    7\n)\n")
        XCTAssertEqual(read("byDay"), "{\n    monday = 1;\n    tuesday = 2;\n}\n")
    }

    func testMixedValuesWithLiterals() {
        let mixed = SettingsKey<PlistValue>("mixed", default: "none")
        XCTAssertEqual(settings[mixed], "none")
        settings[mixed] = ["a": 1, "b": [true, "x", 2.5]]
        XCTAssertEqual(settings[mixed], ["a": 1, "b": [true, "x", 2.5]])
        XCTAssertEqual(
            scratch.run("settings", ["read", "com.example.features", "mixed", "--json"]),
            #"{"a":1,"b":[true,"x",2.5]}"# + "\n")
    }

    func testDefaultsConveniences() throws {
        let volume = SettingsKey<Int>("volume", default: 50)
        let name = SettingsKey<String?>("name")
        XCTAssertTrue(settings.isDefaultValue(volume))
        settings[volume] = 50
        XCTAssertTrue(settings.isDefaultValue(volume), "stored or not")
        settings[volume] = 60
        XCTAssertFalse(settings.isDefaultValue(volume))
        settings[name] = "Ann"
        try settings.reset([volume, name])
        XCTAssertEqual(settings[volume], 50)
        XCTAssertNil(settings[name])
        settings[volume] = 1
        try settings.removeAll()
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.directory + "/com.example.features.plist"))
        // A dynamic default is computed at each read and never written.
        let counter = Mutex(0)
        let dynamic = SettingsKey<Int>(
            "dynamic",
            default: {
                counter.withLock {
                    $0 += 1; return $0
                }
            })
        XCTAssertEqual(settings[dynamic], 1)
        XCTAssertEqual(settings[dynamic], 2)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: scratch.directory + "/com.example.features.plist"), "never written")
        // Keys are equal and hashable by name.
        XCTAssertEqual(SettingsKey<Int>("a", default: 1), SettingsKey<Int>("a", default: 2))
        XCTAssertEqual(Set([SettingsKey<Int>("a", default: 1), SettingsKey<Int>("a", default: 2)]).count, 1)
        XCTAssertNotEqual(SettingsKey<Int>("a", default: 1), SettingsKey<Int>("b", default: 1))
    }

    func testWithoutPropagationDeliversNothingThenOrLater() {
        let volume = SettingsKey<Int>("volume", default: 50)
        let seen = Mutex<[Int]>([])
        let token = settings.observe(volume) { change in seen.withLock { $0.append(change.newValue) } }
        settings.withoutPropagation { settings[volume] = 70 }
        XCTAssertEqual(settings[volume], 70)
        Thread.sleep(forTimeInterval: 0.3)  // the watcher sees the file change too
        XCTAssertEqual(seen.withLock { $0 }, [])
        settings[volume] = 71
        XCTAssertEqual(seen.withLock { $0 }, [71])
        token.cancel()
    }

    func testUpdatesWithoutTheInitialValueAndOfSeveralKeys() async {
        let volume = SettingsKey<Int>("volume", default: 50)
        let muted = SettingsKey<Bool>("muted", default: false)
        var skipping = settings.updates(volume, initial: false).makeAsyncIterator()
        var both = settings.updates(volume, muted).makeAsyncIterator()
        let first = await both.next()
        XCTAssertEqual(first?.0, 50)
        XCTAssertEqual(first?.1, false)
        settings[muted] = true
        let second = await both.next()
        XCTAssertEqual(second?.1, true)
        settings[volume] = 9
        let changed = await skipping.next()
        XCTAssertEqual(changed, 9, "the first value is the change, not the current value")
        let third = await both.next()
        XCTAssertEqual(third?.0, 9)
    }

    /// Defaults' `updates(key1, key2, initial: false)` and `updates([key1, key2])`.
    func testUpdatesOfSeveralKeysWithoutTheInitialValueAndOfAnArrayOfKeys() async {
        let volume = SettingsKey<Int>("volume", default: 50)
        let name = SettingsKey<String?>("name")
        var tuples = settings.updates(volume, name, initial: false).makeAsyncIterator()
        var ticks = settings.updates([volume, name], initial: false).makeAsyncIterator()
        var withInitial = settings.updates([volume, name]).makeAsyncIterator()
        let initial: Void? = await withInitial.next()
        XCTAssertNotNil(initial)
        settings[SettingsKey<Int>("other", default: 0)] = 1  // not one of the keys: nothing
        settings[name] = "Ann"
        let first = await tuples.next()
        XCTAssertEqual(first?.0, 50)
        XCTAssertEqual(first?.1, "Ann")
        let tick: Void? = await ticks.next()
        XCTAssertNotNil(tick)
        settings[volume] = 7
        let second = await tuples.next()
        XCTAssertEqual(second?.0, 7)
    }
}
