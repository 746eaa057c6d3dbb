import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
import TestSupport

/// A domain's whole text (`DomainStore.output(of:as:checking:)`) is written straight from
/// its file where it can be (XML from a binary file; JSON, `read D`'s text and a binary
/// plist from an XML one): byte for byte what the values' way (`DomainText(values, as:)`)
/// writes, for both file formats, small and big (read in halves, written in pieces), and
/// the caller's check shown the values only when they are what is written (big from
/// `XMLToTextTests.halvesFrom` bytes, and 500 entries printed, for the test). XML from a
/// binary file goes straight only from a mapping, which only a program that catches SIGBUS
/// allows (`ProgramChoices.mappings`): these tests allow it as the `settings` program does.
final class DomainTextTests: XCTestCase {
    var directory = ""
    var store: DomainStore!
    private var mappings: (@Sendable (String?) -> Void)?

    override func setUpWithError() throws {
        mappings = ProgramChoices.mappings.withLock { $0 }
        ProgramChoices.mappings.withLock { $0 = { _ in } }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString)").path
        store = DomainStore(directory: directory)
        // Small files read in halves as big ones are (`XMLToTextTests.halvesFrom`).
        store.halvesFrom = XMLToTextTests.halvesFrom
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        ProgramChoices.mappings.withLock { [mappings] in $0 = mappings }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Without a program's leave to map, a binary file's XML is written from its values,
    /// the same bytes.
    func testALibraryWritesABinaryFilesXMLFromItsValues() throws {
        let values: PlistDictionary = ["a": .string("é"), "b": .bool(true)]
        XCTAssertEqual(try compare(values, as: .binary, "mapped"), 1, "XML straight from the mapping")
        ProgramChoices.mappings.withLock { $0 = nil }
        XCTAssertEqual(try compare(values, as: .binary, "unmapped"), 0, "every form from the values")
    }

    private func written(_ text: DomainText) throws -> [UInt8] {
        var out: [UInt8] = []
        try text.write { out.append(contentsOf: $0) }
        return out
    }

    /// Every form of `values` kept as `format`: the store's text against the values' way;
    /// how many were written straight (the check never called).
    private func compare(_ values: PlistDictionary, as format: PlistFormat, _ name: String, big: Bool = false)
        throws -> Int
    {
        let path = directory + "/com.text.plist"
        let file = try PropertyList.encode(.dict(values), as: format)
        if big, format == .xml { XCTAssertGreaterThan(file.count, store.halvesFrom, "\(name): read in halves") }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
        // The values as the file holds them (keys sorted, a 32-bit real in XML a double).
        let read = try XCTUnwrap(try store.load(.named("com.text"))).values
        var straight = 0
        for form in [DomainText.Form.xml, .json, .defaults, .binary] {
            var checked: PlistDictionary?
            var text = try store.output(of: .named("com.text"), as: form) { checked = $0 }
            // A big domain printed from its values in halves, against one printer.
            text.halvesFrom = 500
            let expected = try written(DomainText(read, as: form))
            XCTAssertTrue(try written(text) == expected, "\(name), \(format) as \(form)")
            if let checked { XCTAssertEqual(checked, read, "\(name), \(format) as \(form)") } else { straight += 1 }
        }
        return straight
    }

    func testEveryFormIsWhatTheValuesWrite() throws {
        var random = RandomPlist(rng: SplitMix(state: 52), asciiKeys: true)
        var straight = 0
        for round in 0..<40 {
            var root = random.root(round == 0 ? 1_500 : 1 + random.int(12))
            // A real the JSON and `read D` text spell their own way, and a date.
            root["real"] = .double(0.1)
            root["when"] = .date(PlistDate(secondsSince2001: 6e8))
            straight += try compare(root, as: .xml, "round \(round)", big: round == 0)
            straight += try compare(root, as: .binary, "round \(round)", big: round == 0)
        }
        // XML from a binary file, the three others from an XML one: four of eight a round.
        XCTAssertEqual(straight, 40 * 4)
    }

    /// No file: the values' way, empty, shown to the check (`read D` refuses it).
    func testADomainWithNoFileIsItsEmptyValues() throws {
        for form in [DomainText.Form.xml, .json, .defaults, .binary] {
            var checked: PlistDictionary?
            let text = try store.output(of: .named("com.none"), as: form) { checked = $0 }
            XCTAssertEqual(checked, [:])
            XCTAssertEqual(try written(text), try written(DomainText([:], as: form)))
        }
        struct Refused: Error {}
        XCTAssertThrowsError(try store.output(of: .named("com.none"), as: .defaults) { _ in throw Refused() }) {
            XCTAssertTrue($0 is Refused)
        }
    }
}
