import XCTest
@testable import PlistCodecs

/// The tables' keyed hash (`SipHash13`): SipHash-1-3 itself, and a seed that decides
/// where every key lands.
final class SipHash13Tests: XCTestCase {
    /// The reference seed of SipHash's paper: the bytes 0 to 15.
    let reference = SipHash13.Seed(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)

    func hash(_ key: String, _ seed: SipHash13.Seed) -> UInt64 {
        Array(key.utf8).withUnsafeBytes { SipHash13.hash($0, seed: seed) }
    }

    /// The messages 0, 0 1, 0 1 2, … (bytes), of 0 to 17 bytes, against a byte-at-a-time
    /// SipHash-1-3 written from the paper (in Python, itself checked against the paper's
    /// SipHash-2-4 vectors): no words, whole words, and every length of tail.
    func testItIsSipHash13() {
        let expected: [UInt64] = [
            0xabac_0158_050f_c4dc, 0xc9f4_9bf3_7d57_ca93, 0x82cb_9b02_4dc7_d44d, 0x8bf8_0ab8_e7dd_f7fb,
            0xcf75_5760_88d3_8328, 0xdef9_d52f_4953_3b67, 0xc50d_2b50_c59f_22a7, 0xd392_7d98_9bb1_1140,
            0x3690_9511_8d29_9a8e, 0x25a4_8eb3_6c06_3de4, 0x79de_85ee_92ff_097f, 0x70c1_18c1_f94d_c352,
            0x78a3_84b1_57b4_d9a2, 0x306f_760c_1229_ffa7, 0x605a_a111_c0f9_5d34, 0xd320_d86d_2a51_9956,
            0xcc4f_dd1a_7d90_8b66, 0x9cf2_6890_63db_d80c,
        ]
        for (length, hash) in expected.enumerated() {
            let message = (0..<length).map { UInt8($0) }
            XCTAssertEqual(message.withUnsafeBytes { SipHash13.hash($0, seed: reference) }, hash, "\(length) bytes")
        }
        XCTAssertEqual(
            Array("com.example.volume".utf8).withUnsafeBytes { SipHash13.hash($0, seed: reference) },
            0x92ec_85d5_a10f_48dd)
    }

    func testTheSameSeedGivesTheSameHash() {
        let seed = SipHash13.Seed.random()
        for key in ["", "a", "com.example.volume", String(repeating: "x", count: 100)] {
            XCTAssertEqual(hash(key, seed), hash(key, seed))
        }
        XCTAssertEqual(SipHash13.Seed.process, SipHash13.Seed.process)
    }

    /// Another seed moves every key: no key hashes alike under two seeds, and the low bits
    /// a table picks its slot by differ as often as chance has it.
    func testAnotherSeedGivesOtherHashes() {
        let (a, b) = (SipHash13.Seed.random(), SipHash13.Seed.random())
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, .process)
        let keys = (0..<1_000).map { "key\($0)" }
        let underA = keys.map { hash($0, a) }
        let underB = keys.map { hash($0, b) }
        XCTAssertEqual(zip(underA, underB).filter { $0 == $1 }.count, 0)
        XCTAssertLessThan(zip(underA, underB).filter { $0 & 0xFF == $1 & 0xFF }.count, 20)
        // One bit of the seed is enough.
        let flipped = SipHash13.Seed(k0: a.k0 ^ 1, k1: a.k1)
        XCTAssertEqual(keys.filter { hash($0, a) == hash($0, flipped) }, [])
    }

    /// Bytes are whole words, then the rest with the count on top: a key and the same key
    /// with a zero byte more hash apart.
    func testTrailingZerosCount() {
        let seed = SipHash13.Seed.random()
        var seen = Set<UInt64>()
        for length in 0..<20 {
            let bytes = [UInt8](repeating: 0, count: length)
            XCTAssertTrue(seen.insert(bytes.withUnsafeBytes { SipHash13.hash($0, seed: seed) }).inserted, "\(length)")
        }
    }
}
