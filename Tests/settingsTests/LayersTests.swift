import Foundation
import XCTest
import TestSupport

/// Machine-wide and managed settings (issue 21): what an administrator puts under
/// `$XDG_CONFIG_DIRS/settings/defaults` is read below the user's file and above the
/// schema; what is under `settings/managed` wins for every reader and cannot be changed.
final class LayersTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private func managedFile(_ name: String = "com.t.json") -> String { h.system + "/settings/managed/" + name }

    private func schema(_ text: String) {
        let dir = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/com.t.json", contents: Data(text.utf8)))
    }

    func testMachineDefaultsAreReadBelowTheUserAndAboveTheSchema() {
        h.admin("defaults", "com.t.plist", "{ sys = machine; both = machine; fromSchema = machine; }")
        schema(#"{"keys": {"fromSchema": {"default": "schema"}, "onlySchema": {"default": 7}}}"#)
        h.ok("write", "com.t", "both", "mine")
        XCTAssertEqual(h.ok("read", "com.t", "sys"), "machine\n")
        XCTAssertEqual(h.ok("read", "com.t", "sys", "--source"), "system\n")
        XCTAssertEqual(h.ok("read", "com.t", "both"), "mine\n")
        XCTAssertEqual(h.ok("read", "com.t", "both", "--source"), "user\n")
        XCTAssertEqual(h.ok("read", "com.t", "fromSchema", "--source"), "system\n")
        XCTAssertEqual(h.ok("read", "com.t", "onlySchema", "--source"), "default\n")
        XCTAssertEqual(h.ok("read-type", "com.t", "sys"), "Type is string\n")
        XCTAssertEqual(h.ok("read", "com.t", "sys", "--json"), "\"machine\"\n")
        // Plain `read D` is the user's file, as defaults prints it.
        XCTAssertEqual(h.ok("read", "com.t"), "{\n    both = mine;\n}\n")
        let merged = "{\n    both = mine;\n    fromSchema = machine;\n    onlySchema = 7;\n    sys = machine;\n}\n"
        XCTAssertEqual(h.ok("read", "com.t", "--with-defaults"), merged)
        let exported = h.ok("export", "com.t", "-", "--with-defaults", "--json")
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? NSDictionary,
            ["both": "mine", "fromSchema": "machine", "onlySchema": 7, "sys": "machine"])
        XCTAssertEqual(h.ok("export", "com.t", "-", "--json"), #"{"both":"mine"}"# + "\n")
        // The user's file stays the user's: nothing of the machine's is copied into it.
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"both": "mine"}"#)
    }

    func testAManagedValueWinsForEveryReader() {
        h.ok("write", "com.t", "locked", "-string", "mine")
        h.ok("write", "com.t", "free", "-int", "1")
        h.admin("managed", "com.t.json", #"{"locked": 5, "onlyManaged": [true]}"#)
        h.admin("defaults", "com.t.json", #"{"locked": "machine"}"#)
        XCTAssertEqual(h.ok("read", "com.t", "locked"), "5\n")
        XCTAssertEqual(h.ok("read-type", "com.t", "locked"), "Type is integer\n")
        XCTAssertEqual(h.ok("read", "com.t", "locked", "--json"), "5\n")
        XCTAssertEqual(h.ok("read", "com.t", "locked", "--source"), "managed\n")
        XCTAssertEqual(h.ok("read", "com.t", "-p", "/onlyManaged/0"), "1\n")
        XCTAssertEqual(h.ok("read", "com.t", "free", "--source"), "user\n")
        XCTAssertEqual(
            h.ok("read", "com.t", "--with-defaults"),
            "{\n    free = 1;\n    locked = 5;\n    onlyManaged =     (\n        1\n    );\n}\n")
        XCTAssertTrue(
            h.ok("export", "com.t", "-", "--with-defaults").contains("<key>locked</key>\n\t<integer>5</integer>"))
        XCTAssertEqual(h.ok("complete", "keys", "com.t"), "free\nlocked\nonlyManaged\n")
        XCTAssertEqual(h.ok("complete", "paths", "com.t"), "/free\n/locked\n/onlyManaged\n/onlyManaged/0\n")
        // Plain read and export are the user's own file.
        XCTAssertEqual(h.ok("read", "com.t"), "{\n    free = 1;\n    locked = mine;\n}\n")
    }

    func testEveryChangeToAManagedKeyIsRefusedWithStatus4() throws {
        h.ok("write", "com.t", "locked", "mine")
        h.ok("write", "com.t", "free", "1")
        h.admin("managed", "com.t.json", #"{"locked": 5, "onlyManaged": 1}"#)
        let importFile = h.config + "-import.plist"
        XCTAssertTrue(
            FileManager.default.createFile(atPath: importFile, contents: Data("{ free = 2; locked = 6; }".utf8)))
        defer { try? FileManager.default.removeItem(atPath: importFile) }
        let before = h.snapshot()
        for arguments in [
            ["write", "com.t", "locked", "6"],
            ["write", "com.t", "--force", "locked", "6"],
            ["write", "com.t", "onlyManaged", "-int", "1"],
            ["write", "com.t", "-p", "/locked/x", "1"],
            ["write", "com.t", "{ free = 3; }"],
            ["delete", "com.t", "locked"],
            ["delete", "com.t", "--force", "onlyManaged"],
            ["delete", "com.t"],
            ["rename", "com.t", "locked", "other"],
            ["rename", "com.t", "free", "onlyManaged"],
            ["import", "com.t", importFile],
            ["import", "com.t", importFile, "--replace"],
            ["reset", "com.t", "free", "onlyManaged"],
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 4, "\(arguments): \(r.stderr)")
            let key = arguments.contains("onlyManaged") ? "onlyManaged" : "locked"
            XCTAssertEqual(
                r.stderr,
                "settings: cannot change \(key): it is managed by the administrator's \(managedFile())\n",
                "\(arguments)")
            XCTAssertEqual(h.snapshot(), before, "\(arguments) changed a file")
        }
        // The domain's other keys stay the user's.
        h.ok("write", "com.t", "free", "-int", "2")
        h.ok("delete", "com.t", "free")
        h.ok("write", "com.t", "new", "x")
        XCTAssertEqual(h.plistlibJSON(h.path("com.t")), #"{"locked": "mine", "new": "x"}"#)
    }

    func testTheFirstFolderWithTheDomainWinsAndPlistBeatsJSON() {
        let first = h.system + "/first", second = h.system + "/second"
        let dirs = ["XDG_CONFIG_DIRS": "\(first):relative/ignored:\(second)"]
        h.admin("defaults", "com.t.json", #"{"k": "second"}"#, in: second)
        XCTAssertEqual(h.run(["read", "com.t", "k"], environment: dirs).stdout, "second\n")
        h.admin("defaults", "com.t.json", #"{"other": "first"}"#, in: first)
        var r = h.run(["read", "com.t", "k"], environment: dirs)
        XCTAssertEqual(r.status, 1, "the first folder's file is the whole layer")
        h.admin("defaults", "com.t.plist", "{ k = plist; }", in: first)
        r = h.run(["read", "com.t", "k"], environment: dirs)
        XCTAssertEqual(r.stdout, "plist\n")
        XCTAssertEqual(
            r.stderr,
            "settings: warning: ignoring \(first)/settings/defaults/com.t.json: "
                + "\(first)/settings/defaults/com.t.plist is in the same folder and comes first\n")
        // Relative entries are never used; an entry that is a file, or empty, holds nothing.
        for dirs in ["relative", "/etc/passwd", "::", ""] {
            r = h.run(["read", "com.t", "k"], environment: ["XDG_CONFIG_DIRS": dirs])
            XCTAssertEqual(r.status, 1, dirs)
            XCTAssertEqual(r.stderr, "settings: The domain/default pair of (com.t, k) does not exist\n", dirs)
        }
    }

    func testAnAdministratorsBrokenFileIsOneWarningAndIgnored() {
        h.admin("managed", "com.t.plist", "<plist><dict><key>locked</key>")
        h.admin("defaults", "com.t.json", #"{"sys": "#)
        let warnings =
            "settings: warning: ignoring an administrator's file: cannot parse \(h.system)/settings/managed/com.t.plist"
        var r = h.run(["write", "com.t", "locked", "mine"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix(warnings), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, "one line per broken file: \(r.stderr)")
        r = h.run(["read", "com.t", "locked"])
        XCTAssertEqual(r.stdout, "mine\n")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(h.system)/settings/defaults/com.t.json"), r.stderr)
        r = h.run(["read", "com.t", "sys"])
        XCTAssertEqual(r.status, 1)
        // A file that is not a dictionary, or not a file at all, is the same.
        try? FileManager.default.removeItem(atPath: h.system + "/settings/defaults/com.t.json")
        XCTAssertEqual(mkfifo(h.system + "/settings/defaults/com.t.json", 0o600), 0)
        h.admin("managed", "com.t.plist", "(1, 2)")
        r = h.run(["read", "com.t", "locked"])
        XCTAssertEqual(r.stdout, "mine\n")
        XCTAssertEqual(
            r.stderr,
            "settings: warning: ignoring an administrator's file: cannot use \(h.system)/settings/managed/com.t.plist: "
                + "its root is an array, not a dictionary\n"
                + "settings: warning: ignoring an administrator's file: cannot use \(h.system)/settings/defaults/com.t.json: "
                + "it is a FIFO, not a regular file\n")
        // A folder, or a link loop, in the file's place: one line each, never a hang.
        let managed = h.system + "/settings/managed/com.t.plist"
        try? FileManager.default.removeItem(atPath: managed)
        try? FileManager.default.createDirectory(atPath: managed, withIntermediateDirectories: false)
        r = h.run(["write", "com.t", "locked", "again"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(managed): it is a directory, not a regular file\n"), r.stderr)
        try? FileManager.default.removeItem(atPath: managed)
        try? FileManager.default.createSymbolicLink(atPath: managed, withDestinationPath: "com.t.plist")
        r = h.run(["read", "com.t", "locked"])
        XCTAssertEqual(r.stdout, "again\n")
        XCTAssertTrue(r.stderr.contains("cannot read \(managed): Too many levels of symbolic links\n"), r.stderr)
    }

    func testTheGlobalDomainHasLayersAndPathDomainsNone() {
        h.admin("managed", ".GlobalPreferences.json", #"{"AppleLocale": "en_GB"}"#)
        XCTAssertEqual(h.ok("read", "-g", "AppleLocale"), "en_GB\n")
        XCTAssertEqual(h.run(["write", "NSGlobalDomain", "AppleLocale", "fr_FR"]).status, 4)
        let file = h.config + "/elsewhere.plist"
        h.ok("write", file, "AppleLocale", "fr_FR")
        XCTAssertEqual(h.ok("read", file, "AppleLocale"), "fr_FR\n")
        XCTAssertEqual(h.ok("-currentHost", "write", "-g", "AppleLocale", "de_DE"), "")
    }

    /// As another user than root: a managed file they can read locks the key; one they
    /// cannot read is a warning and locks nothing (the man page asks for mode 0644).
    func testAsAnotherUserAManagedFileMustBeReadable() throws {
        guard getuid() == 0 else { throw skip("needs root, to run as nobody") }
        let config = h.config + "/nobody"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        XCTAssertEqual(chown(config, 65534, 65534), 0)
        h.admin("managed", "com.t.json", #"{"locked": 5}"#)
        let asNobody = { (arguments: [String]) in
            self.h.exec(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", Harness.settings] + arguments,
                environment: ["XDG_CONFIG_HOME": config])
        }
        var r = asNobody(["write", "com.t", "locked", "6"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(
            r.stderr, "settings: cannot change locked: it is managed by the administrator's \(managedFile())\n")
        XCTAssertEqual(asNobody(["read", "com.t", "locked"]).stdout, "5\n")
        XCTAssertEqual(chmod(managedFile(), 0o600), 0)
        r = asNobody(["write", "com.t", "locked", "6"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "settings: warning: ignoring an administrator's file: cannot read \(managedFile()): Permission denied\n")
    }
}
