import TestSupport
import XCTest
@testable import PlistModel

/// `DecimalReal` must give `strtod`'s answer (Swift's `Double(String)`) bit for bit for
/// everything it reads, and read nothing `Double(String)` refuses.
final class DecimalRealTests: XCTestCase {
    /// Every text read otherwise than the C parser reads it, with both answers: collected
    /// and asserted once a test is done (`tearDown`), as an assertion for each of hundreds
    /// of thousands of texts was most of these tests' time.
    private var differences: [String] = []
    /// The texts' generator: seeded anew each run, as the system's generator drew them
    /// before (a system call for every number, most of these tests' time), the seed told
    /// with any difference so that a failing run comes back.
    private let seed = UInt64.random(in: 0...UInt64.max)

    override func tearDown() {
        XCTAssertEqual(differences, [], "read otherwise than strtod (or what it refuses), seed \(seed)")
        super.tearDown()
    }

    /// Its answer, or nil; and when it answers, the C parser's, bit for bit.
    @discardableResult
    private func check(_ text: String) -> Double? {
        let fast = DecimalReal.parse(Array(text.utf8).span)
        guard let fast else { return nil }
        let slow = Double(text)
        if slow?.bitPattern != fast.bitPattern {
            differences.append("\(text): \(fast) for \(slow.map { "\($0)" } ?? "nil")")
        }
        return fast
    }

    func testTheShortestTextOfRandomDoublesReadsBackExactly() {
        var random = SplitMix(state: seed)
        var read = 0
        for round in 0..<200_000 {
            let value: Double
            switch round % 4 {
            case 0: value = Double(bitPattern: random.next())
            case 1: value = Double.random(in: -1e6...1e6, using: &random)
            case 2: value = Double.random(in: 0..<1, using: &random) / 7
            default: value = Double(Int64.random(in: -1 << 60...1 << 60, using: &random)) / 1000
            }
            guard value.isFinite else { continue }
            if check(value.description) != nil { read += 1 }
        }
        XCTAssertGreaterThan(read, 120_000, "the common reals are read here, not by strtod")
    }

    /// Up to 20 digits, a point anywhere, an exponent from -30 to 30: the products and
    /// quotients every shift and remainder of the 128-bit arithmetic meets.
    func testRandomDecimalsReadAsStrtodReadsThem() {
        let signs: [[UInt8]] = [[], [UInt8(ascii: "-")], [UInt8(ascii: "+")]]
        var random = SplitMix(state: seed)
        var read = 0
        for _ in 0..<200_000 {
            // Built as bytes: a string for each digit cost more than the parsing.
            let count = 1 + random.below(20)
            var digits: [UInt8] = []
            for _ in 0..<count { digits.append(UInt8(ascii: "0") + UInt8(random.below(10))) }
            if random.below(2) == 0 { digits.insert(UInt8(ascii: "."), at: random.below(count + 1)) }
            var text = signs[random.below(3)] + digits
            if random.below(2) == 0 {
                text.append(random.below(2) == 0 ? UInt8(ascii: "e") : UInt8(ascii: "E"))
                text += signs[random.below(3)]
                text += Array(String(random.below(31)).utf8)
            }
            if check(String(decoding: text, as: UTF8.self)) != nil { read += 1 }
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
        let alphabet = Array("0159.+-eE".utf8)
        var random = SplitMix(state: seed)
        for _ in 0..<200_000 {
            var text: [UInt8] = []
            for _ in 0...random.below(8) { text.append(alphabet[random.below(alphabet.count)]) }
            check(String(decoding: text, as: UTF8.self))
        }
    }
}

extension SplitMix {
    /// A number below `n`, drawn without the generic `random(in:using:)`, which a debug
    /// build does not specialize (half these tests' time went to its type lookups).
    fileprivate mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
