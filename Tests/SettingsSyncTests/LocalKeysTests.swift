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

    /// A desktop domain's keys this machine's schema lacks stay here, and the record of
    /// the rules a domain was merged under keeps which keys were known (a schema that
    /// gains a key later lets it rejoin).
    func testKeysASchemaLacksStayAndTheRecordKeepsThem() {
        var local = LocalKeys(patterns: [], names: [])
        local.known = [ExactKey("count"), ExactKey("label")]
        XCTAssertFalse(local.isEmpty)
        XCTAssertEqual(local.split(["count": 1, "extra": "x"]).local.keys.map { $0 }, ["extra"])
        var record = LocalRecord()
        record.domains["gsettings:org.example.sync"] = local
        XCTAssertEqual(LocalRecord(record.bytes), record)
        var upgraded = local
        upgraded.known = [ExactKey("count"), ExactKey("label"), ExactKey("extra")]
        let rejoined = upgraded.rejoined(since: local)
        XCTAssertEqual(rejoined?("extra"), true)
        XCTAssertEqual(rejoined?("count"), false)
    }

    /// Desktop domains travel only when a pattern that starts `gsettings:` names them:
    /// every domain, `*` and `*:*` are every plist domain.
    func testOnlyAGsettingsPatternCarriesTheDesktop() {
        let desktop = "gsettings:org.example.sync"
        for patterns in [[], ["*"], ["*:*"], ["[gG]settings:*"], ["*settings*"]] {
            XCTAssertFalse(SyncRules(patterns: patterns, ignore: []).carries(desktop), "\(patterns)")
        }
        XCTAssertTrue(SyncRules(patterns: ["gsettings:org.example.*"], ignore: []).carries(desktop))
        XCTAssertTrue(SyncRules(patterns: [], ignore: []).carries("com.example.app"))
    }
}
