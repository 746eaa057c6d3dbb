import SettingsKit
import Synchronization
import XCTest

// The README's "Using settings from Swift" example, kept compiling and running here.
private struct ReadmeFrame: SettingsCodable, Equatable { var x = 0, y = 0 }

extension SettingsKeys {
    fileprivate static let readmeVolume = SettingsKey<Double>("musicVolume", default: 50, clampedTo: 0...100)
    fileprivate static let readmeName = SettingsKey<String?>("name")
    fileprivate static let readmeTheme = SettingsKey<Theme>("theme", default: .system)
    fileprivate static let readmeFrame = SettingsKey<ReadmeFrame?>("frame")
}

final class ReadmeExampleTests: XCTestCase {
    func testTheReadmeExample() async throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let settings = Settings(domain: "com.example.player", directory: scratch.directory)
        settings[.readmeVolume] += 5
        settings[.readmeVolume] = 150
        XCTAssertEqual(settings[.readmeVolume], 100)
        try settings.modify(.readmeVolume) { $0 -= 1 }
        try settings.batch {
            $0[.readmeName] = "Ann"; $0[.readmeTheme] = .dark
        }
        let seen = Mutex<[Double]>([])
        let token = settings.observe(.readmeVolume) { change in seen.withLock { $0.append(change.newValue) } }
        settings[.readmeVolume] = 20
        XCTAssertEqual(seen.withLock { $0 }, [20])
        token.cancel()
        var updates = settings.updates(.readmeVolume).makeAsyncIterator()
        let now = await updates.next()
        XCTAssertEqual(now, 20)
        @Setting(.readmeTheme, in: settings) var theme: Theme
        XCTAssertEqual(theme, .dark)
        settings[.readmeFrame] = ReadmeFrame(x: 1, y: 2)
        XCTAssertEqual(settings[.readmeFrame], ReadmeFrame(x: 1, y: 2))
        XCTAssertEqual(settings[.readmeName], "Ann")
    }
}
