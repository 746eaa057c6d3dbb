import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

final class DomainStoreTests: XCTestCase {
    var directory = ""
    var store: DomainStore!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        store = DomainStore(directory: directory)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    private func set(_ key: String, _ value: PlistValue?, in domain: DomainName = .named("com.test")) throws {
        try store.update(domain, host: .any) {
            $0[key] = value; return true
        }
    }

    /// Every write path, with the journal on (its own state folder here), leaves no
    /// descriptor open: XML and binary one-key updates, whole updates, removal, history.
    /// Counted from the system door's own trace of this thread's calls (`CallTrace`): every
    /// descriptor it made, closed again. (Counting `/proc/self/fd` saw the test runner's and
    /// libdispatch's descriptors come and go, and needed waits and exclusions.)
    func testTheJournalLeavesNoDescriptorOpen() throws {
        let state = directory + "-state"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let journalled = DomainStore(
            directory: directory, environment: Environment(["XDG_STATE_HOME": state, "HOME": directory]))
        try journalled.update(.named("com.warm")) {
            $0["k"] = 0; return true
        }
        let (_, calls) = try CallTrace.record {
            for i in 0..<20 {
                try journalled.update(.named("com.fd"), key: "k") {
                    $0 = .int(Int64(i)); return true
                }
                try journalled.update(.named("com.fd")) {
                    $0["w"] = .int(Int64(i)); return true
                }
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try Data(BinaryWriter.encode(.dict(["k": .int(Int64(i)), "o": 1]))).write(
                    to: URL(fileURLWithPath: directory + "/com.bin.plist"))
                try journalled.update(.named("com.bin"), key: "k") {
                    $0 = .int(Int64(i + 1)); return true
                }
                _ = journalled.history(of: .named("com.fd"))
                _ = try journalled.remove(.named("com.bin"))
            }
        }
        // The trace saw the work: a domain, the journal and its copy opened each round.
        let opened = calls.filter { ["open", "openat", "openat2", "mkostemp"].contains($0.name) && $0.result >= 0 }
        XCTAssertGreaterThan(opened.count, 20 * 4, "\(calls.count) calls")
        XCTAssertEqual(CallTrace.leftOpen(calls).count, 0, "left open: \(CallTrace.leftOpen(calls).values)")
        XCTAssertEqual(journalled.history(of: .named("com.fd")).count, 40)
        XCTAssertGreaterThan(journalled.history(of: .named("com.bin")).filter(\.isOutside).count, 0)
    }

    /// The journal's copy of the file is written from the pieces the file was written
    /// from, so every writer's pieces must make the file: an XML one-key write (one piece,
    /// the memo's), a whole update, a binary one-key edit (the editor's many pieces, joined),
    /// and a file over 1 MiB, of which only the stamp is kept. Each copy is the file byte
    /// for byte, behind a header naming its inode and size, and no longer.
    func testTheJournalsCopyIsTheFileForEveryWriter() throws {
        let state = directory + "-state"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let journalled = DomainStore(
            directory: directory, environment: Environment(["XDG_STATE_HOME": state, "HOME": directory]))
        func assertCopied(_ domain: String, whole: Bool, _ line: UInt = #line) throws {
            let path = directory + "/" + domain + ".plist"
            let last = state + "/settings/history/" + Path.flatName(of: path) + ".last"
            let copy = try Data(contentsOf: URL(fileURLWithPath: last))
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(copy.dropFirst(128), whole ? file : Data(), line: line)
            let header = String(decoding: copy.prefix(128), as: UTF8.self).split(separator: " ")
            let inode = (try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)
            XCTAssertEqual(header.count, 6, "\(header)", line: line)
            XCTAssertEqual(UInt64(header[2]), inode?.uint64Value, line: line)
            XCTAssertEqual(Int(header[3]), file.count, line: line)
        }
        let memo = FileMemo()
        for i in 0..<3 {
            try journalled.update(.named("com.xml"), key: "k\(i)", written: nil, memo: memo) {
                $0 = .string(String(repeating: "x", count: 100 * (3 - i))); return true
            }
            try assertCopied("com.xml", whole: true)
        }
        try journalled.update(.named("com.xml")) {
            $0["k0"] = nil; return true
        }
        try assertCopied("com.xml", whole: true)
        var values = PlistDictionary()
        for i in 0..<2000 { values["key\(i)"] = .array([.int(Int64(i)), .data([1, 2, 3]), .string("v\(i)")]) }
        try Data(BinaryWriter.encode(.dict(values))).write(to: URL(fileURLWithPath: directory + "/com.bin.plist"))
        try journalled.update(.named("com.bin"), key: "key7") {
            $0 = .int(7); return true
        }
        try assertCopied("com.bin", whole: true)
        try journalled.update(.named("com.big")) {
            $0["big"] = .data([UInt8](repeating: 7, count: 1 << 20)); return true
        }
        try assertCopied("com.big", whole: false)
    }

