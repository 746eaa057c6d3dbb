import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
import TestSupport

/// Keys an attacker made to share a slot of a table that hashes them (issue 48): the
/// binary writer's numbering, `XMLNodes`' (export of an XML domain to a binary file) and
/// the key index. Work is counted, not timed: the slots looked at past each key's own,
/// which a flood makes grow with the square of the keys. Each flood is checked to collide
/// under the hash the tables had before, and compared with random keys of the same count
/// and size.
final class HashFloodTests: XCTestCase {
    /// Enough keys that a flood's square (about 8 million probes) stands far above a
    /// random set's count, few enough that a flood under the old hashes fails in a few
    /// seconds of a debug build.
    let count = 4_096

    /// The dictionary of `keys`, each set to its place: values of their own, as
    /// `CollidingKeys.xmlDomain` says why.
    func dictionary(_ keys: [[UInt8]]) -> PlistValue {
        var dict = PlistDictionary()
        for (place, key) in keys.enumerated() {
            dict.append(key: String(decoding: key, as: UTF8.self), value: .int(PlistInteger(Int64(place))))
        }
        return .dict(dict)
    }

    /// Fails unless `flood` is within three times `random` (or the key count, when the
    /// random keys probed fewer slots than there are keys).
    func assertLinear(_ flood: Int, _ random: Int, _ what: String, line: UInt = #line) {
        XCTAssertLessThanOrEqual(
            flood, 3 * max(random, count), "\(what): \(flood) probes, random keys \(random)", line: line)
    }

    func testTheBinaryWritersNumberingIsNotFlooded() {
        var rng = SplitMix(state: 48)
        let flood = CollidingKeys.writerFlood(tag: 7, count: count, using: &rng)
        XCTAssertEqual(Set(flood).count, count)
        XCTAssertEqual(Set(flood.map { CollidingKeys.oldWriterHash(tag: 7, $0) }).count, 1, "no flood")
        let random = CollidingKeys.random(count: count, length: flood[0].count, using: &rng)
        assertLinear(
            BinaryWriter.probes(numbering: dictionary(flood)), BinaryWriter.probes(numbering: dictionary(random)),
            "binary writer")
    }

    func testTheDirectExportsNumberingIsNotFlooded() throws {
        var rng = SplitMix(state: 49)
        // Tag 0: an ASCII string's node kind, which `XMLNodes` hashes first.
        XCTAssertEqual(XMLNodes.Kind.ascii.rawValue, 0)
        let flood = CollidingKeys.writerFlood(tag: 0, count: count, using: &rng)
        XCTAssertEqual(Set(flood.map { CollidingKeys.oldWriterHash(tag: 0, $0) }).count, 1, "no flood")
        let random = CollidingKeys.random(count: count, length: flood[0].count, using: &rng)
        func probes(_ keys: [[UInt8]]) throws -> Int {
            let text = CollidingKeys.xmlDomain(keys)
            return try text.withUnsafeBufferPointer { buffer in
                try XCTUnwrap(XMLReader.binaryPlist(mapped: buffer, owner: nil, dropPages: {})).probes
            }
        }
        assertLinear(try probes(flood), try probes(random), "XML nodes")
    }
}

extension HashFloodTests {
    /// The key index's table, made from a flood's places (`KeyIndex.encode`): the slots
    /// past their own its keys sit, which is both what making it probed and what looking
    /// each key up probes.
    func testTheKeyIndexIsNotFlooded() throws {
        var rng = SplitMix(state: 50)
        // 17 bits: every slot count up to 2^17, the 131,072 slots of 40,000 keys' index.
        let mask: UInt64 = (1 << 17) - 1
        let flood = CollidingKeys.indexFlood(count: count, bits: 17, using: &rng)
        XCTAssertEqual(Set(flood).count, count)
        XCTAssertEqual(Set(flood.map { CollidingKeys.oldIndexHash($0) & mask }).count, 1, "no flood")
        // Not one full hash shared, or the index would refuse them, not be flooded by them.
        XCTAssertEqual(Set(flood.map(CollidingKeys.oldIndexHash)).count, count)
        let random = CollidingKeys.random(count: count, length: flood[0].count, using: &rng)
        assertLinear(try indexProbes(flood), try indexProbes(random), "key index")
    }

    /// The slots past their own that the keys of the index of an XML domain of `keys` sit.
    func indexProbes(_ keys: [[UInt8]]) throws -> Int {
        let seed = SipHash13.Seed.random()
        let (_, _, found) = try PropertyList.lookupPlaces(CollidingKeys.xmlDomain(keys), key: "k", seed: seed)
        let places = try XCTUnwrap(found)
        let bytes = try XCTUnwrap(KeyIndex.encode(places, seed: seed, format: .xml, of: FileSystem.Status(stat())))
        return bytes.withUnsafeBytes { raw in
            func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            let slotCount = Int(word(8 * 8))
            let body = KeyIndex.bodyOffset(pageCount: Int(word(9 * 8)))
            var probes = 0
            for i in 0..<slotCount {
                let slot = word(body + i * 8)
                guard slot != 0 else { continue }
                let home = Int(truncatingIfNeeded: places[Int(slot & 0xFFFF_FFFF) - 1].hash)
                probes += (i - home) & (slotCount - 1)
            }
            return probes
        }
    }
}
