import Foundation
import PlistModel
import PlistCodecs
import SettingsStore
import SettingsKit
import Synchronization
import XCTest

struct Frame: SettingsCodable, Equatable {
    var x: Int
    var y: Double
    var title: String
    var tags: [String]
    var saved: Date
    var note: String?
}

extension SettingsKeys {
    static let frame = SettingsKey<Frame?>("frame")
    static let volume = SettingsKey<Int>("volume", default: 50)
    static let dotted = SettingsKey<String>("window.title", default: "")
    static let locale = SettingsKey<String>("AppleLocale", default: "none")
    static let blob = SettingsKey<[UInt8]>("blob", default: [])
    static let link = SettingsKey<URL?>("link")
    static let id = SettingsKey<UUID?>("id")
    static let when = SettingsKey<Date?>("when")
    static let ratio = SettingsKey<Double>("ratio", default: 1)
    static let flag = SettingsKey<Bool>("flag", default: false)
    static let names = SettingsKey<[String: Int]>("names", default: [:])
}

final class SettingsTests: XCTestCase {
    var scratch: Scratch!
    var settings: Settings!

    override func setUp() {
        scratch = Scratch()
        settings = Settings(domain: "com.example.kit", directory: scratch.directory)
    }

    override func tearDown() { scratch.remove() }

    /// `get`, `set`, `modify`, `batch` and `reset` throw one type: this compiles only
    /// because each call's error is `SettingsError` (`do throws(SettingsError)`), and each
    /// reports the domain that cannot be a file the same way.
    func testEveryCallThrowsSettingsError() {
        let bad = Settings(domain: "bad/name", directory: scratch.directory, errorHandler: { _ in })
        var caught: [SettingsError] = []
        do throws(SettingsError) { _ = try bad.get(.volume) } catch { caught.append(error) }
        do throws(SettingsError) { try bad.set(1, for: .volume) } catch { caught.append(error) }
        do throws(SettingsError) { try bad.modify(.volume) { $0 += 1 } } catch { caught.append(error) }
        do throws(SettingsError) { try bad.batch { $0[.volume] = 2 } } catch { caught.append(error) }
        do throws(SettingsError) { try bad.reset(.volume) } catch { caught.append(error) }
        XCTAssertEqual(caught.count, 5)
        for error in caught {
            guard case .store(.invalidDomain("bad/name", _)) = error else { return XCTFail("\(error)") }
        }
    }

    /// A body that throws aborts `modify` and `batch` with its own error, and nothing is written.
    func testAThrowingBodyPassesItsErrorAndWritesNothing() throws {
        struct Stop: Error, Equatable {}
        try settings.set(7, for: .volume)
        XCTAssertThrowsError(
            try settings.modify(.volume) { value throws in
                value = 9; throw Stop()
            }
        ) {
            XCTAssertEqual($0 as? Stop, Stop())
        }
        XCTAssertThrowsError(
            try settings.batch { batch throws in
                batch[.volume] = 9; throw Stop()
            }
        ) {
            XCTAssertEqual($0 as? Stop, Stop())
        }
        XCTAssertEqual(settings[.volume], 7)
    }

    /// Codable values are native dictionaries: Foundation's `dictionary(forKey:)` sees
    /// the fields, and `settings read` prints them.
    func testCodableValuesAreNativeDictionaries() throws {
        let frame = Frame(
            x: 3, y: 4.5, title: "Main", tags: ["a", "b"], saved: Date(timeIntervalSinceReferenceDate: 86_400),
            note: nil)
        settings[.frame] = frame
        XCTAssertEqual(Settings(domain: "com.example.kit", directory: scratch.directory)[.frame], frame)
        XCTAssertEqual(
            scratch.run("InteropProbe", ["get", "com.example.kit", "frame"]),
            "dict {saved: date 86400.0, tags: array [string a, string b], title: string Main, x: int 3, y: double 4.5}\n"
        )
        XCTAssertEqual(scratch.run("settings", ["read-type", "com.example.kit", "frame"]), "Type is dictionary\n")
    }

