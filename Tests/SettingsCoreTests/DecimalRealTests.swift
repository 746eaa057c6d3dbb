import XCTest
@testable import PlistModel

/// `DecimalReal` must give `strtod`'s answer (Swift's `Double(String)`) bit for bit for
/// everything it reads, and read nothing `Double(String)` refuses.
final class DecimalRealTests: XCTestCase {
    /// Its answer, or nil; and when it answers, the C parser's, bit for bit.
    @discardableResult
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Double? {
        let fast = DecimalReal.parse(Array(text.utf8).span)
        guard let fast else { return nil }
        let slow = Double(text)
        XCTAssertNotNil(slow, "read what strtod refuses: \(text)", file: file, line: line)
        XCTAssertEqual(fast.bitPattern, slow?.bitPattern, text, file: file, line: line)
        return fast
    }

    func testTheShortestTextOfRandomDoublesReadsBackExactly() {
        var generator = SystemRandomNumberGenerator()
        var read = 0
        for round in 0..<200_000 {
            let value: Double
            switch round % 4 {
            case 0: value = Double(bitPattern: generator.next())
            case 1: value = Double.random(in: -1e6...1e6, using: &generator)
            case 2: value = Double.random(in: 0..<1, using: &generator) / 7
            default: value = Double(Int64.random(in: -1 << 60...1 << 60, using: &generator)) / 1000
            }
            guard value.isFinite else { continue }
            if check(value.description) != nil { read += 1 }
        }
        XCTAssertGreaterThan(read, 120_000, "the common reals are read here, not by strtod")
    }

    /// Up to 20 digits, a point anywhere, an exponent from -30 to 30: the products and
    /// quotients every shift and remainder of the 128-bit arithmetic meets.
    func testRandomDecimalsReadAsStrtodReadsThem() {
        var read = 0
        for _ in 0..<200_000 {
            let count = Int.random(in: 1...20)
            var digits = (0..<count).map { _ in String(Int.random(in: 0...9)) }.joined()
            if Bool.random() {
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: Int.random(in: 0...count)))
            }
            var text = ["", "-", "+"].randomElement()! + digits
            if Bool.random() {
                text += ["e", "E"].randomElement()! + ["", "-", "+"].randomElement()! + String(Int.random(in: 0...30))
            }
            if check(text) != nil { read += 1 }
        }
        XCTAssertGreaterThan(read, 100_000)
    }

    /// Ties and the edges of 64 bits: 2^53 + 1 and its multiples round to even, as do
    /// products whose bits past the 53rd are exactly one half, and above half by one bit.
    func testTiesAndEdgesRoundAsStrtodRounds() {
        for text in [
            "9007199254740993", "9007199254740995", "18014398509481986", "18014398509481990", "9007199254740993e1",
            "9007199254740993e19", "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "1844674407370955161e1", "9999999999999999999", "9999999999999999999e19", "9999999999999999999e-19",
            "1e19", "1e-19", "0.0000000000000000001", "1234567890123456789e-19", "4.9406564584124654e-324",
            "1.7976931348623157e308", "2.2250738585072014e-308", "0.1", "0.2", "0.3", "1.5", "2.5", "-0", "-0.0",
            "0", "00012", "+1", "1.", ".5", "1E+05", "1e-05", "123456789012345678e-15",
        ] {
            check(text)
        }
        XCTAssertEqual(check("0.14285714285714285"), 1.0 / 7)
        XCTAssertEqual(check("-0")?.sign, .minus)
        XCTAssertEqual(check("9007199254740993"), 9_007_199_254_740_992)
        for text in [
            "", ".", "-", "1e", "1e+", "e5", "1.2.3", "1e5.5", "0x10", "1 ", " 1", "nan", "inf", "1e400", "1d5",
        ] {
            XCTAssertNil(DecimalReal.parse(Array(text.utf8).span), text)
        }
    }

    /// Every text of a few characters that reads at all: never a different answer, and
    /// nothing strtod refuses.
    func testNoTextReadsOtherwiseThanStrtodReadsIt() {
        let alphabet = Array("0159.+-eE")
        for _ in 0..<200_000 {
            let text = String((0..<Int.random(in: 1...8)).map { _ in alphabet.randomElement()! })
            check(text)
        }
    }
}
