import Foundation
import SettingsKit
import XCTest

enum Mood: String, SettingsValue, CaseIterable { case calm, busy }

extension SettingsKeys {
    static let mood = SettingsKey<Mood>("mood", default: .calm)
    static let maybeMood = SettingsKey<Mood?>("mood")
}

/// What a Swift developer meets in the first hour, from issue 31: messages in the app's
/// own voice, a domain that prints its name, keys named without a cast.
final class FirstHourTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// A stored value no case names says which cases are valid, for a key of the enum
    /// and of an optional of it.
    func testAnUnknownCaseSaysWhichAreValid() {
        scratch.run("settings", ["write", "com.example.first", "mood", "neon"])
        let reported = Reported()
        let settings = Settings(domain: "com.example.first", directory: scratch.directory) { reported.add($0) }
        XCTAssertEqual(settings[.mood], .calm)
        XCTAssertNil(settings[.maybeMood])
        XCTAssertEqual(
            reported.errors.first?.message,
            "the value of 'mood' is 'neon', not one of calm, busy; the default is used")
        XCTAssertEqual(reported.errors.count, 1, "each stored value is reported once")
    }

    /// The default error handler speaks in the program's name, not `settings:`.
    func testTheDefaultHandlerUsesTheProgramsName() throws {
        scratch.run("settings", ["write", "com.example.first", "theme", "neon"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Scratch.binaries + "/SettingsKitProbe")
        process.arguments = ["theme", scratch.directory, "com.example.first"]
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(printed, "system\n")
        XCTAssertEqual(
            said,
            "SettingsKitProbe: the value of 'theme' is 'neon', not one of light, dark, system; the default is used\n")
    }

    func testADomainPrintsItsName() {
        let settings = Settings(domain: "com.example.first", directory: scratch.directory)
        XCTAssertEqual("\(settings.domain)", "com.example.first")
        XCTAssertEqual(Settings(domain: "-g", directory: scratch.directory).domain.description, "NSGlobalDomain")
    }

    /// Every key has a name, whatever its value type, with no cast.
    func testKeysOfAnyTypeHaveNames() {
        let keys: [SettingsKeys] = [SettingsKeys.mood, SettingsKeys.volume, SettingsKeys.frame]
        XCTAssertEqual(keys.map(\.name), ["mood", "volume", "frame"])
    }
}
