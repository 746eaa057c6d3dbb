import XCTest

@testable import PlistCodecs
@testable import PlistModel

/// The scans that look at eight bytes at a time, against the same question asked one
/// byte at a time: every byte value at every place of words and their tails.
final class ByteScanTests: XCTestCase {
    /// Every failure is reported, not only the first.
    private func each(_ body: ([UInt8], Int, UInt8) -> Void) {
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 21)
        forEveryByte(inPrefixesOf: filler, lengths: [1, 7, 8, 9, 16, 17, 21]) { bytes, place, b in
            body(bytes, place, b)
            return true
        }
    }

    func testMarkupIsTheFirstLessThanOrAmpersand() {
        each { bytes, place, b in
            for start in [0, min(3, bytes.count)] {
                let expected =
                    bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") })
                    ?? bytes.count
                let found = bytes.withUnsafeBufferPointer { XMLReader.markup(in: $0, from: start) }
                if found != expected { XCTFail("byte \(b) at \(place) of \(bytes.count) from \(start): \(found)") }
            }
        }
        // Two in one word: the first counts.
        let twice = Array("ab&c<def".utf8)
        XCTAssertEqual(twice.withUnsafeBufferPointer { XMLReader.markup(in: $0, from: 0) }, 2)
    }

    func testPrecedesIsByteOrder() {
        each { bytes, place, b in
            let other = [UInt8](repeating: UInt8(ascii: "x"), count: bytes.count)
            for (a, c) in [(bytes, other), (other, bytes), (bytes, Array(other.prefix(place))), (bytes, other + [0])] {
                let found = bytesPrecede(a.span, c.span)
                if found != a.lexicographicallyPrecedes(c) { XCTFail("byte \(b) at \(place) of \(bytes.count)") }
            }
        }
    }

    func testUTF8IsCheckedPastTheASCIIWords() {
        each { bytes, place, b in
            let found = bytes.withUnsafeBufferPointer(isValidUTF8)
            if found != (String(validating: bytes, as: UTF8.self) != nil) {
                XCTFail("byte \(b) at \(place) of \(bytes.count)")
            }
        }
    }
}