    /// What SettingsKit writes, Foundation reads with the right types, and the reverse.
    func testFoundationReadsOurTypesAndWeReadItsTypes() {
        settings[.volume] = 70
        settings[.ratio] = 0.25
        settings[.flag] = true
        settings[.blob] = [1, 2, 255]
        settings[.when] = Date(timeIntervalSinceReferenceDate: 1000)
        settings[.names] = ["a": 1]
        let get = { (key: String) in self.scratch.run("InteropProbe", ["get", "com.example.kit", key]) }
        XCTAssertEqual(get("volume"), "int 70\n")
        XCTAssertEqual(get("ratio"), "double 0.25\n")
        XCTAssertEqual(get("flag"), "bool true\n")
        XCTAssertEqual(get("blob"), "data 0102ff\n")
        XCTAssertEqual(get("when"), "date 1000.0\n")
        XCTAssertEqual(get("names"), "dict {a: int 1}\n")
        for (key, type, value) in [
            ("volume", "int", "12"), ("ratio", "double", "2.5"), ("flag", "bool", "false"),
            ("when", "date", "5"), ("blob", "data", "hi"),
        ] {
            scratch.run("InteropProbe", ["set", "com.example.kit", key, type, value])
        }
        XCTAssertEqual(settings[.volume], 12)
        XCTAssertEqual(settings[.ratio], 2.5)
        XCTAssertEqual(settings[.flag], false)
        XCTAssertEqual(settings[.when], Date(timeIntervalSinceReferenceDate: 5))
        XCTAssertEqual(settings[.blob], Array("hi".utf8))
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.kit", "volume"]), "12\n")
    }

    func testFoundationTypesRoundTrip() {
        let id = UUID()
        settings[.link] = URL(string: "https://example.com/a?b=c")
        settings[.id] = id
        let again = Settings(domain: "com.example.kit", directory: scratch.directory)
        XCTAssertEqual(again[.link], URL(string: "https://example.com/a?b=c"))
        XCTAssertEqual(again[.id], id)
    }

