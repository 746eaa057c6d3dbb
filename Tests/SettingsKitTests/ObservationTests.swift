import Foundation
import Observation
import SettingsKit
import Synchronization
import XCTest

extension SettingsKeys {
    static let modelVolume = SettingsKey<Int>("volume", default: 50)
    static let modelName = SettingsKey<String>("name", default: "")
}

/// A player whose settings live in a domain, `Sendable` without `@unchecked`: a class
/// holds `Setting`s as `let`s (a property wrapper's storage is a `var`, which a Sendable
/// class may not have).
final class SendablePlayer: Sendable {
    let volume: Setting<Int>
    init(_ settings: Settings) { volume = Setting(.modelVolume, in: settings) }
}

/// `@Setting` properties in types that are `Sendable` without `@unchecked`: a struct (the
/// wrapper's setter is nonmutating, so a `let` of it still sets) and a class isolated to a
/// global actor (Sendable, mutable storage and all).
struct SendableStructPlayer: Sendable {
    @Setting var volume: Int
    init(_ settings: Settings) { _volume = Setting(.modelVolume, in: settings) }
}

@MainActor final class MainActorPlayer {
    @Setting var volume: Int
    init(_ settings: Settings) { _volume = Setting(.modelVolume, in: settings) }
}

/// `SettingsModel` (issue 22 §2): the Observation framework sees reads through it, and
/// any writer's change ends the tracking.
final class ObservationTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }

    /// Found by SwiftyUserDefaults' spec: what the last observers heard outlived them, so
    /// a new observer missed a value that was removed meanwhile and set again.
    func testANewObserverHearsAValueSetAgainAfterTheLastOneWent() throws {
        let settings = Settings(domain: "com.example.again", directory: scratch.directory)
        let key = SettingsKey<Bool>("flag", default: false)
        let first = settings.observe(key) { _ in }
        settings[key] = true
        first.cancel()
        try settings.removeAll()
        let heard = Mutex<[Bool]>([])
        let second = settings.observe(key) { change in heard.withLock { $0.append(change.newValue) } }
        settings[key] = true
        second.cancel()
        XCTAssertEqual(heard.withLock { $0 }, [true])
    }
    override func tearDown() { scratch.remove() }

    func testTrackingSeesReadsAndEveryWritersChanges() {
        let settings = Settings(domain: "com.example.model", directory: scratch.directory)
        let model = SettingsModel(settings)
        XCTAssertEqual(model.modelVolume, 50)
        let fired = Mutex<[String]>([])
        withObservationTracking {
            _ = model.modelVolume
        } onChange: {
            fired.withLock { $0.append("volume") }
        }
        model.modelName = "Ann"
        XCTAssertEqual(fired.withLock { $0 }, [], "another key's change is not this tracking's")
        model.modelVolume = 70
        XCTAssertEqual(fired.withLock { $0 }, ["volume"])
        XCTAssertEqual(settings[.modelVolume], 70)
        // Another process's write reaches a new tracking.
        withObservationTracking {
            _ = model[.modelName]
        } onChange: {
            fired.withLock { $0.append("name") }
        }
        scratch.run("settings", ["write", "com.example.model", "name", "Bob"])
        let deadline = Date().addingTimeInterval(3)
        while fired.withLock({ $0.count < 2 }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(fired.withLock { $0 }, ["volume", "name"])
        XCTAssertEqual(model.modelName, "Bob")
    }

    func testASendableClassHoldsSettingsAsLets() {
        let player = SendablePlayer(Settings(domain: "com.example.model", directory: scratch.directory))
        player.volume.wrappedValue = 80
        XCTAssertEqual(player.volume.wrappedValue, 80)
        let shared: any Sendable = player
        XCTAssertNotNil(shared)
    }

    /// Issue 23 §2: `settings conflicts --resolve` writes through the store, so an observer
    /// in another process hears the keys a Syncthing conflict copy brought back.
    func testAnObserverHearsAConflictCopyMergedBack() throws {
        let settings = Settings(domain: "com.example.sync", directory: scratch.directory)
        let key = SettingsKey<String?>("fromOtherMachine")
        settings[SettingsKey<Int>("here", default: 0)] = 1
        let heard = Mutex<[String?]>([])
        let token = settings.observe(key) { change in heard.withLock { $0.append(change.newValue) } }
        defer { token.cancel() }
        let copy = scratch.directory + "/com.example.sync.sync-conflict-20241122-101500-ABCDEF7.plist"
        try PropertyListSerialization.data(fromPropertyList: ["fromOtherMachine": "yes"], format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: copy))
        scratch.run("settings", ["conflicts", "--resolve", "com.example.sync"])
        let deadline = Date().addingTimeInterval(5)
        while heard.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(heard.withLock { $0 }, ["yes"])
        XCTAssertEqual(settings[key], "yes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
    }

    /// Issue 23 §3: SettingsKit needs nothing new for `settings sync`: a synced change
    /// arrives as a file replacement, which an observer hears.
    func testAnObserverOnOneMachineHearsAnotherMachinesChangeAfterASync() throws {
        let remote = scratch.directory + "/remote.git"
        scratch.run("/usr/bin/git", ["init", "-q", "--bare", remote])
        func machine(_ name: String) -> [String: String] {
            [
                "XDG_CONFIG_HOME": scratch.directory + "/\(name)", "XDG_DATA_HOME": scratch.directory + "/\(name)-data",
                "GIT_CONFIG_GLOBAL": scratch.directory + "/\(name)-gitconfig", "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": "m@example.com", "GIT_COMMITTER_NAME": name,
                "GIT_COMMITTER_EMAIL": "m@example.com",
            ]
        }
        scratch.run("settings", ["sync", "init", remote], environment: machine("a"))
        scratch.run("settings", ["sync", "init", remote], environment: machine("b"))
        scratch.run("settings", ["write", "com.example.synced", "volume", "-int", "70"], environment: machine("a"))
        scratch.run("settings", ["sync"], environment: machine("a"))
        let settings = Settings(domain: "com.example.synced", directory: scratch.directory + "/b")
        let heard = Mutex<[Int]>([])
        let token = settings.observe(SettingsKey<Int>("volume", default: 50)) { change in
            heard.withLock { $0.append(change.newValue) }
        }
        defer { token.cancel() }
        scratch.run("settings", ["sync"], environment: machine("b"))
        let deadline = Date().addingTimeInterval(5)
        while heard.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(heard.withLock { $0 }, [70])
    }

    func testSendableTypesHoldSettingProperties() async {
        let settings = Settings(domain: "com.example.model", directory: scratch.directory)
        let player = SendableStructPlayer(settings)
        player.volume = 81
        let read = await Task.detached { player.volume }.value
        XCTAssertEqual(read, 81)
        let onMain = await MainActorPlayer(settings)
        await MainActor.run { onMain.volume += 1 }
        let sent: any Sendable = onMain
        XCTAssertNotNil(sent)
        XCTAssertEqual(settings[.modelVolume], 82)
    }
}

/// An actor that records what it is told, only on its own executor.
actor Recorder {
    var seen: [Int] = []
    func values() -> [Int] { seen }
    nonisolated func recordHere(_ value: Int) {
        // Traps unless the caller is already on this actor's executor.
        assumeIsolated { $0.seen.append(value) }
    }
}

final class ActorDeliveryTests: XCTestCase {
    func testChangesAreDeliveredOnTheActorInOrder() async throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let settings = Settings(domain: "com.example.actor", directory: scratch.directory)
        let recorder = Recorder()
        let key = SettingsKey<Int>("volume", default: 0)
        let token = settings.observe(key, initial: true, isolation: recorder) { change in
            recorder.recordHere(change.newValue)
        }
        for i in 1...20 { settings[key] = i }
        let deadline = Date().addingTimeInterval(3)
        while await recorder.values().count < 21, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        let seen = await recorder.values()
        XCTAssertEqual(seen, Array(0...20))
        token.cancel()
        settings[key] = 99
        try await Task.sleep(nanoseconds: 200_000_000)
        let after = await recorder.values()
        XCTAssertEqual(after, Array(0...20), "nothing after cancel")
    }
}
