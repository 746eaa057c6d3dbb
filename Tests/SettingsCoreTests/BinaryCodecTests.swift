import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class BinaryCodecTests: XCTestCase {
    func testRoundTripIsExactAndStable() throws {
        var value = XMLCodecTests.edgeCases
        value["uid"] = .dict([BinaryReader.uidKey: .int(7)])
        value["float"] = .float(75.1)
        value["subsecond"] = .date(PlistDate(secondsSince2001: 12.345678))
        value["long"] = .string(String(repeating: "x", count: 300))
        value["utf16"] = .string("Åbenraa 😀")
        let bytes = BinaryWriter.encode(.dict(value))
        XCTAssertEqual(try BinaryReader.read(bytes), .dict(value))
        XCTAssertEqual(BinaryWriter.encode(try BinaryReader.read(bytes)), bytes, "rewriting gives the same bytes")
    }

    func testEncodingsFollowApple() {
        func objects(_ value: PlistValue) -> [UInt8] {
            let bytes = BinaryWriter.encode(value)
            return Array(bytes[8..<(bytes.count - 32 - 1)])  // one object, 1-byte offset table
        }
        XCTAssertEqual(objects(.int(1)), [0x10, 0x01])
        XCTAssertEqual(objects(.int(256)), [0x11, 0x01, 0x00])
        XCTAssertEqual(objects(.int(-1)), [0x13] + Array(repeating: 0xFF, count: 8))
        XCTAssertEqual(
            objects(.int(PlistInteger(unsigned: .max))),
            [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8))
        XCTAssertEqual(objects(.float(1)), [0x22, 0x3F, 0x80, 0x00, 0x00])
        XCTAssertEqual(objects(.double(1)), [0x23, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(objects(.bool(true)), [0x09])
        XCTAssertEqual(objects(.string("é")), [0x61, 0x00, 0xE9])
        XCTAssertEqual(objects(.string("ab")), [0x52, 0x61, 0x62])
    }

    func testStringsAndScalarsAreWrittenOnce() {
        let shared = PlistValue.array(
            Array(repeating: .string("same"), count: 100) + Array(repeating: .int(5), count: 100))
        let bytes = BinaryWriter.encode(shared)
        let trailer = bytes.count - 32
        let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(count, 3, "the array, one string, one integer")
        XCTAssertEqual(bytes[trailer + 7], 1, "one-byte references")
    }

    /// Thousands of scalars, each given twice, alike in all but a byte, a type or a
    /// length (what the hash mixes): each is written once, found again past the table's
    /// growth (a writer sized for few, as the editor's is) and read back as given.
    func testManyScalarsAreEachWrittenOnceThroughGrowth() throws {
        var distinct: [PlistValue] = []
        for i in 0..<3000 {
            distinct += [
                .string("k\(i)"), .string("k\(i)\u{0}"), .string("é\(i)"), .int(PlistInteger(Int64(i + 20))),
                .double(Double(i) + 0.5), .float(Float(i) + 0.25), .date(PlistDate(secondsSince2001: Double(i))),
                .data(Array("k\(i)".utf8)), .data(Array("k\(i)".utf8) + [0]),
            ]
        }
        let value = PlistValue.array(distinct + distinct)
        for bytes in [BinaryWriter.encode(value), BinaryWriter.encode(value, capacity: 0)] {
            let trailer = bytes.count - 32
            let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual(count, distinct.count + 1, "the array and each scalar once")
            XCTAssertEqual(try BinaryReader.read(bytes), value)
        }
        var small = BinaryWriter()
        for item in distinct + distinct { _ = small.number(item) }
        XCTAssertEqual(small.objectCount, distinct.count, "grown from the smallest table, nothing twice")
    }

    /// A byte's kind is its high nibble, for all 256 bytes (the conversion is a bit cast,
    /// so every nibble must be a case, in order), and the writer's first bytes are the
    /// documented markers.
    func testEveryByteHasTheKindOfItsHighNibble() {
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(BPlistMarker(byte: byte).rawValue, byte >> 4)
            XCTAssertEqual(BPlistMarker(byte: byte).byte(BPlistMarker.low(byte)), byte)
        }
        XCTAssertEqual((0...15).compactMap { BPlistMarker(rawValue: UInt8($0)) }.count, 16)
        let first = { (value: PlistValue) in BinaryWriter.encode(value)[8] }
        XCTAssertEqual(first(.bool(false)), BPlistMarker.falseByte)
        XCTAssertEqual(first(.bool(true)), 0x09)
        XCTAssertEqual(first(.int(1)), 0x10)
        XCTAssertEqual(first(.float(1)), 0x22)
        XCTAssertEqual(first(.double(1)), 0x23)
        XCTAssertEqual(first(.date(PlistDate(secondsSince2001: 0))), 0x33)
        XCTAssertEqual(first(.data([1, 2])), 0x42)
        XCTAssertEqual(first(.string("ab")), 0x52)
        XCTAssertEqual(first(.string("é")), 0x61)
        XCTAssertEqual(first(.data(Array(repeating: 0, count: 15))), 0x4F)
    }

    /// Files built by hand to break one rule each; every one fails cleanly, with the code
    /// of the rule it breaks and the byte where it does.
    func testHostileFilesAreRefused() {
        func plist(
            objects: [UInt8], offsets: [UInt8], offsetSize: UInt8 = 1, refSize: UInt8 = 1,
            count: UInt64? = nil, top: UInt64 = 0, table: UInt64? = nil
        ) -> [UInt8] {
            var out = Array("bplist00".utf8) + objects
            let tableAt = UInt64(out.count)
            out += offsets
            out += [0, 0, 0, 0, 0, 0, offsetSize, refSize]
            for v in [count ?? UInt64(offsets.count / max(1, Int(offsetSize))), top, table ?? tableAt] {
                out += (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * UInt64($0))) }
            }
            return out
        }
        let cases: [(String, [UInt8], PlistError.BinaryCode, offset: Int)] = [
            (
                "truncated", Array(BinaryWriter.encode(.dict(["a": .int(1)])).dropLast(5)),
                .offsetSize(0), 19
            ),
            (
                "too short", Array("bplist00".utf8),
                .tooShort, 0
            ),
            (
                "self-containing array", plist(objects: [0xA1, 0x00], offsets: [8]),
                .objectContainsItself(0), 8
            ),
            (
                "two-object cycle", plist(objects: [0xA1, 0x01, 0xA1, 0x00], offsets: [8, 10]),
                .objectContainsItself(0), 8
            ),
            (
                "reference out of range", plist(objects: [0xA1, 0x05], offsets: [8]),
                .referenceOutOfRange(5, objects: 1), 9
            ),
            (
                "offset out of range", plist(objects: [0x09], offsets: [200]),
                .objectOutsideObjectArea(index: 0, offset: 200), 9
            ),
            (
                "offset into the header", plist(objects: [0x09], offsets: [2]),
                .objectOutsideObjectArea(index: 0, offset: 2), 9
            ),
            (
                "top object out of range", plist(objects: [0x09], offsets: [8], top: 4),
                .topObjectMissing(top: 4, objects: 1), 26
            ),
            (
                "huge object count", plist(objects: [0x09], offsets: [8], count: UInt64.max / 2),
                .offsetTableOutsideFile(objects: UInt64.max / 2, table: 9), 18
            ),
            (
                "offset table past the end", plist(objects: [0x09], offsets: [8], table: 1 << 40),
                .offsetTableOutsideFile(objects: 1, table: 1 << 40), 18
            ),
            (
                "zero offset size", plist(objects: [0x09], offsets: [8], offsetSize: 0),
                .offsetSize(0), 16
            ),
            (
                "zero reference size", plist(objects: [0xA1, 0x00], offsets: [8], refSize: 0),
                .referenceSize(0), 18
            ),
            (
                "huge array count",
                plist(objects: [0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], offsets: [8]),
                .lengthPastFile(PlistInteger(Int64.max)), 9
            ),
            (
                "string past the end", plist(objects: [0x5F, 0x10, 0x7F, 0x61], offsets: [8]),
                .lengthPastFile(PlistInteger(127)), 9
            ),
            (
                "UTF-16 past the end", plist(objects: [0x6F, 0x11, 0x7F, 0xFF, 0x00], offsets: [8]),
                .lengthPastFile(PlistInteger(32767)), 9
            ),
            (
                "data past the end", plist(objects: [0x4E, 0x00], offsets: [8]),
                .objectPastEnd, 9
            ),
            (
                "lone surrogate", plist(objects: [0x61, 0xD8, 0x00], offsets: [8]),
                .invalidUTF16, 8
            ),
            (
                "non-ASCII in ASCII string", plist(objects: [0x51, 0xC3], offsets: [8]),
                .nonASCIIString, 8
            ),
            (
                "NaN date", plist(objects: [0x33, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0], offsets: [8]),
                .dateOutOfRange, 8
            ),
            (
                "non-string key", plist(objects: [0xD1, 0x01, 0x01, 0x10, 0x01], offsets: [8, 11]),
                .keyIsNotAString, 8
            ),
            (
                "unknown marker", plist(objects: [0x70], offsets: [8]),
                .unsupportedMarker(0x70), 8
            ),
            (
                "null", plist(objects: [0x00], offsets: [8]),
                .unsupportedMarker(0x00), 8
            ),
        ]
        for (name, bytes, code, offset) in cases {
            XCTAssertThrowsError(try BinaryReader.read(bytes), name) { error in
                XCTAssertEqual(error as? PlistError, .binary(code, offset: offset), name)
            }
        }
    }

    /// Each array holds the next one twice: 40 objects stand for 2^40 values.
    func testSharedReferencesCannotExpandWithoutBound() {
        var objects: [UInt8] = []
        var offsets: [UInt8] = []
        for i in 0..<40 {
            offsets.append(UInt8(8 + objects.count))
            objects += i == 39 ? [0x09] : [0xA2, UInt8(i + 1), UInt8(i + 1)]
        }
        var bytes = Array("bplist00".utf8) + objects
        let table = bytes.count
        bytes +=
            offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 40] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        XCTAssertThrowsError(try BinaryReader.read(bytes)) { error in
            guard case .binary(.tooManyValues(limit: BinaryReader.maximumValues), _)? = error as? PlistError else {
                return XCTFail("\(error)")
            }
        }
    }

    func testDeepNestingFailsCleanly() {
        var value = PlistValue.string("seed")
        for _ in 0..<600 { value = .array([value]) }
        XCTAssertThrowsError(try BinaryReader.read(BinaryWriter.encode(value))) { error in
            guard case .binary(.tooDeep(limit: maximumNestingDepth), _)? = error as? PlistError else {
                return XCTFail("\(error)")
            }
        }
        var ok = PlistValue.string("seed")
        for _ in 0..<300 { ok = .array([ok]) }
        XCTAssertEqual(try BinaryReader.read(BinaryWriter.encode(ok)), ok)
    }
}
