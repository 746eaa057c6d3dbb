import Foundation
import SettingsKit
import Synchronization
import XCTest

/// Issue 47: "é" precomposed and decomposed are two keys, to SettingsKit's observers too.
/// One write that changed both was told to observers as a `[String: …]` of the changes,
/// which Swift's `String` folds into one entry, so one key's observer never heard.
final class KeysAsBytesTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testOneWriteOfBothKeysIsHeardByTheObserverOfEach() throws {
        let settings = Settings(domain: "com.example.keys", directory: scratch.directory)
        let composed = SettingsKey<Int>("\u{E9}", default: 0), decomposed = SettingsKey<Int>("e\u{301}", default: 0)
        try settings.set(1, for: composed)
        try settings.set(2, for: decomposed)
        XCTAssertEqual(settings[composed], 1)
        XCTAssertEqual(settings[decomposed], 2)
        let heard = Mutex<[String]>([])
        let tokens = [composed, decomposed].map { key in
            settings.observe(key) { change in heard.withLock { $0.append("\(Array(key.name.utf8)) \(change.newValue)") }
            }
        }
        try settings.reset([composed, decomposed])
        for token in tokens { token.cancel() }
        XCTAssertEqual(heard.withLock { $0 }.sorted(), ["[101, 204, 129] 0", "[195, 169] 0"])
        XCTAssertEqual(settings[composed], 0)
        XCTAssertEqual(settings[decomposed], 0)
    }
}
