import Foundation
import XCTest

@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsStore

/// A one-key write reads the file its lock opened where it lies, a mapping whose pages it
/// gives back as it goes, only in a program that allows mappings (`ProgramChoices.mappings`,
/// as the `settings` program does); a library reads it whole. Either way the file written
/// is the same, byte for byte, and a file the mapped way does not take is read whole, with
/// the whole read's answer. Seen in the system door's trace (`CallTrace`).
final class OneKeyMappingTests: XCTestCase {
    var directory = ""
    var store: DomainStore!
    private var mappings: (@Sendable (String?) -> Void)?

    override func setUpWithError() throws {
        mappings = ProgramChoices.mappings.withLock { $0 }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("onekey-\(UUID().uuidString)").path
        store = DomainStore(directory: directory, readRetry: 0)
        store.mapOneKeyFrom = 0  // these files are small; the size is tested on its own below
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        ProgramChoices.mappings.withLock { [mappings] in $0 = mappings }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Big enough for the reader and the editor to give pages back on the way.
    private static let values: PlistDictionary = {
        var values = PlistDictionary()
        for i in 0..<20_000 {
            let value: PlistValue
            switch i % 3 {
            case 0: value = .string("value \(i)")
            case 1: value = .int(Int64(i))
            default: value = .array([.bool(true)])
            }
            values["key\(100_000 + i)"] = value
        }
        values["é"] = .data([1, 2, 3])
        return values
    }()

    /// The bytes of `name` after setting `k` and removing `key100001` in a file holding `file`,
    /// and the calls made, with or without the program's leave to map.
    private func write(_ file: [UInt8], mapping: Bool, _ name: String) throws -> (
        bytes: [UInt8], calls: [CallTrace.Call], told: [String?]
    ) {
        let path = directory + "/\(name).plist"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
        let told = Paths()
        let hook: (@Sendable (String?) -> Void)? = { told.add($0) }
        ProgramChoices.mappings.withLock { $0 = mapping ? hook : nil }
        let (_, calls) = try CallTrace.record {
            try store.update(.named(name), key: "k") {
                $0 = .string("new"); return true
            }
            try store.update(.named(name), key: "key100001") {
                $0 = nil; return true
            }
        }
        return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), calls, told.paths)
    }

    private func mapped(_ calls: [CallTrace.Call]) -> [CallTrace.Call] { calls.filter { $0.name == "mmap" } }

    func testAOneKeyWriteMapsTheFileOnlyWithTheProgramsLeave() throws {
        for format in [PlistFormat.binary, .xml] {
            let file = try PropertyList.encode(.dict(Self.values), as: format)
            let whole = try write(file, mapping: false, "com.whole.\(format)")
            XCTAssertEqual(mapped(whole.calls), [], "\(format): a library reads the file whole")
            XCTAssertTrue(whole.calls.contains { $0.name == "read" && $0.result == file.count }, "\(format)")

            let path = directory + "/com.mapped.\(format).plist"
            let inPlace = try write(file, mapping: true, "com.mapped.\(format)")
            XCTAssertEqual(mapped(inPlace.calls).count, 2, "\(format): both writes mapped")
            XCTAssertEqual(mapped(inPlace.calls).first?.result, file.count, "\(format)")
            XCTAssertFalse(
                inPlace.calls.contains { $0.name == "read" && $0.result >= file.count / 2 },
                "\(format): never read whole")
            XCTAssertGreaterThan(
                inPlace.calls.filter { $0.name == "madvise" }.count, 3, "\(format): pages given back on the way")
            XCTAssertEqual(inPlace.told, [path, nil, path, nil], "\(format): the hook told of each mapping")
            XCTAssertEqual(inPlace.bytes, whole.bytes, "\(format): the same file")
            var expected = Self.values
            expected["k"] = .string("new")
            expected["key100001"] = nil
            XCTAssertEqual(try PropertyList.read(inPlace.bytes).0, .dict(expected), "\(format)")
        }
    }

    /// What the mapped way does not take is read whole and answered as before: UTF-16 XML,
    /// a binary file that does not parse (the same error), a root that is no dictionary.
    func testWhatTheMappedWayDoesNotTakeIsReadWhole() throws {
        ProgramChoices.mappings.withLock { $0 = { _ in } }
        let xml = try PropertyList.encode(.dict(["a": 1]), as: .xml)
        let utf16 =
            [UInt8]([0xFF, 0xFE])
            + String(decoding: xml, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let cases: [(String, [UInt8])] = [
            ("utf16", utf16),
            ("broken", Array(try PropertyList.encode(.dict(Self.values), as: .binary).dropLast(3))),
            ("array", try PropertyList.encode(.array([1]), as: .binary)),
        ]
        for (name, file) in cases {
            let path = directory + "/com.\(name).plist"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
            var error: StoreError?
            let (_, calls) = CallTrace.record {
                do {
                    try store.update(.named("com.\(name)"), key: "k") {
                        $0 = 1; return true
                    }
                } catch let e as StoreError {
                    error = e
                } catch { XCTFail("\(error)") }
            }
            XCTAssertEqual(mapped(calls).count, 1, name)
            XCTAssertTrue(calls.contains { $0.name == "read" && $0.result == file.count }, "\(name): read whole after")
            switch name {
            case "utf16":
                XCTAssertNil(error, name);
                XCTAssertEqual(try store.load(.named("com.utf16"))?.values, ["a": 1, "k": 1])
            case "broken": guard case .corrupt? = error else { return XCTFail("\(name): \(String(describing: error))") }
            default:
                guard case .notADictionary? = error else { return XCTFail("\(name): \(String(describing: error))") }
            }
        }
    }

    /// A binary file changed in place while its objects were copied from the mapping is not
    /// put in place: the write fails, saying so in words a user can act on, not the system's
    /// "Resource temporarily unavailable" it borrowed the number of.
    func testAFileChangedInPlaceWhileCopiedSaysSo() {
        let error = StoreError.writeFailed(path: "/c/com.x.plist", .changedInPlace)
        XCTAssertEqual(
            error.message,
            "cannot write /c/com.x.plist: another program changed it in place while it was read; try again")
    }

    /// A file under `mapOneKeyFrom` (1 MiB, a real domain's size and far more) is read whole
    /// even in a program that allows mappings: mapping it costs more than the copy it saves.
    func testASmallFileIsReadWholeEvenWithTheProgramsLeave() throws {
        ProgramChoices.mappings.withLock { $0 = { _ in } }
        store.mapOneKeyFrom = DomainStore(directory: directory).mapOneKeyFrom
        XCTAssertEqual(store.mapOneKeyFrom, 1 << 20)
        for format in [PlistFormat.binary, .xml] {
            let file = try PropertyList.encode(.dict(["a": 1]), as: format)
            let path = directory + "/com.small.\(format).plist"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
            let (_, calls) = try CallTrace.record {
                try store.update(.named("com.small.\(format)"), key: "k") {
                    $0 = 1; return true
                }
            }
            XCTAssertEqual(mapped(calls), [], "\(format)")
            XCTAssertTrue(calls.contains { $0.name == "read" && $0.result == file.count }, "\(format): read whole")
            XCTAssertEqual(try store.load(.named("com.small.\(format)"))?.values, ["a": 1, "k": 1])
        }
    }
}

/// No file is ever written larger than a reader takes: past the limit the write stops.
final class WriteLimitTests: XCTestCase {
    func testAWritePastItsLimitStopsWithEFBIG() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString)").path
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer {
            close(fd)
            unlink(path)
        }
        XCTAssertThrowsError(
            try FileSystem.writeAll(
                fd,
                from: { write in
                    try write([1, 2, 3, 4, 5, 6, 7, 8][...])
                    try write([9, 10, 11][...])
                }, limit: 10)
        ) { XCTAssertEqual($0 as? Errno, Errno.fileTooLarge) }
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path))[.size] as? Int, 8)
        XCTAssertEqual(FileSystem.maximumReadSize, 1 << 30, "the limit AtomicFile writes to: what a reader takes")
    }
}
