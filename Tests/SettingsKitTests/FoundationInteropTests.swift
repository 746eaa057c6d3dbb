import Foundation
import SettingsKit
import Synchronization
import XCTest

extension SettingsKeys {
    static let place = SettingsKey<URL?>("place")
    static let level = SettingsKey<Float>("level", default: 0)
    static let levelAsDouble = SettingsKey<Double>("level", default: 0)
    static let moment = SettingsKey<Date?>("moment")
    static let loudness = SettingsKey<Double>("musicVolume", default: 42, clampedTo: 0...100)
}

/// Values SettingsKit and Foundation's `UserDefaults` (the InteropProbe, another process)
/// both store: each reads what the other wrote, as the other meant it.
final class FoundationInteropTests: XCTestCase {
    var scratch: Scratch!
    let domain = "com.example.interop"
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    private func settings() -> Settings { Settings(domain: domain, directory: scratch.directory) }
    @discardableResult
    private func probe(_ arguments: String...) -> String {
        scratch.run("InteropProbe", [arguments[0], domain] + arguments.dropFirst())
    }

    /// Foundation on Linux stores a URL as its path and reads a string as a file path;
    /// SettingsKit stores a file URL the same way, so each reads the other's.
    func testFileURLsAreStoredAsFoundationStoresThem() {
        settings()[.place] = URL(string: "file:///hello/world")
        XCTAssertEqual(probe("get", "place"), "string /hello/world\n")
        XCTAssertEqual(probe("get-url", "place"), "file:///hello/world\n")
        probe("set", "place", "url", "/from/foundation")
        XCTAssertEqual(settings()[.place], URL(fileURLWithPath: "/from/foundation"))
        XCTAssertEqual(settings()[.place]?.absoluteString, "file:///from/foundation")
        // A path with a space, and one from the home folder, as Foundation reads them.
        scratch.run("settings", ["write", domain, "place", "/a b/c"])
        XCTAssertEqual(settings()[.place]?.path, "/a b/c")
        scratch.run("settings", ["write", domain, "place", "~/notes"])
        XCTAssertEqual(settings()[.place]?.path, NSString(string: "~/notes").expandingTildeInPath)
        // Other URLs keep their whole text (Foundation on Linux would keep only the path).
        settings()[.place] = URL(string: "https://example.com/a?b=c")
        XCTAssertEqual(settings()[.place], URL(string: "https://example.com/a?b=c"))
        XCTAssertEqual(probe("get", "place"), "string https://example.com/a?b=c\n")
    }

    /// A Float reads back as one number whoever reads it: this `Settings` (from its cache),
    /// another one (from the file), a Double key, and Foundation's float and double.
    func testAFloatReadsAsTheSameNumberEverywhere() throws {
        let writer = settings()
        _ = writer[.level]  // the domain is cached before the write
        writer[.level] = 12.34
        let cold = settings()
        writer[.place] = nil
        for reader in [writer, cold, settings()] {
            XCTAssertEqual(reader[.level], 12.34)
            XCTAssertEqual(reader[.levelAsDouble], 12.34)
        }
        XCTAssertEqual(probe("get-float", "level"), "12.34 12.34\n")
        XCTAssertEqual(scratch.run("settings", ["read", domain, "level"]), "12.34\n")
        // What Foundation stores for a Float, SettingsKit reads as that Float.
        probe("set", "level", "float", "0.1")
        XCTAssertEqual(settings()[.level], 0.1)
    }

    /// The Floats text has no shortest decimal for, and paths with odd characters, round-trip.
    func testOddFloatsAndPathsRoundTrip() {
        for value: Float in [.nan, .infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
            settings()[.level] = value
            let read = settings()[.level]
            XCTAssertTrue(value.isNaN ? read.isNaN : read == value && read.sign == value.sign, "\(value): \(read)")
        }
        for path in ["/a\nb", "/a b/ü%20", "/x?y#z"] {
            settings()[.place] = URL(fileURLWithPath: path)
            XCTAssertEqual(settings()[.place]?.path, path)
        }
    }

