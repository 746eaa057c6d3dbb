import Foundation
import PlistModel
import PlistCodecs
import SettingsStore
import SettingsKit
import XCTest

/// The attacks of ATTACKS.md that reach SettingsKit: what it writes can be read back,
/// read-only files are left alone, and a swapped config folder is never served stale.
final class SettingsKitAttackTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// A value nested past every reader's limit and a date before Foundation's distantPast are
    /// refused, and the file stays as it was. A key or value XML cannot hold (a control
    /// character) is not refused any more: it makes the domain binary, and reads back
    /// exactly, here and in Foundation (the peers' suites store any Swift string).
    func testWhatCannotBeReadBackIsNeverWritten() throws {
        let settings = Settings(domain: "com.kit", directory: scratch.directory) { _ in }
        try settings.set(1, for: SettingsKey<Int>("keep", default: 0))
        let file = scratch.directory + "/com.kit.plist"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertThrowsError(
            try settings.set(Date(timeIntervalSince1970: -70_000_000_000), for: SettingsKey<Date?>("when"))
        ) { error in
            guard case .store(.unstorable(_, .dateOutOfRange))? = error as? SettingsError else {
                return XCTFail("\(error)")
            }
        }
        var deep: PlistValue = 1
        for _ in 0..<600 { deep = .array([deep]) }
        XCTAssertThrowsError(try settings.set(deep, for: SettingsKey<PlistValue>("deep", default: 0))) { error in
            guard case .store(.unstorable(_, .tooDeep))? = error as? SettingsError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try settings.batch { $0[SettingsKey<PlistValue>("deep", default: 0)] = deep })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)

        try settings.set(1, for: SettingsKey<Int>("bad\u{1}key", default: 0))
        try settings.batch { $0[SettingsKey<String>("bad\u{2}", default: "")] = "v\u{0}" }
        let reader = Settings(domain: "com.kit", directory: scratch.directory)
        XCTAssertEqual(reader[SettingsKey<Int>("bad\u{1}key", default: 0)], 1)
        XCTAssertEqual(reader[SettingsKey<String>("bad\u{2}", default: "")], "v\u{0}")
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read =
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: URL(fileURLWithPath: file)), format: &format) as? [String: Any]
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(read?["bad\u{2}"] as? String, "v\u{0}")
        XCTAssertEqual(read?["keep"] as? Int, 1)
    }

    /// A file its owner may not write is not replaced: set throws `readOnly`.
    func testAReadOnlyFileIsLeftAlone() throws {
        let settings = Settings(domain: "com.kit", directory: scratch.directory) { _ in }
        let key = SettingsKey<Int>("volume", default: 0)
        try settings.set(1, for: key)
        let file = scratch.directory + "/com.kit.plist"
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        XCTAssertThrowsError(try settings.set(2, for: key)) { error in
            XCTAssertEqual(error as? SettingsError, .store(.readOnly(path: file)))
        }
        XCTAssertEqual(settings[key], 1)
    }

    /// The config folder is a link that is re-pointed, or its parent is swapped: the
    /// next read serves the new folder's value, never the cached one.
    func testASwappedConfigFolderIsNeverServedStale() throws {
        let root = scratch.directory
        for name in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/config", withDestinationPath: "A")
        let key = SettingsKey<Int>("volume", default: 0)
        try Settings(domain: "com.kit", directory: root + "/A").set(1, for: key)
        try Settings(domain: "com.kit", directory: root + "/B").set(2, for: key)
        let settings = Settings(domain: "com.kit", directory: root + "/config")
        XCTAssertEqual(settings[key], 1)
        XCTAssertEqual(settings[key], 1, "warm")
        // ln -sfn B config: a new link renamed over the old one.
        try FileManager.default.createSymbolicLink(atPath: root + "/config.new", withDestinationPath: "B")
        XCTAssertEqual(rename(root + "/config.new", root + "/config"), 0)
        XCTAssertEqual(settings[key], 2, "after the link was re-pointed")
        // The parent folder swapped for another with the same layout.
        let parent = root + "/p"
        try FileManager.default.createDirectory(atPath: parent + "/cfg", withIntermediateDirectories: true)
        try Settings(domain: "com.kit", directory: parent + "/cfg").set(3, for: key)
        let nested = Settings(domain: "com.kit", directory: parent + "/cfg")
        XCTAssertEqual(nested[key], 3)
        try FileManager.default.createDirectory(atPath: root + "/q/cfg", withIntermediateDirectories: true)
        try Settings(domain: "com.kit", directory: root + "/q/cfg").set(4, for: key)
        XCTAssertEqual(rename(parent, root + "/old"), 0)
        XCTAssertEqual(rename(root + "/q", parent), 0)
        XCTAssertEqual(nested[key], 4, "after the parent was swapped")
    }

    /// Publishing a schema replaces only a regular file: a FIFO in its place (which would
    /// hang the write), a folder, or a schemas folder that is a file, are one error each,
    /// and nothing is changed.
    func testASchemaIsPublishedOnlyOverARegularFile() throws {
        let settings = Settings(domain: "com.kit.schema", directory: scratch.directory) { _ in }
        let folder = scratch.directory + "/settings/schemas"
        let path = folder + "/com.kit.schema.json"
        let keys = [SettingsKey<Int>("count", default: 0)]
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try settings.publishSchema(for: keys)) { error in
            guard case .store(.notAFile(path, .fifo))? = error as? SettingsError else { return XCTFail("\(error)") }
        }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try settings.publishSchema(for: keys)) { error in
            guard case .store(.notAFile(path, .directory))? = error as? SettingsError else {
                return XCTFail("\(error)")
            }
        }
        try FileManager.default.removeItem(atPath: scratch.directory + "/settings")
        XCTAssertTrue(FileManager.default.createFile(atPath: scratch.directory + "/settings", contents: Data("x".utf8)))
        XCTAssertThrowsError(try settings.publishSchema(for: keys))
        XCTAssertEqual(try String(contentsOfFile: scratch.directory + "/settings", encoding: .utf8), "x")
    }
}
