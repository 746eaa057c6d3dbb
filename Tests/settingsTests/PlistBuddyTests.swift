import Foundation
import XCTest

/// PlistBuddy, from PLISTBUDDY(8)'s examples and the invocations of public build scripts
/// (rules_apple, fastlane, theos, React Native and Expo templates). There is no Linux
/// PlistBuddy to run: files are checked with plistlib, and `Print` against the documented
/// form.
final class PlistBuddyTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// The file as plistlib reads it, as JSON (dates and data as text).
    func loaded(_ path: String) -> String { Plistlib.shared.ask(["load", path]).text }

    func buddy(_ words: [String], stdin: Data? = nil) -> Harness.Result { h.run(["plistbuddy"] + words, stdin: stdin) }

    /// An Info.plist, binary, as Xcode leaves one, written by Foundation (in process: a
    /// Python per test cost the suite a second of its minute).
    func infoPlist() -> String {
        let path = h.file("Info.plist", "")
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.example.app", "CFBundleVersion": "1", "CFBundleShortVersionString": "1.0",
            "CFBundleDocumentTypes": [["CFBundleTypeExtensions": ["txt"]]], "UIRequiredDeviceCapabilities": ["armv7"],
            "LSRequiresIPhoneOS": true, "Count": 3, "Ratio": 1.5,
            "Built": Date(timeIntervalSince1970: 1_704_164_645), "Blob": Data([0, 1, 2, 255]),
        ]
        let bytes = try? PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
        XCTAssertNoThrow(try bytes?.write(to: URL(fileURLWithPath: path)))
        return path
    }

    /// The man page's examples, in order, on one file.
    func testTheManPagesExamples() throws {
        let path = infoPlist()
        for command in [
            "Set :CFBundleIdentifier com.apple.plistbuddy", #"Add :CFBundleGetInfoString string "App version 1.0.1""#,
            "Add :CFBundleDocumentTypes: dict", "Add :CFBundleDocumentTypes:0 dict",
        ] {
            let r = buddy(["-c", command, path])
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
        }
        XCTAssertEqual(h.ok("read", path, "CFBundleIdentifier"), "com.apple.plistbuddy\n")
        XCTAssertEqual(h.ok("read", path, "CFBundleGetInfoString"), "App version 1.0.1\n")
        XCTAssertEqual(
            loaded(path).contains(#""CFBundleDocumentTypes": [{}, {"CFBundleTypeExtensions": ["txt"]}, {}]"#),
            true, loaded(path))
        XCTAssertEqual(buddy(["-c", "Delete :CFBundleDocumentTypes:0", path]).status, 0)
        XCTAssertEqual(buddy(["-c", "Delete :CFBundleDocumentTypes", path]).status, 0)
        XCTAssertFalse(loaded(path).contains("CFBundleDocumentTypes"))
        XCTAssertEqual(Plistlib.shared.ask(["format", path]).text, "binary", "the file's format is kept")
    }

    /// `Print`'s form: `Dict {`, four spaces a level, `key = value`; a scalar alone; `-x` an
    /// XML property list; the documented message for an entry that is not there.
    func testPrintsForm() throws {
        let path = h.file("p.plist", #"{ a = { list = (x, "y z"); n = 3; }; r = 2.5; }"#)
        XCTAssertEqual(
            buddy(["-c", "Print", path]).stdout,
            "Dict {\n    a = Dict {\n        list = Array {\n            x\n            y z\n        }\n        n = 3\n    }\n"
                + "    r = 2.5\n}\n")
        XCTAssertEqual(buddy(["-c", "Print :a:list:1", path]).stdout, "y z\n")
        XCTAssertEqual(buddy(["-c", "Print a:n", path]).stdout, "3\n", "the first colon may be left out")
        let missing = buddy(["-c", "Print :x", path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "Print: Entry, \":x\", Does Not Exist\n")
        XCTAssertEqual(
            buddy(["-x", "-c", "Print :a:list", path]).stdout,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
                + "<plist version=\"1.0\">\n<array>\n\t<string>x</string>\n\t<string>y z</string>\n</array>\n</plist>\n"
        )
        // Reals as %f, dates as date(1) in UTC, booleans as words, data as its bytes.
        let info = infoPlist()
        XCTAssertEqual(buddy(["-c", "Print :Ratio", info]).stdout, "1.500000\n")
        XCTAssertEqual(buddy(["-c", "Print :Built", info]).stdout, "Tue Jan 02 03:04:05 UTC 2024\n")
        XCTAssertEqual(buddy(["-c", "Print :LSRequiresIPhoneOS", info]).stdout, "true\n")
        XCTAssertEqual(
            Array(buddy(["-c", "Print :Blob", info]).stdout.utf8.prefix(3)), [0, 1, 2], "data as its bytes")
    }

    /// Scripts delete then add, whether the key was there or not: the delete's failure is a
    /// line and status 1, and the add is still saved.
    func testDeleteThenAddIsIdempotentAsScriptsUseIt() throws {
        let path = infoPlist()
        for _ in 0..<2 {
            let r = buddy([
                "-c", "Delete :NSAppTransportSecurity", "-c", "Add :NSAppTransportSecurity dict", "-c",
                "Add :NSAppTransportSecurity:NSAllowsArbitraryLoads bool true", path,
            ])
            XCTAssertTrue(
                r.status == 0 || r.stderr == "Delete: Entry, \":NSAppTransportSecurity\", Does Not Exist\n", r.stderr)
        }
        XCTAssertTrue(loaded(path).contains(#""NSAppTransportSecurity": {"NSAllowsArbitraryLoads": true}"#))
        let twice = buddy(["-c", "Add :CFBundleVersion string 2", path])
        XCTAssertEqual(twice.stderr, "Add: \":CFBundleVersion\" Entry Already Exists\n")
        XCTAssertEqual(
            buddy(["-c", "Set :CFBundleDocumentTypes 1", path]).stderr, "Set: Cannot Perform Set On Containers\n")
        XCTAssertEqual(buddy(["-c", "Add :x frob 1", path]).stderr, "Unrecognized Type: frob\n")
    }

    /// React Native's and Expo's version bumps, rules_apple's reads, and every type `Add` takes.
    func testVersionBumpsAndEveryType() throws {
        let path = infoPlist()
        XCTAssertEqual(
            buddy(["-c", "Set :CFBundleVersion 42", "-c", "Set :CFBundleShortVersionString 2.1.0", path]).status, 0)
        XCTAssertEqual(buddy(["-c", "Print :CFBundleVersion", path]).stdout, "42\n")
        XCTAssertEqual(
            buddy(["-c", "Set :Count 7", "-c", "Set :Ratio 0.25", "-c", "Set :LSRequiresIPhoneOS NO", path]).status, 0)
        let r = buddy([
            "-c", "Add :S string two words", "-c", "Add :I integer -5", "-c", "Add :R real 3.5", "-c",
            "Add :B bool YES",
            "-c", "Add :D date 2020-02-29T12:00:00Z", "-c", "Add :E date \"Sat Jan 01 00:00:00 UTC 2000\"",
            "-c", "Add :Bytes data abc", "-c", "Add :A array", "-c", "Add :A: integer 1", "-c", "Add :A:0 integer 0",
            "-c", #"Add :key\:with\:colons string ok"#, path,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = h.python(["canon", path]).stdout
        XCTAssertTrue(json.contains("i:7") && json.contains("b:0"), json)
        let values = Plistlib.shared.ask(["load", path]).text
        for expected in [
            #""S": "two words""#, #""I": -5"#, #""R": 3.5"#, #""B": true"#, #""D": "2020-02-29 12:00:00""#,
            #""E": "2000-01-01 00:00:00""#, #""Bytes": "b'abc'""#, #""A": [0, 1]"#, #""key:with:colons": "ok""#,
            #""Count": 7"#, #""Ratio": 0.25"#,
        ] {
            XCTAssertTrue(values.contains(expected), "\(expected) in \(values)")
        }
    }

    /// theos merges entitlements; fastlane prints a provisioning profile's entitlements as
    /// XML from standard input; a certificate's bytes are imported and printed back whole.
    func testMergeImportAndStandardInput() throws {
        let path = infoPlist()
        let extra = h.file("extra.plist", #"{ CFBundleVersion = 99; "get-task-allow" = true; }"#)
        XCTAssertEqual(buddy(["-c", "Merge \(extra)", path]).status, 0)
        let values = Plistlib.shared.ask(["load", path]).text
        XCTAssertTrue(
            values.contains(#""get-task-allow": "true""#) && values.contains(#""CFBundleVersion": "1""#), values)
        let der = h.files + "/cert.der"
        try Data([0x30, 0x82, 0x00, 0x0A, 0xFF]).write(to: URL(fileURLWithPath: der))
        XCTAssertEqual(buddy(["-c", "Import :DeveloperCertificates:0 \(der)", path]).status, 1, "no such array yet")
        XCTAssertEqual(
            buddy([
                "-c", "Add :DeveloperCertificates array", "-c", "Add :DeveloperCertificates: data", "-c",
                "Import :DeveloperCertificates:0 \(der)", path,
            ]).status, 0)
        // The bytes themselves, as scripts redirect them to a .der file.
        let out = h.files + "/out.der"
        let printed = h.exec(
            "/bin/sh",
            ["-c", #""$0" plistbuddy -c 'Print :DeveloperCertificates:0' "$1" > "$2""#, Harness.settings, path, out])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), Data([0x30, 0x82, 0x00, 0x0A, 0xFF, 0x0A]))
        let profile = try Data(contentsOf: URL(fileURLWithPath: path))
        let piped = buddy(["-x", "-c", "Print :CFBundleIdentifier", "/dev/stdin"], stdin: profile)
        XCTAssertTrue(piped.stdout.contains("<string>com.example.app</string>"), piped.stdout + piped.stderr)
    }

    /// A missing file is made by the first change, and said once; no change makes none.
    func testAMissingFileIsMadeByTheFirstChange() throws {
        let path = h.files + "/New.plist"
        try FileManager.default.createDirectory(atPath: h.files, withIntermediateDirectories: true)
        let looked = buddy(["-c", "Print", path])
        XCTAssertEqual(looked.stdout, "File Doesn't Exist, Will Create: \(path)\nDict {\n}\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(buddy(["-c", "Add :a string b", path]).status, 0)
        XCTAssertEqual(loaded(path), #"{"a": "b"}"#)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o644)
        XCTAssertEqual(buddy(["-c", "Clear dict", path]).status, 0)
        XCTAssertEqual(loaded(path), "{}", "Clear leaves an empty dictionary, and the file")
    }

    /// Without -c, commands come from standard input; `Save` writes, `Exit` drops the rest.
    func testCommandsFromStandardInput() throws {
        let path = infoPlist()
        let r = buddy([path], stdin: Data("Set :CFBundleVersion 5\nSave\nSet :CFBundleVersion 6\nExit\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Saving...\n")
        XCTAssertEqual(h.ok("read", path, "CFBundleVersion"), "5\n")
    }

    /// The binary linked as `PlistBuddy` is PlistBuddy; -l refuses a link.
    func testTheBinaryLinkedAsPlistBuddy() throws {
        let path = infoPlist()
        let link = h.files + "/PlistBuddy"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Harness.settings)
        XCTAssertEqual(h.exec(link, ["-c", "Print :CFBundleIdentifier", path]).stdout, "com.example.app\n")
        let alias = h.files + "/alias.plist"
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: path)
        XCTAssertEqual(h.exec(link, ["-l", "-c", "Print", alias]).status, 1)
        XCTAssertTrue(h.exec(link, ["-h"]).stdout.hasPrefix("Usage: PlistBuddy "))
        XCTAssertEqual(h.exec(link, []).status, 1)
    }
}
