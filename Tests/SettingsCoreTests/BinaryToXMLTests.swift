import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
import TestSupport

/// XML written straight from a binary file's bytes (`export D -` of a binary domain) must be
/// byte for byte the XML of the values read from it, and a file whose XML cannot be so
/// written (keys out of order or repeated, a key that is no ASCII string, a string XML
/// cannot hold, a root that is no dictionary) must be left to the values' way.
final class BinaryToXMLTests: XCTestCase {
    private func streamed(_ bytes: [UInt8], chunk: Int) throws -> [UInt8]? {
        guard let layout = try BinaryReader.checkedForXML(bytes) else { return nil }
        var out: [UInt8] = []
        var pieces = 0
        try XMLWriter.encode(binary: bytes, layout: layout, chunk: chunk) {
            out.append(contentsOf: $0)
            pieces += 1
        }
        // Cut between the root's entries, as the values' way cuts it.
        if chunk < 64, case .dict(let root) = try BinaryReader.read(bytes) {
            XCTAssertEqual(pieces, root.count + 1, "one piece per root entry, and the end")
        }
        return out
    }

    /// Every sample the editor's tests use (our own writer's files and every binary
    /// dictionary of the corpus): streamed, or left to the tree, never different.
    func testStreamedXMLIsTheXMLOfTheValues() throws {
        var streamedCount = 0
        for (name, bytes) in BinaryEditorTests.samples {
            let tree = XMLWriter.encode(try BinaryReader.read(bytes))
            for chunk in [1 << 20, 7] {
                guard let xml = try streamed(bytes, chunk: chunk) else { continue }
                XCTAssertEqual(String(decoding: xml, as: UTF8.self), String(decoding: tree, as: UTF8.self), name)
                if chunk == 7 { streamedCount += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(streamedCount, 3, "our own writer's files are all streamed")
    }

    /// Every kind of value, nested, shared, escaped, empty, and a UID.
    func testEveryKindOfValue() throws {
        var domain = XMLCodecTests.edgeCases
        domain["uid"] = .dict([BinaryReader.uidKey: .int(7)])
        domain["escaped <&>"] = .string("a < b && c > d")
        domain["empty"] = .array([.array([]), .dict([:]), .string(""), .data([])])
        domain["nested"] = .dict([
            "b": .array([.dict(["z": .double(1.5), "a": .date(PlistDate(secondsSince2001: 1))])])
        ])
        domain["unicode"] = .string("значение 😀")
        domain["big"] = .int(PlistInteger(unsigned: UInt64.max))
        domain["negative"] = .int(-5)
        domain["float"] = .float(0.1)
        let bytes = BinaryWriter.encode(.dict(domain))
        let xml = try XCTUnwrap(try streamed(bytes, chunk: 7), "every key is ASCII and sorted")
        XCTAssertEqual(
            String(decoding: xml, as: UTF8.self), String(decoding: XMLWriter.encode(.dict(domain)), as: UTF8.self))
        // And Foundation reads it, every key there.
        let read = try PropertyListSerialization.propertyList(from: Data(xml), format: nil) as? [String: Any]
        XCTAssertEqual(read?.count, domain.count)
    }

    /// Random documents, small and big (past a piece of output, cut between the root's
    /// entries; a 70,000-byte data among the first objects, so offsets of three bytes):
    /// streamed as the values are written, or left to them.
    func testRandomDocumentsAreWrittenAsTheirValuesAre() throws {
        var random = RandomPlist(rng: SplitMix(state: 50), asciiKeys: true)
        var streamedCount = 0
        for round in 0..<300 {
            let big = round % 150 == 0
            var root = random.root(big ? 2_000 : random.int(12))
            if big { root["0data"] = .data(Array(repeating: 7, count: 70_000)) }
            let bytes = BinaryWriter.encode(.dict(root))
            let tree = XMLWriter.encode(.dict(root))
            if big {
                XCTAssertEqual(bytes[bytes.count - 32 + 6], 3, "three-byte offsets")
                XCTAssertGreaterThan(tree.count, 2 << 16, "over two pieces")
            }
            for chunk in [1 << 16, 7] {
                guard let xml = try streamed(bytes, chunk: chunk) else { continue }
                XCTAssertEqual(String(decoding: xml, as: UTF8.self), String(decoding: tree, as: UTF8.self), "\(round)")
                if chunk == 7 { streamedCount += 1 }
            }
        }
        XCTAssertEqual(streamedCount, 300, "every key is ASCII and sorted")
    }

    /// A dictionary holding key "a" twice (object 0: {1: 2, 1: 3}): the values' way lets the
    /// last count; the stream, which would write both, must not be taken.
    func testARepeatedKeyIsLeftToTheValues() throws {
        let bytes = Self.binary(objects: [[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x10, 1], [0x10, 2]])
        XCTAssertEqual(try BinaryReader.read(bytes), .dict(["a": .int(2)]))
        XCTAssertNil(try BinaryReader.checkedForXML(bytes))
    }

    /// Keys "b" then "a": written in the file's order they would come out unsorted.
    func testKeysOutOfOrderAreLeftToTheValues() throws {
        let bytes = Self.binary(objects: [[0xD2, 1, 2, 3, 3], [0x51, 0x62], [0x51, 0x61], [0x10, 1]])
        XCTAssertEqual(try BinaryReader.read(bytes), .dict(["a": .int(1), "b": .int(1)]))
        XCTAssertNil(try BinaryReader.checkedForXML(bytes))
    }

    /// A UTF-16 key, a control character in a key or in a nested string, a root array, and
    /// a UID root: each goes the values' way (which refuses or writes it as before).
    func testWhatCannotBeStreamed() throws {
        let refused: [(String, PlistValue)] = [
            ("UTF-16 key", .dict(["ключ": .int(1)])),
            ("control character in a key", .dict(["a\u{1}": .int(1)])),
            ("control character in a value", .dict(["a": .array([.string("x\u{7}")])])),
            ("control character in UTF-16", .dict(["a": .string("я\u{1}")])),
            ("root array", .array([.int(1)])),
            ("UID root", .dict([BinaryReader.uidKey: .int(1)])),
        ]
        for (name, value) in refused {
            XCTAssertNil(try BinaryReader.checkedForXML(BinaryWriter.encode(value)), name)
        }
        // Tab, line feed and carriage return are XML's own: still streamed.
        XCTAssertNotNil(try BinaryReader.checkedForXML(BinaryWriter.encode(.dict(["a": .string("x\t\n\r")]))))
    }

    /// A damaged file is refused by the check with the error the reader gives.
    func testADamagedFileThrowsAsTheReaderThrows() {
        let cycle = Self.binary(objects: [[0xD1, 1, 0], [0x51, 0x61]])
        XCTAssertThrowsError(try BinaryReader.read(cycle))
        XCTAssertThrowsError(try BinaryReader.checkedForXML(cycle)) { error in
            XCTAssertEqual(
                (error as? PlistError).map(String.init(describing:)),
                (try? BinaryReader.read(cycle)).map { _ in "" } ?? self.message(of: cycle))
        }
        var truncated = BinaryWriter.encode(.dict(["a": .int(1)]))
        truncated.removeLast(40)
        XCTAssertThrowsError(try BinaryReader.checkedForXML(truncated))
    }

    /// The bytes `export D -` writes from are a mapped file another program may rewrite
    /// after the check: the writer checks every offset, length, reference and depth again
    /// as it uses them. Each byte of the objects and references, changed to each of a few
    /// values, is written with the unchanged file's layout from bytes that end at a page
    /// nothing may read: the XML is written or an error thrown, and nothing past the end
    /// is read (that would end the test with SIGSEGV).
    func testBytesChangedAfterTheCheckAreNeverReadOutside() throws {
        let value = PlistValue.dict([
            "a": .array([.string("xyz"), .int(300), .dict(["k": .bool(true)])]),
            "b": .string(String(repeating: "long ", count: 4)), "c": .data([1, 2, 3]), "d": .double(2.5),
            "e": .array([.int(-1), .int(1 << 40)]),
        ])
        let original = BinaryWriter.encode(value)
        let layout = try XCTUnwrap(try BinaryReader.checkedForXML(original))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = (original.count + page - 1) / page * page
        let region = try XCTUnwrap(mmap(nil, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(region, MAP_FAILED)
        defer { munmap(region, size + page) }
        XCTAssertEqual(mprotect(region + size, page, PROT_NONE), 0)
        let start = (region + size - original.count).assumingMemoryBound(to: UInt8.self)
        let bytes = UnsafeMutableBufferPointer(start: start, count: original.count)
        let trailer = original.count - 32
        var written = 0, thrown = 0
        for at in 8..<trailer {
            for byte: UInt8 in [0x00, 0x01, 0x0F, 0x5F, 0x7F, 0xAF, 0xD1, 0xDF, 0xFF, original[at] &+ 1] {
                _ = bytes.initialize(from: original)
                bytes[at] = byte
                do {
                    try XMLWriter.encode(binary: UnsafeBufferPointer(bytes), layout: layout, chunk: 64) { _ in }
                    written += 1
                } catch {
                    thrown += 1
                }
            }
        }
        XCTAssertGreaterThan(written, 0)
        XCTAssertGreaterThan(thrown, 0)
        // Bytes of another length are not the file that was checked.
        XCTAssertThrowsError(
            try XMLWriter.encode(binary: Array(original.dropLast()), layout: layout, chunk: 64) { _ in })
    }

    /// A reference changed into a cycle after the check ends at the depth limit, as
    /// reading it would, instead of writing forever.
    func testACycleMadeAfterTheCheckThrows() throws {
        let checked = Self.binary(objects: [[0xD1, 1, 2], [0x51, 0x61], [0xA1, 3], [0x10, 1]])
        let layout = try XCTUnwrap(try BinaryReader.checkedForXML(checked))
        var cycle = checked
        cycle[8 + 3 + 2 + 1] = 2  // the array's element: the array itself
        XCTAssertThrowsError(try XMLWriter.encode(binary: cycle, layout: layout, chunk: 64) { _ in }) { error in
            guard case .binary(.tooDeep, _)? = error as? PlistError else { return XCTFail("\(error)") }
        }
    }

    /// The check calls `progress` as it goes (the store gives a mapped file's pages back
    /// there), about once per `progressStep` values.
    func testTheCheckReportsProgress() throws {
        var root = PlistDictionary()
        for i in 0..<20_000 { root[String(format: "k%06d", i)] = .int(PlistInteger(Int64(i))) }
        let bytes = BinaryWriter.encode(.dict(root))
        var calls = 0
        let layout = try bytes.withUnsafeBufferPointer { buffer in
            try BinaryReader.checkedForXML(buffer) { calls += 1 }
        }
        XCTAssertNotNil(layout)
        XCTAssertEqual(calls, (2 * 20_000 + 1) / BinaryReader.progressStep)
    }

    private func message(of bytes: [UInt8]) -> String {
        do {
            _ = try BinaryReader.read(bytes)
            return ""
        } catch {
            return String(describing: error)
        }
    }

    /// A bplist00 of `objects` (each its bytes), object 0 the root, one-byte offsets and
    /// references.
    static func binary(objects: [[UInt8]]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(out.count))
            out += object
        }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, 1]
        out += Self.bigEndian(UInt64(objects.count)) + Self.bigEndian(0) + Self.bigEndian(UInt64(table))
        return out
    }

    private static func bigEndian(_ n: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) }
    }
}
