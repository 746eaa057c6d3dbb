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

    /// Canonical text copied into lines is `encodeLines` of what it decodes to, at every
    /// line length and indent XML uses; text with white space or a wrong character is
    /// not canonical there.
    func testCanonicalLinesAreTheEncodedLines() {
        for length in [0, 1, 2, 3, 56, 57, 58, 100, 300] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            var text: [UInt8] = []
            Base64.encode(bytes, into: &text)
            text.withUnsafeBufferPointer { text in
                XCTAssertEqual(Base64.isCanonical(text, allowingSpace: false), false)
                for level in 0...9 {
                    let (lineLength, indent) = (76 - 8 * min(level, 8), min(level, 8))
                    var copied: [UInt8] = [], encoded: [UInt8] = []
                    Base64.appendLines(canonical: text, lineLength: lineLength, indent: indent, into: &copied)
                    Base64.encodeLines(bytes, lineLength: lineLength, indent: indent, into: &encoded)
                    XCTAssertEqual(copied, encoded, "\(length) bytes at level \(level)")
                }
            }
        }
        for text in ["AA\nAA", "AAF=", "AA=A", "A===", "AAA", "AA A"] {
            Array(text.utf8).withUnsafeBufferPointer {
                XCTAssertNil(Base64.isCanonical($0, allowingSpace: false), text)
            }
        }
    }
}
