import XCTest
@testable import settings
import PlistModel
import PlistCodecs
import SettingsStore

/// `write --json` and `import --json`: integers from JSON keep the real type they replace.
final class KeepingRealsTests: XCTestCase {
    func testIntegersKeepTheTypeOfTheRealTheyReplace() {
        let old = PlistValue.dict([
            "r": .double(0.5), "f": .float(2), "i": .int(3), "list": .array([.double(1)]),
            "deep": .dict(["x": .double(1)]),
        ])
        let new = PlistValue.dict([
            "r": .int(1), "f": .int(3), "i": .int(4), "list": .array([.int(2), .int(3)]),
            "deep": .dict(["x": .int(2)]), "fresh": .int(5),
        ])
        XCTAssertEqual(
            JSONIntegers.keepingReals(new, where: old),
            .dict([
                "r": .double(1), "f": .float(3), "i": .int(4), "list": .array([.double(2), .int(3)]),
                "deep": .dict(["x": .double(2)]), "fresh": .int(5),
            ]))
    }
}
