import PlistModel
import XCTest

@testable import SettingsSync

/// The keys that stay on this machine are compared as bytes (issue 47): a schema's or a
/// managed file's "é" (U+00E9) keeps that key here, and "e" + U+0301, another key, travels.
final class LocalKeysTests: XCTestCase {
    func testALocalKeyIsItsBytesOnly() {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let local = LocalKeys(patterns: [], names: [ExactKey(composed)])
        XCTAssertTrue(local.contains(composed))
        XCTAssertFalse(local.contains(decomposed))
        let (shared, kept) = local.split([composed: 1, decomposed: 2])
        XCTAssertEqual(shared.keys.map { Array($0.utf8) }, [Array(decomposed.utf8)])
        XCTAssertEqual(kept.keys.map { Array($0.utf8) }, [Array(composed.utf8)])
    }
}
