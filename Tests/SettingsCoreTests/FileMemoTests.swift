import XCTest

@testable import PlistCodecs
@testable import PlistModel
@testable import SettingsStore

/// An update given a `FileMemo` takes the values it remembers only for the very bytes
/// it remembers: the parse it saves must never cost another writer's change.
final class FileMemoTests: XCTestCase {
    var directory = ""
    var store: DomainStore!
    var path: String { directory + "/com.memo.plist" }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID().uuidString)").path
        store = DomainStore(directory: directory)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func fileValues() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as! [String: Any]
    }

    private func set(_ key: String, _ value: PlistValue, memo: FileMemo) throws {
        try store.update(.named("com.memo"), key: key, written: nil, memo: memo) {
            $0 = value
            return true
        }
    }

    func testTheRememberedBytesAreNotParsedAgain() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        // Proof that the file is not parsed: the memo is made to lie about the file's bytes.
        memo.remember(Array(try Data(contentsOf: URL(fileURLWithPath: path))), ["lie": true])
        try set("b", 2, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["lie": true, "b": 2])
    }

    func testOtherBytesAreParsed() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        memo.remember(Array("<plist/>".utf8), ["lie": true])
        try set("b", 2, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["a": 1, "b": 2])
    }

    func testAnotherWritersRewriteInPlaceWithinOneClockTickIsKept() throws {
        // Same size, same inode, and the times put back: a FileStamp could not tell it
        // from the file this process wrote. The bytes differ, so the update reads them.
        let memo = FileMemo()
        try set("key", "aaaa", memo: memo)
        let before = try FileManager.default.attributesOfItem(atPath: path)
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "aaaa", with: "bbbb")
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: before[.modificationDate]!], ofItemAtPath: path)
        try set("other", 1, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["key": "bbbb", "other": 1])
    }

    func testTheMemoFollowsEachWriteAndForgetsARemovedFile() throws {
        let memo = FileMemo()
        for i in 0..<50 { try set("k\(i)", .int(Int64(i)), memo: memo) }
        XCTAssertEqual(try fileValues().count, 50)
        XCTAssertEqual(memo.values(of: Array(try Data(contentsOf: URL(fileURLWithPath: path))))?.count, 50)
        try store.update(.named("com.memo"), written: nil, memo: memo) { values in
            values = PlistDictionary()
            return true
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try set("again", 1, memo: memo)
        XCTAssertEqual(try fileValues() as NSDictionary, ["again": 1])
    }

    func testABinaryDomainIsEditedWithoutTheMemo() throws {
        let memo = FileMemo()
        try set("a", 1, memo: memo)
        try Data(BinaryWriter.encode(.dict(["a": 1]))).write(to: URL(fileURLWithPath: path))
        try set("b", 2, memo: memo)
        var format = PropertyListSerialization.PropertyListFormat.xml
        _ = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: URL(fileURLWithPath: path)), format: &format)
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(try fileValues() as NSDictionary, ["a": 1, "b": 2])
    }
}
