import XCTest

@testable import PlistCodecs

/// Base64 copied from XML to JSON as it is, when it is what the writer would write.
final class Base64Tests: XCTestCase {
    /// Every text is either copied exactly as decoding and encoding it again would give,
    /// or refused, with nothing left behind: random texts of the alphabet, padding, white
    /// space and other bytes, and every encoding of short data with its unused bits set.
    func testACanonicalCopyIsTheReencoding() {
        var texts: [[UInt8]] = []
        for length in 0..<7 {
            for _ in 0..<40 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
                var encoded: [UInt8] = []
                Base64.encode(bytes, into: &encoded)
                texts.append(encoded)
                // The same with white space, and with each character changed by one.
                texts.append(encoded.flatMap { [$0, UInt8(ascii: "\n"), UInt8(ascii: "\t")] })
                for i in encoded.indices {
                    var changed = encoded
                    changed[i] &+= 1
                    texts.append(changed)
                }
            }
        }
        let pieces = Array("AQgw+/=  \n\r\t*-_".utf8)
        for _ in 0..<5000 {
            texts.append((0..<Int.random(in: 0...12)).map { _ in pieces.randomElement()! })
        }
        var copied = 0
        for text in texts {
            var out: [UInt8] = [7]
            let ok = text.withUnsafeBufferPointer { Base64.appendCanonical($0, to: &out) }
            let again = Base64.decode(text).map { bytes -> [UInt8] in
                var encoded: [UInt8] = []
                Base64.encode(bytes, into: &encoded)
                return encoded
            }
            let bare = text.filter { !" \t\n\r".utf8.contains($0) }
            if ok {
                copied += 1
                XCTAssertEqual(Array(out.dropFirst()), again, "\(text)")
            } else {
                XCTAssertEqual(out, [7], "nothing left behind")
                XCTAssertNotEqual(again, bare, "a canonical text refused: \(String(decoding: text, as: UTF8.self))")
            }
        }
        XCTAssertGreaterThan(copied, 500)
    }
}