    /// The global domain, then the default, as UserDefaults reads; defaults are never written.
    func testReadsFallBackToTheGlobalDomainThenTheDefault() {
        XCTAssertEqual(settings[.locale], "none")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.directory + "/com.example.kit.plist"))
        scratch.run("settings", ["write", "-g", "AppleLocale", "en_GB"])
        XCTAssertEqual(settings[.locale], "en_GB")
        settings[.locale] = "fr_FR"
        XCTAssertEqual(settings[.locale], "fr_FR")
        try? settings.reset(.locale)
        XCTAssertEqual(settings[.locale], "en_GB")
    }

    /// `-volume 70` on the command line wins, when the app opts in.
    func testArgumentDomain() {
        settings[.volume] = 10
        let withArguments = Settings(
            domain: "com.example.kit", arguments: ["app", "-volume", "70", "-flag", "YES"], directory: scratch.directory
        )
        XCTAssertEqual(withArguments[.volume], 70)
        XCTAssertEqual(withArguments[.flag], true)
        XCTAssertEqual(settings[.volume], 10)
    }

    /// A value of the wrong type reads as the default and is reported once.
    func testWrongTypeReadsTheDefaultAndIsReportedOnce() {
        let reports = Mutex<[SettingsError]>([])
        let settings = Settings(domain: "com.example.kit", directory: scratch.directory) { error in
            reports.withLock { $0.append(error) }
        }
        scratch.run("settings", ["write", "com.example.kit", "volume", "-string", "loud"])
        XCTAssertEqual(settings[.volume], 50)
        XCTAssertEqual(settings[.volume], 50)
        XCTAssertEqual(reports.withLock { $0 }, [.wrongType(key: "volume", found: "a string")])
    }

    /// Reads are never stale: another process's write is seen by the next read.
    func testReadsSeeOtherWritersAtOnce() {
        XCTAssertEqual(settings[.volume], 50)
        scratch.run("settings", ["write", "com.example.kit", "volume", "-int", "61"])
        XCTAssertEqual(settings[.volume], 61)
        scratch.run("InteropProbe", ["set", "com.example.kit", "volume", "int", "62"])
        XCTAssertEqual(settings[.volume], 62)
    }

    func testBatchIsOneWriteAndKeysWithDotsWork() throws {
        try settings.batch { batch in
            batch[.volume] = 80
            batch[.dotted] = "Main window"
            batch[.volume] += 1
        }
        XCTAssertEqual(settings[.volume], 81)
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.kit", "window.title"]), "Main window\n")
        let seen = Mutex<[String]>([])
        let token = settings.observe(.dotted) { change in seen.withLock { $0.append(change.newValue) } }
        scratch.run("settings", ["write", "com.example.kit", "window.title", "Other"])
        let deadline = Date().addingTimeInterval(3)
        while seen.withLock({ $0.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(seen.withLock { $0 }, ["Other"])
        token.cancel()
    }

    /// A `settings write` from another process reaches `updates` within 200 ms.
    func testAnotherProcessesWriteReachesUpdatesWithin200ms() async throws {
        let stream = settings.updates(.volume)
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, 50)
        let scratch = self.scratch!
        let returned = Mutex(Date.distantFuture)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            scratch.run("settings", ["write", "com.example.kit", "volume", "-int", "77"])
            returned.withLock { $0 = Date() }
        }
        let next = await iterator.next()
        let latency = Date().timeIntervalSince(returned.withLock { $0 })
        XCTAssertEqual(next, 77)
        XCTAssertLessThan(latency, 0.2, "delivered \(Int(latency * 1000)) ms after the write returned")
    }

    /// Two processes, 60 locked `modify { $0 += 1 }` each: none is lost.
    func testTwoProcessesModifyingEndAt120() {
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            let scratch = self.scratch!
            Thread.detachNewThread {
                scratch.run("SettingsKitProbe", ["count", scratch.directory, "com.example.kit", "60"])
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(scratch.run("settings", ["read", "com.example.kit", "count"]), "120\n")
    }

    /// A cancelled observation stops its watcher and closes its descriptors: the inotify
    /// queue and cancel signal the system door made (`CallTrace`, on any thread: the
    /// watcher runs on its own) are closed again once the last observation is cancelled.
    func testACancelledObservationLeavesNoDescriptorOpen() {
        // Reads share one process-wide folder watch, opened by the first read and kept.
        _ = settings[.volume]
        func watching(_ calls: [CallTrace.Call]) -> [CallTrace.Call] {
            CallTrace.leftOpen(calls).values.filter { ["inotify_init1", "pipe"].contains($0.name) }
        }
        let (_, calls) = CallTrace.record(.all) {
            let first = settings.observe(.volume) { _ in }
            let second = settings.observe(.flag) { _ in }
            first.cancel()
            XCTAssertFalse(watching(CallTrace.current).isEmpty, "one observation still runs")
            second.cancel()
            XCTAssertEqual(watching(CallTrace.current), [])
            // And a token that simply goes away stops it too.
            do { _ = settings.observe(.volume) { _ in } }
        }
        XCTAssertGreaterThan(calls.filter { $0.name == "inotify_init1" }.count, 0, "a watcher was started")
        XCTAssertEqual(watching(calls), [])
    }

    /// `Settings.standard` is the file `UserDefaults.standard` uses on Linux.
    func testStandardIsUserDefaultsStandardsFile() throws {
        // Foundation names the standard domain after the process: run our probe under the
        // same name as the Foundation program, in its own folder.
        let folder = scratch.directory + "/bin"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Scratch.binaries + "/SettingsKitProbe", toPath: folder + "/InteropProbe")
        scratch.run("InteropProbe", ["set-standard", "launches", "7"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.directory + "/InteropProbe.plist"))
        XCTAssertEqual(scratch.run(folder + "/InteropProbe", ["standard"]), "InteropProbe\n")
        XCTAssertEqual(scratch.run(folder + "/InteropProbe", ["get-standard", "launches"]), "7\n")
    }

    /// The first read of a big domain builds one value; later reads use the whole index,
    /// and both see changes.
    func testABigDomainIsLookedUpFirstThenIndexed() throws {
        // "Big" is 64 KiB here, not 1 MiB: the same path on a sixteenth of the file.
        let big = Settings.lookUpFirstAbove.exchange(1 << 16, ordering: .relaxed)
        defer { Settings.lookUpFirstAbove.store(big, ordering: .relaxed) }
        let store = DomainStore(directory: scratch.directory)
        try store.update(.named("com.example.kit")) { values in
            // Built whole: setting 2,500 keys one by one would scan the entries each time.
            values = PlistDictionary(
                entries: (0..<2_500).map {
                    .init(key: "key\($0)", value: .string(String(repeating: "x", count: 40) + "\($0)"))
                }
                    + [.init(key: "volume", value: 5)])
            return true
        }
        XCTAssertGreaterThan(
            try XCTUnwrap(DomainStore.stamp(at: store.path(of: .named("com.example.kit")))).size,
            Settings.lookUpFirstAbove.load(ordering: .relaxed))
        XCTAssertEqual(settings[.volume], 5)
        XCTAssertEqual(settings[.volume], 5)
        scratch.run("settings", ["write", "com.example.kit", "volume", "-int", "6"])
        XCTAssertEqual(settings[.volume], 6)
        XCTAssertEqual(
            settings[SettingsKey<String>("key2499", default: "")], String(repeating: "x", count: 40) + "2499")
    }

    /// A domain name that would leave the folder is refused on every use; no file is made.
    func testAnInvalidDomainNameTouchesNoFile() {
        let reports = Mutex<[SettingsError]>([])
        let bad = Settings(domain: "../escape", directory: scratch.directory) { error in
            reports.withLock { $0.append(error) }
        }
        bad[.volume] = 70
        XCTAssertEqual(bad[.volume], 50)
        XCTAssertThrowsError(try bad.set(1, for: .volume))
        XCTAssertEqual(reports.withLock { $0.count }, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.directory + "/../escape.plist"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.directory), [])
    }
}
