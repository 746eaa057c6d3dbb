import Foundation
import XCTest
@testable import SettingsKit
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The check that lets a cache skip its `stat`: unchanged until something happens to
/// the file, however it is written, and never trusted for a link.
final class FolderChangesTests: XCTestCase {
    func testUnchangedUntilTheFileIsWrittenEitherWay() throws {
        let directory = NSTemporaryDirectory() + "changes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = DomainStore(directory: directory)
        let path = store.path(of: .named("com.c"))
        let changes = try XCTUnwrap(FolderChanges())
        let (_, readAt) = changes.check(path, since: nil)
        let first = try XCTUnwrap(readAt, "a missing file in an existing folder can be watched")
        XCTAssertTrue(changes.check(path, since: first).unchanged)
        try store.update(.named("other")) {
            $0["k"] = 1; return true
        }
        XCTAssertTrue(changes.check(path, since: first).unchanged, "another file changed")
        try store.update(.named("com.c")) {
            $0["k"] = 1; return true
        }
        XCTAssertFalse(changes.check(path, since: first).unchanged, "an atomic save")
        let second = try XCTUnwrap(changes.check(path, since: nil).now)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.truncateFile(atOffset: 0)
        handle.closeFile()
        XCTAssertFalse(changes.check(path, since: second).unchanged, "a rewrite in place")
        let link = directory + "/linked.plist"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        XCTAssertNil(changes.check(link, since: nil).now, "a link's target may change elsewhere")
        // A file in a folder that is not there yet (an administrator's layer) is watched
        // from the nearest folder that is: unchanged until the folder appears.
        let missing = directory + "/no/such/folder.plist"
        let before = try XCTUnwrap(changes.check(missing, since: nil).now)
        XCTAssertTrue(changes.check(missing, since: before).unchanged)
        try FileManager.default.createDirectory(atPath: directory + "/no", withIntermediateDirectories: false)
        XCTAssertFalse(changes.check(missing, since: before).unchanged, "a folder on the way appeared")
        let again = try XCTUnwrap(changes.check(missing, since: nil).now)
        try FileManager.default.createDirectory(atPath: directory + "/no/such", withIntermediateDirectories: false)
        XCTAssertFalse(changes.check(missing, since: again).unchanged, "the folder appeared")
        let watched = try XCTUnwrap(changes.check(missing, since: nil).now)
        XCTAssertTrue(changes.check(missing, since: watched).unchanged)
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: missing))
        XCTAssertFalse(changes.check(missing, since: watched).unchanged, "the file appeared")
    }
}