    /// A `.last` header, exactly: 128 bytes, the words or the stamp's four numbers
    /// (device, inode, size, modification time) after `settings-last `, spaces, a newline.
    /// Copies written by earlier versions are compared with these bytes.
    func testAJournalHeaderIsExact() {
        func padded(_ text: String) -> String { text + String(repeating: " ", count: 127 - text.utf8.count) + "\n" }
        XCTAssertEqual(String(decoding: Journal.header(.invalid), as: UTF8.self), padded("settings-last invalid"))
        XCTAssertEqual(String(decoding: Journal.header(nil), as: UTF8.self), padded("settings-last absent"))
        let small = FileStamp(size: 0, inode: 7, device: 0, modified: 0, changed: 5)
        XCTAssertEqual(String(decoding: Journal.header(small), as: UTF8.self), padded("settings-last 0 7 0 0"))
        let big = FileStamp(size: Int.max, inode: .max, device: .max, modified: -1, changed: 0)
        XCTAssertEqual(
            String(decoding: Journal.header(big), as: UTF8.self),
            padded("settings-last 18446744073709551615 18446744073709551615 9223372036854775807 18446744073709551615"))
    }

    /// A journal line, exactly: the changes with their values; past the limit, their keys
    /// and the count; past it again, only the count. Each reads back as the same entry.
    func testAJournalLineIsExact() {
        let changes = [
            KeyChange(key: "a\"b", old: .int(1), new: .string("x\n")),
            KeyChange(key: "gone", old: .bool(true), new: nil),
        ]
        let whole = Journal.line(1.5, "settings write", 42, changes, limit: 1000)
        XCTAssertEqual(
            String(decoding: whole, as: UTF8.self),
            "\n{\"time\":1.5,\"writer\":\"settings write\",\"pid\":42,\"changes\":["
                + "{\"key\":\"a\\\"b\",\"old\":1,\"new\":\"x\\n\"},{\"key\":\"gone\",\"old\":true}]}")
        XCTAssertEqual(
            Journal.entry(Array(whole.dropFirst())),
            JournalEntry(time: 1.5, writer: "settings write", pid: 42, changes: changes))
        let keys = Journal.line(2, "w", 1, changes, limit: 40)
        XCTAssertEqual(
            String(decoding: keys, as: UTF8.self),
            "\n{\"time\":2.0,\"writer\":\"w\",\"pid\":1,\"changes\":[{\"key\":\"a\\\"b\"},{\"key\":\"gone\"}],"
                + "\"values\":false,\"count\":2}")
        let counted = Journal.line(2, "w", 1, changes, limit: 10)
        XCTAssertEqual(
            String(decoding: counted, as: UTF8.self),
            "\n{\"time\":2.0,\"writer\":\"w\",\"pid\":1,\"changes\":[],\"values\":false,\"count\":2}")
        XCTAssertEqual(Journal.entry(Array(counted.dropFirst()))?.count, 2)
        let bare = Journal.line(2, "w", 1, changes, limit: -1, count: 7)
        XCTAssertTrue(String(decoding: bare, as: UTF8.self).hasSuffix("\"changes\":[],\"values\":false,\"count\":7}"))
    }

