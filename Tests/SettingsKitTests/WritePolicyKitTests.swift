import Foundation
import SettingsKit
import SettingsStore
import XCTest

/// SettingsKit writes through the store's one transaction, so the domain's schema holds
/// for a Swift program as it does for the command line (issue 47): `set`, `batch` and a
/// coalesced flush of a value the schema refuses throw, and the file stays as it was.
final class WritePolicyKitTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    func testASchemaHoldsForSettingsKit() throws {
        let folder = scratch.directory + "/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let schema = #"{"keys": {"volume": {"type": "integer", "minimum": 0, "maximum": 100}}}"#
        XCTAssertTrue(
            FileManager.default.createFile(atPath: folder + "/com.kit.policy.json", contents: Data(schema.utf8)))
        let settings = Settings(domain: "com.kit.policy", directory: scratch.directory) { _ in }
        let volume = SettingsKey<Int>("volume", default: 50)
        try settings.set(70, for: volume)
        let file = scratch.directory + "/com.kit.policy.plist"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try settings.set(500, for: volume)) { error in
            guard case .unencodable("volume", let reason)? = error as? SettingsError,
                reason.contains("500 is not in 0…100")
            else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertThrowsError(try settings.batch { $0[volume] = 900 })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        XCTAssertEqual(settings[volume], 70)
    }
}
