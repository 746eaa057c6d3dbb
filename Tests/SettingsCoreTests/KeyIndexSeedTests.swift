import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The key index keeps the seed its keys were hashed by (`KeyIndex`, format 2): a lookup
/// hashes by the file's seed, not this process's, and an index of the format before
/// (unkeyed FNV-1a) is not read at all.
final class KeyIndexSeedTests: XCTestCase {
    var directory = ""
    var domain: String { directory + "/com.big.plist" }
    var index: StateFile { StateFile(root: directory, "index") }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// A domain of 2,000 keys, `key0` … `key1999`, each set to its number, as `format`.
    func writeDomain(_ format: PlistFormat) throws -> [UInt8] {
        var dict = PlistDictionary()
        for i in 0..<2_000 { dict.append(key: "key\(i)", value: .int(Int64(i))) }
        let bytes = try PropertyList.encode(.dict(dict), as: format)
        try Data(bytes).write(to: URL(fileURLWithPath: domain))
        return bytes
    }

    /// The index of the domain file, its keys hashed by `seed`, written where `index` is.
    func makeIndex(_ bytes: [UInt8], seed: SipHash13.Seed) throws -> [UInt8] {
        let (_, format, found) = try PropertyList.lookupPlaces(bytes, key: "key1", seed: seed)
        let status = try XCTUnwrap(FileSystem.status(domain))
        let encoded = try XCTUnwrap(KeyIndex.encode(XCTUnwrap(found), seed: seed, format: format, of: status))
        try index.replace(with: encoded)
        return encoded
    }

    /// The index's page count (header word 9).
    func pageCount(_ encoded: [UInt8]) -> Int {
        encoded.withUnsafeBytes { Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 72, as: UInt64.self))) }
    }

    /// What the index answers for `key`.
    func lookup(_ key: String) throws -> KeyIndex.Answer? {
        let fd = open(domain, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        return KeyIndex.lookup(key, index: index, file: fd, status: try FileSystem.status(fd: fd))
    }

    /// Made with a seed of its own, not the process's, the index answers every key, in
    /// both formats: the reader hashes by the seed in the file's header.
    func testAnIndexRoundTripsWithItsSeed() throws {
        for format in [PlistFormat.xml, .binary] {
            let seed = SipHash13.Seed.random()
            XCTAssertNotEqual(seed, .process)
            let bytes = try writeDomain(format)
            let encoded = try makeIndex(bytes, seed: seed)
            let words = encoded.withUnsafeBytes { raw in
                (0..<16).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
            }
            XCTAssertEqual(words[0], KeyIndex.magic)
            XCTAssertEqual(SipHash13.Seed(k0: words[10], k1: words[11]), seed)
            for i in [0, 1, 999, 1_999] { XCTAssertEqual(try lookup("key\(i)"), .value(.int(Int64(i))), "\(format)") }
            XCTAssertEqual(try lookup("key2000"), .absent)
        }
    }

    /// Two indexes of one file under two seeds put its keys in other slots, and each
    /// answers alike.
    func testEachIndexHasItsOwnSeed() throws {
        let bytes = try writeDomain(.xml)
        let first = try makeIndex(bytes, seed: .random())
        XCTAssertEqual(try lookup("key7"), .value(7))
        let second = try makeIndex(bytes, seed: .random())
        XCTAssertEqual(try lookup("key7"), .value(7))
        let body = KeyIndex.bodyOffset(pageCount: pageCount(first))
        XCTAssertNotEqual(first[body...], second[body...])
    }

    /// An index of format 1 (unkeyed, no seed) is not read: the read falls back to the
    /// whole file, and the store makes a new index (`KeyIndexTests` in the command
    /// line's tests).
    func testAnIndexOfTheFormatBeforeIsNotRead() throws {
        let bytes = try writeDomain(.xml)
        var encoded = try makeIndex(bytes, seed: .random())
        XCTAssertEqual(try lookup("key7"), .value(7))
        let pages = pageCount(encoded)
        encoded.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt64(0x0001_5844_4954_4553).littleEndian, toByteOffset: 0, as: UInt64.self)
            for word in [10, 11] { raw.storeBytes(of: UInt64(0), toByteOffset: word * 8, as: UInt64.self) }
            let sum = KeyIndex.headerSum(UnsafeBufferPointer(raw.bindMemory(to: UInt8.self)).span, pageCount: pages)
            raw.storeBytes(of: sum.littleEndian, toByteOffset: 120, as: UInt64.self)
        }
        try index.replace(with: encoded)
        XCTAssertNil(try lookup("key7"))
    }
}