    /// A head and the pieces after it land in order from the offset, as one piece (one
    /// `pwritev`) or several (joined), over what was there and past its end.
    func testAHeadAndItsPiecesAreWrittenInOrder() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (fd, path) = try FileSystem.makeTemporaryFile(in: directory, prefix: "pieces.")
        defer { FileSystem.close(fd) }
        let old = [UInt8](repeating: 0x2E, count: 40)
        try FileSystem.writeBytes(old, to: fd, at: 0)
        let head = Array("HEAD".utf8), body = Array("0123456789abcdef".utf8)
        try FileSystem.writeBytes(head, then: [body[2...]], to: fd, at: 3)
        var expected = old
        expected.replaceSubrange(3..<(3 + 4 + 14), with: head + body[2...])
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), expected)
        try FileSystem.writeBytes(head, then: [body[0..<3], body[3..<3], body[10...]], to: fd, at: 30)
        expected.replaceSubrange(30..<40, with: head + body[0..<3] + body[10...])
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), expected)
        XCTAssertEqual(expected.count, 43)
    }

    /// `create` (issue 34's straight import) writes a document only where there is no
    /// file, as `update` makes one (mode 0600, through a link to a missing file), and
    /// touches nothing where there is one, even an empty one.
    func testCreateWritesOnlyWhereThereIsNoFile() throws {
        func document(_ json: String) throws -> () -> EncodedDomain? {
            let document = try XCTUnwrap(JSONReader.encodedDomain(Array(json.utf8)))
            return { document }
        }
        let path = directory + "/com.new.plist"
        let made = try store.create(.named("com.new"), try document(#"{"b": 2, "a": [1]}"#))
        XCTAssertTrue(made.created)
        XCTAssertEqual(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))), XMLWriter.encode(.dict(["a": [1], "b": 2])))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertFalse(try store.create(.named("com.new"), try document(#"{"c": 3}"#)).created)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        // Where there is a file the document is never made (an import into an existing
        // domain would pay for writing it and then for the values' way); nil makes none.
        var asked = false
        XCTAssertFalse(
            try store.create(.named("com.new")) {
                asked = true; return nil
            }.created)
        XCTAssertFalse(asked, "a domain with a file is not encoded")
        XCTAssertFalse(try store.create(.named("com.none")) { nil }.created)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/com.none.plist"))
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/com.empty.plist", contents: Data()))
        XCTAssertFalse(try store.create(.named("com.empty"), try document(#"{"c": 3}"#)).created)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/com.empty.plist")), Data())
        // A link to a file not made yet: the file is made where it points, as `update` makes it.
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/com.link.plist", withDestinationPath: "target.plist")
        XCTAssertTrue(try store.create(.named("com.link"), try document(#"{"c": 3}"#)).created)
        XCTAssertEqual(try store.load(.named("com.link"))?.values, ["c": 3])
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/target.plist"))
    }

    func testPathsFollowFoundation() throws {
        XCTAssertEqual(store.path(of: .named("com.a"), host: .any), directory + "/com.a.plist")
        XCTAssertEqual(store.path(of: .global, host: .any), directory + "/.GlobalPreferences.plist")
        XCTAssertEqual(store.path(of: .named("com.a"), host: .current), directory + "/ByHost/com.a..plist")
        XCTAssertEqual(store.path(of: .global, host: .named("box")), directory + "/ByHost/.GlobalPreferences.box.plist")
        XCTAssertEqual(try DomainName("/etc/x"), .path("/etc/x.plist"))
        XCTAssertEqual(try DomainName("~/x.plist", home: "/h"), .path("/h/x.plist"))
        for spelling in [
            "-g", "-globalDomain", "NSGlobalDomain", "Apple Global Domain", "nsglobaldomain", "APPLE GLOBAL DOMAIN",
        ] {
            XCTAssertEqual(try DomainName(spelling), .global)
        }
        let rows: [(String, DomainName, UInt)] = [
            ("~/Library/Preferences/com.apple.finder.plist", .named("com.apple.finder"), #line),
            ("~/Library/Preferences/com.apple.finder", .named("com.apple.finder"), #line),
            ("/h/Library/Preferences/com.apple.finder", .named("com.apple.finder"), #line),
            ("~/Library/Preferences/.GlobalPreferences.plist", .global, #line),
            (
                "~/Library/Preferences/ByHost/com.apple.screensaver.0F1A.plist",
                .byHostFile("com.apple.screensaver.0F1A"), #line
            ),
            ("~/Library/Preferences/sub/x", .path("/h/Library/Preferences/sub/x.plist"), #line),
            ("/Library/Preferences/com.apple.x", .path("/Library/Preferences/com.apple.x.plist"), #line),
            ("/other/Library/Preferences/com.apple.x", .path("/other/Library/Preferences/com.apple.x.plist"), #line),
        ]
        for (argument, domain, line) in rows {
            XCTAssertEqual(try DomainName(argument, home: "/h"), domain, argument, line: line)
        }
        XCTAssertEqual(store.path(of: .byHostFile("com.s.0F1A"), host: .any), directory + "/ByHost/com.s.0F1A.plist")
    }

    func testExistingFilesAreFoundInAnyCase() throws {
        try set("k", .int(1), in: .named("com.Mixed"))
        XCTAssertEqual(store.path(of: .named("com.mixed"), host: .any), directory + "/com.Mixed.plist")
        XCTAssertEqual(store.path(of: .named("COM.MIXED"), host: .any), directory + "/com.Mixed.plist")
        XCTAssertEqual(
            store.path(of: .named("com.other"), host: .any), directory + "/com.other.plist", "a new file as typed")
        XCTAssertEqual(try store.load(.named("com.MIXED"), host: .any)?.values["k"], .int(1))
    }

    func testUnsafeNamesAreRefused() {
        for name in [
            "", ".", "..", "../x", "a/b", ".hidden", "a\u{1}b", "tab\tname", "-app", "-currentHost", "-x",
            "~/Library/Preferences/ByHost/.x", "~/Library/Preferences/-x",
        ] {
            XCTAssertThrowsError(try DomainName(name), name) { error in
                guard case .invalidDomain? = error as? StoreError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertThrowsError(try DomainHost.named(validating: "../up"))
    }

    func testNewFilesAreMode0600InA0700Folder() throws {
        try set("k", .bool(true))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/com.test.plist")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory)
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testModeIsKeptAndNoTemporaryFilesRemain() throws {
        try set("k", .int(1))
        let path = directory + "/com.test.plist"
        chmod(path, 0o644)
        try set("k", .int(2))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["com.test.plist"])
    }

    func testSymlinkIsWrittenThrough() throws {
        let target = directory + "/real/target.plist"
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/com.test.plist", withDestinationPath: target)
        try set("k", .string("v"))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/com.test.plist"), target)
        XCTAssertEqual(try store.load(.named("com.test"), host: .any)?.values["k"], .string("v"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: target))
    }

    /// Emptying a domain that is a link keeps the link and its target, now an empty
    /// dictionary, rather than leaving the link dangling.
    func testEmptyingALinkedDomainKeepsTheLink() throws {
        let target = directory + "/real/target.plist"
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/com.test.plist", withDestinationPath: target)
        try set("k", .string("v"))
        try set("k", nil)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/com.test.plist"), target)
        XCTAssertEqual(
            try PropertyList.read(Array(try Data(contentsOf: URL(fileURLWithPath: target)))).0, .dict(PlistDictionary())
        )
    }

    func testDeletingTheLastKeyRemovesTheFile() throws {
        try set("k", .int(1))
        try set("k", nil)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/com.test.plist"))
        XCTAssertNil(try store.load(.named("com.test"), host: .any))
    }

    /// A write's temporary file is opened close-on-exec, as every other descriptor, so a
    /// program a SettingsKit host starts meanwhile inherits none (mkostemp, not mkstemp).
    func testTheTemporaryFileIsCloseOnExec() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (fd, path) = try FileSystem.makeTemporaryFile(in: directory, prefix: AtomicFile.temporaryPrefix)
        defer { FileSystem.close(fd); _ = try? FileSystem.unlink(path) }
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertTrue(path.hasPrefix(directory + "/" + AtomicFile.temporaryPrefix), path)
        XCTAssertEqual(try FileSystem.status(fd: fd).permissions, 0o600)
    }

    func testUnchangedDomainIsNotRewritten() throws {
        try set("k", .int(1))
        let path = directory + "/com.test.plist"
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber
        try store.update(.named("com.test"), host: .any) { _ in false }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber, before)
    }

    func testCorruptFileIsNeverOverwritten() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/com.test.plist"
        let junk = Data("<plist><dict><key>a</key>".utf8)
        try junk.write(to: URL(fileURLWithPath: path))
        // An old file: no retry wait.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: path)
        XCTAssertThrowsError(try set("k", .int(1))) { error in
            guard case .corrupt(path: path, _)? = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), junk)
    }

    func testNonDictionaryRootIsRefused() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("<plist><array/></plist>".utf8).write(to: URL(fileURLWithPath: directory + "/com.test.plist"))
        XCTAssertThrowsError(try store.load(.named("com.test"), host: .any)) { error in
            XCTAssertEqual(error as? StoreError, .notADictionary(path: directory + "/com.test.plist", .array))
        }
    }

    func testEmptyFileIsAnEmptyDomain() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/com.test.plist", contents: Data()))
        XCTAssertEqual(try store.load(.named("com.test"), host: .any)?.values, PlistDictionary())
    }

    func testDomainNamesLeaveOutGlobalAndByHost() throws {
        try set("a", .int(1), in: .named("b.two"))
        try set("a", .int(1), in: .named("a.one"))
        try set("a", .int(1), in: .global)
        try store.update(.named("c.three"), host: .current) {
            $0["a"] = .int(1); return true
        }
        XCTAssertEqual(try store.domainNames(), ["a.one", "b.two"])
    }

    /// The desktop's prefixes are no plist domain's name, in any case and after blanks,
    /// and nothing else is taken for one.
    func testDesktopPrefixesAreNoDomainsName() {
        for name in ["gsettings:x", "GSETTINGS:x", " dconf:/a/", "\tDconf:x", "gSettings:"] {
            XCTAssertTrue(DomainName.hasDesktopPrefix(name), name)
            XCTAssertThrowsError(try DomainName(name), name)
        }
        for name in ["gsettings", "dconf", "com.gsettings:x", "gsettings;x", "dconf\u{1A}", "é.dconf:"] {
            XCTAssertFalse(DomainName.hasDesktopPrefix(name), name)
        }
    }
}
