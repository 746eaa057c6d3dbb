import XCTest
@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsCode
@testable import SettingsStore

/// `EditSession`'s merge against a store: the person's edit is what changed in the text,
/// leaf by leaf, made on the domain as it is when it is saved.
final class EditSessionTests: XCTestCase {
    var directory = ""
    var store: DomainStore!
    let domain = DomainName.named("com.example.a")

    override func setUp() {
        directory = NSTemporaryDirectory() + "edit-\(UUID().uuidString)"
        store = DomainStore(
            directory: directory + "/config",
            environment: Environment(["XDG_STATE_HOME": directory + "/state", "HOME": directory]))
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func values() throws -> PlistDictionary? { try store.load(domain)?.values }

    func write(_ change: @escaping (inout PlistDictionary) -> Void) throws {
        try store.update(domain) {
            change(&$0)
            return true
        }
    }

    /// The session's text with each pair's first replaced by its second, read back.
    func edited(_ session: EditSession, _ replacements: [(String, String)]) throws -> PlistDictionary {
        var text = String(decoding: session.written, as: UTF8.self)
        for (old, new) in replacements {
            XCTAssertNotNil(text.range(of: old), old)
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try session.parse(Array(text.utf8))
    }

    func testLeavesInsideOneValueMergeWithChangesMadeMeanwhile() throws {
        try write { $0 = ["window": ["w": 800, "h": 600], "f": .double(0.3), "list": .array([.double(1), "x"])] }
        var session = try EditSession(store: store, domain: domain, format: .json)
        try write { $0["window"] = ["w": 800, "h": 700, "x": 1] }
        let mine = try edited(session, [(#""w": 800"#, #""w": 900"#), ("\"x\"\n", "\"y\"\n")])
        XCTAssertEqual(session.problems(mine), [])
        XCTAssertEqual(try session.merge(mine), [])
        XCTAssertEqual(
            try values(),
            ["window": ["w": 900, "h": 700, "x": 1], "f": .double(0.3), "list": .array([.double(1), "y"])])
    }

    func testAConflictSavedAgainKeepsThePersonsValueAndNoOther() throws {
        try write { $0 = ["window": ["w": 800, "h": 600], "volume": 5] }
        var session = try EditSession(store: store, domain: domain, format: .json)
        try write { $0 = ["window": ["w": 850, "h": 600], "volume": 6] }
        let mine = try edited(session, [(#""w": 800"#, #""w": 900"#)])
        let conflicts = try session.merge(mine)
        XCTAssertEqual(conflicts.map(\.place.pointer), ["/window/w"])
        XCTAssertEqual(conflicts.first?.now, 850)
        XCTAssertEqual(try values(), ["window": ["w": 850, "h": 600], "volume": 6], "nothing written")
        // Saved again: the person's value over the one they were shown, the rest as it is.
        try write { $0["window"] = ["w": 850, "h": 640] }
        XCTAssertEqual(try session.merge(mine), [])
        XCTAssertEqual(try values(), ["window": ["w": 900, "h": 640], "volume": 6])
    }

    func testADictionaryReplacedMeanwhileIsAConflictThenReplaced() throws {
        try write { $0 = ["window": ["w": 800]] }
        var session = try EditSession(store: store, domain: domain, format: .json)
        try write { $0 = ["window": "gone"] }
        let mine = try edited(session, [(#""w": 800"#, #""w": 900"#)])
        let conflicts = try session.merge(mine)
        XCTAssertEqual(conflicts.map(\.place.pointer), ["/window"])
        XCTAssertEqual(conflicts.first?.now, "gone")
        XCTAssertEqual(try session.merge(mine), [])
        XCTAssertEqual(try values(), ["window": ["w": 900]])
    }

    func testNumbersPrintedOtherwiseAreNoChangeAndNewDictionariesStayDictionaries() throws {
        try write { $0 = ["ratio": .double(2), "big": .int(PlistInteger(unsigned: UInt64.max)), "e": [:]] }
        var session = try EditSession(store: store, domain: domain, format: .json)
        // jq 1.6 prints 2.0 as 2; a key that reads as an index is a key in a new dictionary.
        let mine = try edited(
            session, [("2.0", "2"), (#""e": {}"#, #""e": {"0": {"1": true}}, "n": {"0": 1}"#)])
        XCTAssertEqual(try session.merge(mine), [])
        XCTAssertEqual(
            try values(),
            [
                "ratio": .double(2), "big": .int(PlistInteger(unsigned: UInt64.max)), "e": ["0": ["1": true]],
                "n": ["0": 1],
            ])
        XCTAssertTrue(EditSession.sameText(.int(PlistInteger(2)), .double(2)))
        XCTAssertFalse(EditSession.sameText(.int(PlistInteger(Int64.max)), .double(0x1p63)))
        XCTAssertFalse(EditSession.sameText(.double(2.5), .int(PlistInteger(2))))
    }

    func testAnEmptiedDictionaryKeepsALeafAddedMeanwhile() throws {
        try write { $0 = ["window": ["w": 800, "h": 600]] }
        var session = try EditSession(store: store, domain: domain, format: .json)
        try write { $0 = ["window": ["w": 800, "h": 600, "x": 1]] }
        var text = String(decoding: session.written, as: UTF8.self)
        text = text.replacingOccurrences(
            of: #"\{\s*"h": 600,\s*"w": 800\s*\}"#, with: "{}", options: .regularExpression)
        XCTAssertEqual(try session.merge(try session.parse(Array(text.utf8))), [])
        XCTAssertEqual(try values(), ["window": ["x": 1]])
    }
}
