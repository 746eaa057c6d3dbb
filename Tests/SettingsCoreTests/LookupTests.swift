import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// `PropertyList.lookup` builds one value but must judge a file exactly as `read` does.
final class LookupTests: XCTestCase {
    func testLookupAgreesWithReadForEveryKey() throws {
        var domain = XMLCodecTests.edgeCases
        domain["shared"] = .array([.string("Åbenraa"), .string("Åbenraa")])
        domain["uid"] = .dict([BinaryReader.uidKey: .int(3)])
        for format in [PlistFormat.xml, .binary] {
            let bytes = try PropertyList.encode(.dict(domain), as: format)
            guard case .dict(let read) = try PropertyList.read(bytes).0 else { return XCTFail() }
            for key in read.keys {
                XCTAssertEqual(try PropertyList.lookup(bytes, key: key).0, .dictionary(read[key]), "\(format) \(key)")
            }
            XCTAssertEqual(try PropertyList.lookup(bytes, key: "absent").0, .dictionary(nil))
            // Keys are matched by their bytes, as everywhere else.
            XCTAssertEqual(try PropertyList.lookup(bytes, key: "e\u{301}").0, .dictionary(nil))
        }
    }

    func testLookupRefusesAFileBrokenElsewhere() {
        let xml = "<plist><dict><key>a</key><integer>1</integer><key>b</key><integer>x</integer></dict></plist>"
        XCTAssertThrowsError(try PropertyList.lookup(Array(xml.utf8), key: "a"))
        let badUTF8: [UInt8] =
            Array("<plist><dict><key>a</key><true/><key>b</key><string>".utf8) + [0xFF]
            + Array("</string></dict></plist>".utf8)
        XCTAssertThrowsError(try PropertyList.lookup(badUTF8, key: "a"))
        // A binary dictionary whose second value refers to itself.
        var bytes = Array("bplist00".utf8) + [0xD2, 0x01, 0x02, 0x03, 0x00, 0x51, 0x61, 0x51, 0x62, 0x09]
        let table = bytes.count
        bytes +=
            [8, 13, 15, 17] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        XCTAssertThrowsError(try PropertyList.read(bytes))
        XCTAssertThrowsError(try PropertyList.lookup(bytes, key: "a"))
    }

    func testLookupReportsANonDictionaryRoot() throws {
        for format in [PlistFormat.xml, .binary] {
            let bytes = try PropertyList.encode(.array([.int(1)]), as: format)
            XCTAssertEqual(try PropertyList.lookup(bytes, key: "a").0, .notADictionary(.array))
        }
    }
}
