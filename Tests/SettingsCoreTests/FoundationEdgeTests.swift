import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs

/// The edge documents where our readers once parted from Foundation's: each is read by
/// `PropertyList.read` and by Foundation's `PropertyListSerialization` in this process,
/// and both must give the same verdict and the same value.
final class FoundationEdgeTests: XCTestCase {
    private static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"

    /// A one-key document `a` = `element`.
    private static func xml(_ element: String) -> [UInt8] {
        Array((head + "<dict><key>a</key>\(element)</dict></plist>\n").utf8)
    }

    private static let documents: [(String, [UInt8])] = {
        var list: [(String, [UInt8])] = [
            (
                "an unknown encoding",
                Array(
                    "<?xml version=\"1.0\" encoding=\"foobar\"?>\n<plist><dict><key>a</key><integer>1</integer></dict></plist>"
                        .utf8)
            ),
            ("an integer after spaces, a sign and a tab", xml("<integer> +\t42</integer>")),
            ("an integer with a space after its sign", xml("<integer>- 42</integer>")),
            ("an integer with a space after it", xml("<integer>42 </integer>")),
            ("a real with spaces after it", xml("<real>1.5  </real>")),
            ("a real with spaces before it", xml("<real>  1.5</real>")),
            ("a date on January 32", xml("<date>2024-01-32T20:43:14Z</date>")),
            ("a date with every field past its end", xml("<date>2024-13-61T25:61:61Z</date>")),
            ("a date after a space", xml("<date> 2024-01-02T20:43:14Z</date>")),
            ("a date in month 13 of a leap year", xml("<date>2020-13-45T99:99:99Z</date>")),
            ("a date in month 13", xml("<date>2019-13-01T00:00:00Z</date>")),
            ("a date in month 14", xml("<date>2020-14-01T00:00:00Z</date>")),
            ("a date in month 00 on day 00", xml("<date>2021-00-00T00:00:00Z</date>")),
            ("a date on February 30 at 24:00", xml("<date>2020-02-30T24:00:00Z</date>")),
            ("a date without its Z", xml("<date>2020-01-02T00:00:00</date>")),
            ("a date with a letter", xml("<date>2020-1x-05T00:00:00Z</date>")),
            ("Foundation's distantPast", xml("<date>0000-12-30T00:00:00Z</date>")),
        ]
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-32\"?>\n<plist><dict><key>a</key><string>Å😀</string></dict></plist>"
        var be: [UInt8] = [0, 0, 0xFE, 0xFF], le: [UInt8] = [0xFF, 0xFE, 0, 0]
        for scalar in text.unicodeScalars {
            let v = scalar.value
            be += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            le += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        }
        list += [("UTF-32 big-endian with a BOM", be), ("UTF-32 little-endian with a BOM", le)]
        let binary = BinaryWriter.encode(.dict(["a": .int(1)]))
        for version in ["bplist0x", "bplist05", "bplist10"] {
            list.append(("a binary header \(version)", Array(version.utf8) + binary.dropFirst(8)))
        }
        return list
    }()

    func testEdgeDocumentsReadAsFoundationReadsThem() throws {
        for (name, bytes) in Self.documents {
            let theirs = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
            let ours = try? PropertyList.read(bytes).0
            XCTAssertEqual(ours != nil, theirs != nil, "\(name): ours \(String(describing: ours))")
            guard let ours, let theirs = theirs as? [String: Any] else { continue }
            guard case .dict(let dict) = ours, let value = dict["a"] else { XCTFail(name); continue }
            switch (value, theirs["a"]) {
            case (.int(let i), let n as NSNumber): XCTAssertEqual(i.int64, n.int64Value, name)
            case (.double(let d), let n as NSNumber): XCTAssertEqual(d, n.doubleValue, name)
            case (.string(let s), let t as String): XCTAssertEqual(s, t, name)
            case (.date(let d), let t as Date):
                XCTAssertEqual(d.secondsSince2001, t.timeIntervalSinceReferenceDate, name)
            default: XCTFail("\(name): ours \(value), Foundation's \(String(describing: theirs["a"]))")
            }
        }
    }

    /// The name of an unknown encoding is shown in one line of printable text, whatever
    /// the file put between the quotes.
    func testAnUnknownEncodingIsNamedInOneLine() {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"x\ny\u{1B}[31m\"?>\n<plist><dict/></plist>".utf8)
        XCTAssertThrowsError(try PropertyList.read(bytes)) { error in
            XCTAssertEqual(
                (error as? PlistError)?.message,
                "XML line 1: unknown encoding 'x?y?[31m' (UTF-8, UTF-16, UTF-32, US-ASCII and ISO-8859-1 are read)")
        }
        let latin1: [UInt8] =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>".utf8) + [0xE9]
            + Array("</string></plist>".utf8)
        XCTAssertEqual(try PropertyList.read(latin1).0, .string("\u{E9}"))
    }
}