    /// Every date Foundation can store round-trips, here, in Foundation and in plistlib
    /// (from year 1: plistlib cannot read `distantPast`, not even Foundation's own file).
    func testDistantDatesAndFractionsRoundTrip() throws {
        for date in [
            Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: 0.5),
            Date(timeIntervalSinceReferenceDate: -1e10), Date(timeIntervalSince1970: 0),
        ] {
            settings()[.moment] = date
            XCTAssertEqual(settings()[.moment], date)
            XCTAssertEqual(probe("get", "moment"), "date \(date.timeIntervalSinceReferenceDate)\n")
            // plistlib's calendar starts at 0001-01-01, two days after distantPast.
            guard date > Date.distantPast else { continue }
            let plistlib = try python(
                "import plistlib, datetime, sys; d = plistlib.load(open(sys.argv[1], 'rb'))['moment'];"
                    + " print((d - datetime.datetime(2001, 1, 1)).total_seconds())",
                scratch.directory + "/\(domain).plist")
            XCTAssertEqual(
                Double(plistlib.trimmingCharacters(in: .whitespacesAndNewlines)), date.timeIntervalSinceReferenceDate)
        }
        // What Foundation writes for them (XML, distantPast as year 0000), SettingsKit reads.
        for date in [Date.distantPast, Date.distantFuture] {
            probe("set", "moment", "date", "\(date.timeIntervalSinceReferenceDate)")
            XCTAssertEqual(settings()[.moment], date)
        }
    }

    /// A clamped key reads clamped whoever wrote the file: a read, an observer and
    /// `@Setting` all see 100 after the shell writes 150.
    func testAClampHoldsForEveryWriter() throws {
        let settings = settings()
        XCTAssertEqual(settings[.loudness], 42)
        let heard = Mutex<[Double]>([])
        let token = settings.observe(.loudness) { change in heard.withLock { $0.append(change.newValue) } }
        scratch.run("settings", ["write", domain, "musicVolume", "-int", "150"])
        let deadline = Date().addingTimeInterval(5)
        while heard.withLock({ $0.isEmpty }) && Date() < deadline { usleep(10_000) }
        token.cancel()
        XCTAssertEqual(heard.withLock { $0 }, [100])
        XCTAssertEqual(settings[.loudness], 100)
        XCTAssertEqual(Setting(.loudness, in: settings).wrappedValue, 100)
        scratch.run("settings", ["write", domain, "musicVolume", "-float", "-3"])
        XCTAssertEqual(settings[.loudness], 0)
    }

    /// An app publishes its keys as the domain's schema; the shell's untyped write is then
    /// typed and range-checked, and `describe` shows the app's keys.
    func testAnAppPublishesItsKeysAsTheDomainsSchema() throws {
        let settings = settings()
        try settings.publishSchema(for: [SettingsKeys.loudness, SettingsKeys.level])
        scratch.run("settings", ["write", domain, "musicVolume", "75"])
        XCTAssertEqual(scratch.run("settings", ["read-type", domain, "musicVolume"]), "Type is float\n")
        XCTAssertEqual(settings[.loudness], 75)
        let refused = Process()
        refused.executableURL = URL(fileURLWithPath: Scratch.binaries + "/settings")
        refused.arguments = ["write", domain, "musicVolume", "150"]
        refused.environment = ["XDG_CONFIG_HOME": scratch.directory]
        refused.standardError = FileHandle.nullDevice
        try refused.run()
        refused.waitUntilExit()
        XCTAssertNotEqual(refused.terminationStatus, 0)
        XCTAssertEqual(settings[.loudness], 75)
        let described = scratch.run("settings", ["describe", domain])
        XCTAssertTrue(described.contains("musicVolume") && described.contains("level"), described)
        // Publishing the same keys again leaves the file as it is.
        let path = scratch.directory + "/settings/schemas/\(domain).json"
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        usleep(20_000)
        try settings.publishSchema(for: [SettingsKeys.loudness, SettingsKeys.level])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, before)
    }

    private func python(_ code: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, code)
        return String(decoding: data, as: UTF8.self)
    }
}
