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

/// A value whose coding keys are the two spellings of "é": two keys of the stored dictionary.
struct TwoAccents: SettingsCodable, Equatable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    var composed = 1, decomposed = 2

    init() {}
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(composed, forKey: Key("\u{E9}"))
        try keyed.encode(decomposed, forKey: Key("e\u{301}"))
    }
    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Key.self)
        composed = try keyed.decode(Int.self, forKey: Key("\u{E9}"))
        decomposed = try keyed.decode(Int.self, forKey: Key("e\u{301}"))
    }
}

extension KeysAsBytesTests {
    /// The encoder kept one entry per key as `String`s compare, so the second spelling
    /// replaced the first.
    func testACodableValueKeepsBothSpellingsAsTwoKeys() throws {
        let key = SettingsKey<TwoAccents>("accents", default: TwoAccents())
        var value = TwoAccents()
        (value.composed, value.decomposed) = (10, 20)
        let settings = Settings(domain: "com.example.codable", directory: scratch.directory)
        try settings.set(value, for: key)
        let again = Settings(domain: "com.example.codable", directory: scratch.directory)
        XCTAssertEqual(again[key], value)
    }
}
