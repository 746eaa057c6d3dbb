import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The binary editor must give exactly what rebuilding the whole tree gives: for every
/// binary dictionary we have, every kind of change to one key reads back as the tree
/// with that change, and the untouched values keep their sharing.
final class BinaryEditorTests: XCTestCase {
    /// An editor as the store makes one: from the layout of a lookup that checked the file.
    private func editor(_ bytes: [UInt8], _ key: String) -> BinaryEditor? {
        guard let (_, _, layout) = try? BinaryReader.lookupWithLayout(bytes.span, key: key) else { return nil }
        return BinaryEditor(bytes.span, layout: layout, key: key)
    }

    /// The document `bytes` with `key` set to `value` (nil removes it), through the editor.
    private func edit(_ bytes: [UInt8], _ key: String, _ value: PlistValue?, chunk: Int = 1 << 20) throws -> [UInt8] {
        _ = try BinaryReader.lookup(bytes, key: key)  // the editor's precondition: a checked file
        let editor = try XCTUnwrap(editor(bytes, key), "the root is no dictionary object")
        var out: [UInt8] = []
        try editor.write(value, from: bytes.span, chunk: chunk) { out.append(contentsOf: $0) }
        return out
    }

    /// Checks one edit against the tree: the edited file reads back as the whole document
    /// read, with the key changed, whether it was written in one piece or in 7-byte pieces.
    private func check(_ bytes: [UInt8], _ key: String, _ value: PlistValue?, _ name: String, line: UInt = #line) throws
    {
        guard case .dict(var expected) = try BinaryReader.read(bytes) else { return }
        expected[key] = value
        for chunk in [1 << 20, 7] {
            let edited = try edit(bytes, key, value, chunk: chunk)
            XCTAssertEqual(try BinaryReader.read(edited), .dict(expected), "\(name): set \(key)", line: line)
        }
    }

    static var samples: [(String, [UInt8])] {
        var domain = XMLCodecTests.edgeCases
        domain["uid"] = .dict([BinaryReader.uidKey: .int(7)])
        domain["shared"] = .array(Array(repeating: .string("same"), count: 20) + [.dict(["same": .string("same")])])
        domain["utf16 ключ"] = .string("значение 😀")
        var many = PlistDictionary()
        for i in 0..<300 {
            many["k\(i)"] = i % 3 == 0 ? .int(Int64(i)) : .array([.string("v\(i % 7)"), .bool(i % 2 == 0)])
        }
        var samples = [
            ("edge cases", BinaryWriter.encode(.dict(domain))),
            ("300 keys, 2-byte refs", BinaryWriter.encode(.dict(many))),
            ("one key", BinaryWriter.encode(.dict(["only": .int(1)]))),
        ]
        // Files written by others: every binary dictionary in the corpus.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../Fixtures/corpus"
        ).standardized
        let files =
            FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for url in files.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: url), data.starts(with: Array("bplist00".utf8)),
                case .dict? = try? BinaryReader.read(Array(data))
            else { continue }
            samples.append((url.lastPathComponent, Array(data)))
        }
        return samples
    }

    func testEveryChangeReadsBackAsTheTreeWithThatChange() throws {
        let samples = Self.samples
        XCTAssertGreaterThan(samples.count, 12, "the corpus's binary dictionaries are here")
        for (name, bytes) in samples {
            guard case .dict(let dict) = try BinaryReader.read(bytes), editor(bytes, "") != nil else {
                continue
            }
            let keys = dict.keys
            let changes: [PlistValue?] = [
                nil, .int(5), .string("new"), .array([.string("same"), .int(-1)]),
                .dict(["nested": .dict(["deep": .data([1, 2, 3])])]), .dict([BinaryReader.uidKey: .int(3)]),
            ]
            for key in Array(keys.prefix(3)) + Array(keys.suffix(2)) + ["absent key", "é"] {
                for value in changes { try check(bytes, key, value, name) }
                if let old = dict[key] { try check(bytes, key, old, name) }
            }
        }
    }

    func testAUIDRootIsNotEdited() throws {
        let uid = BinaryWriter.encode(.dict([BinaryReader.uidKey: .int(7)]))
        XCTAssertEqual(try BinaryReader.read(uid), .dict([BinaryReader.uidKey: .int(7)]))
        XCTAssertNil(editor(uid, "k"), "a UID object has no entries")
    }

    func testTheOldValueIsDroppedAndSharingKept() throws {
        let big = PlistValue.data(Array(repeating: 7, count: 10_000))
        let bytes = BinaryWriter.encode(.dict(["big": big, "a": .string("s"), "b": .string("s")]))
        let edited = try edit(bytes, "big", .int(1))
        XCTAssertLessThan(edited.count, 200, "the 10 KB value is gone")
        let count = edited[(edited.count - 24)..<(edited.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(count, 6, "root, its three keys, the shared 's', the new integer")
    }

    func testDuplicateKeysAreAllReplaced() throws {
        // A file may hold a key twice; readers use the last. Our writer never makes one,
        // so the document is spelled out: root {k = 1; other = 2; k = 3}.
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object: [UInt8] in [
            [0xD3, 1, 2, 1, 3, 4, 5], [0x51, 0x6B], [0x55] + Array("other".utf8), [0x10, 1], [0x10, 2], [0x10, 3],
        ] {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes +=
            offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 6] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        XCTAssertEqual(try BinaryReader.lookup(bytes, key: "k").found, .int(3))
        XCTAssertEqual(editor(bytes, "k")?.otherEntryCount, 1)
        let edited = try edit(bytes, "k", .int(9))
        guard case .dict(let back) = try BinaryReader.read(edited) else { return XCTFail("not a dictionary") }
        XCTAssertEqual(back.entries.map(\.key), ["other", "k"], "one k, where the last one stood")
        XCTAssertEqual(back["k"], .int(9))
        guard case .dict(let removed) = try BinaryReader.read(try edit(bytes, "k", nil)) else {
            return XCTFail("not a dictionary")
        }
        XCTAssertEqual(removed.entries.map(\.key), ["other"])
    }
}
