import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Where real macOS scripts used to part from `defaults`: dash words as values, domain
/// names in any case, `~/Library/Preferences` paths, and options after the verb.
final class DefaultsCompatibilityTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private func files(_ folder: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: h.config + folder)) ?? []).filter {
            $0.hasSuffix(".plist")
        }.sorted()
    }

    // MARK: Dash words

    /// A value that is one or two edits from a type flag is stored, as defaults stores
    /// it, with one warning line naming the flag it resembles.
    func testALookalikeOfATypeFlagIsStoredWithAWarning() {
        for (word, flag) in [
            ("-interger", "-integer"), ("-boool", "-bool"), ("-in", "-int"), ("-Bool", "-bool"), ("-strin", "-string"),
        ] {
            let r = h.run(["write", "com.t", "k", word])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(
                r.stderr,
                "settings: warning: '\(word)' is not a type flag (did you mean \(flag)?); stored as the string '\(word)', as defaults does\n"
            )
            XCTAssertEqual(h.ok("read", "com.t", "k"), word + "\n")
        }
        let r = h.run(["write", "com.t", "list", "-array", "a", "-dat"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(
            r.stderr.hasPrefix("settings: warning: '-dat' is not a type flag (did you mean -data?)"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1)
    }

    /// Words far from every flag are values with no word on stderr: real scripts pass them.
    func testDashValuesFarFromEveryFlagAreSilent() {
        for word in ["-launchd", "-v", "-NoMulticastAdvertisements", "-Drefine.interface=0.0.0.0", "-5", "-", "--"] {
            h.ok("write", "com.t", "k", word)
            XCTAssertEqual(h.ok("read", "com.t", "k"), word + "\n")
        }
        h.ok("write", "com.t", "args", "-array", "-launchd", "-int", "3", "-x")
        XCTAssertEqual(h.ok("read", "com.t", "args"), "(\n    \"-launchd\",\n    3,\n    \"-x\"\n)\n")
    }

    // MARK: Domain names in any case

    func testAnExistingDomainIsFoundInAnyCase() throws {
        h.ok("write", "com.apple.Dock", "a", "-int", "1")
        XCTAssertEqual(files(), ["com.apple.Dock.plist"], "a new file takes the name as typed")
        XCTAssertEqual(h.ok("read", "com.apple.dock", "a"), "1\n")
        h.ok("write", "com.apple.dock", "b", "-int", "2")
        XCTAssertEqual(h.ok("read-type", "COM.APPLE.DOCK", "b"), "Type is integer\n")
        h.ok("rename", "com.apple.DOCK", "b", "c")
        h.ok("write", "com.apple.dock", "gone", "x")
        h.ok("delete", "com.apple.dOCK", "gone")
        XCTAssertEqual(h.ok("read", "com.apple.dock"), "{\n    a = 1;\n    c = 2;\n}\n")
        XCTAssertEqual(h.ok("complete", "keys", "com.apple.dock"), "a\nc\n")
        let exported = h.ok("export", "com.apple.dock", "-")
        XCTAssertTrue(exported.contains("<key>c</key>"), exported)
        XCTAssertEqual(h.run(["import", "Com.Apple.Dock", "-"], stdin: Data(#"{ imported = yes; }"#.utf8)).status, 0)
        // An import sets its keys and keeps the others (issue 21: as macOS imports).
        XCTAssertEqual(h.ok("read", "com.apple.Dock"), "{\n    a = 1;\n    c = 2;\n    imported = yes;\n}\n")
        XCTAssertEqual(files(), ["com.apple.Dock.plist"], "every verb used the one file")
        XCTAssertEqual(h.python(["canon", h.path("com.apple.Dock")]).status, 0)
        h.ok("delete", "com.apple.dock")
        XCTAssertEqual(files(), [])
    }

    /// Several case variants: the exact name wins, else the first in byte order.
    func testAmongCaseVariantsTheExactNameWinsThenByteOrder() {
        h.ok("write", "com.x", "k", "lower")
        h.ok("write", "com.X", "k", "still lower")
        XCTAssertEqual(files(), ["com.x.plist"], "an existing file in another case is the domain")
        XCTAssertEqual(h.ok("read", "com.x", "k"), "still lower\n")
        // Variants made by other programs (or copied from a case-insensitive disk).
        h.ok("write", "com.x", "k", "lower")
        h.ok("write", h.path("com.X"), "k", "upper")
        XCTAssertEqual(files(), ["com.X.plist", "com.x.plist"])
        XCTAssertEqual(h.ok("read", "com.x", "k"), "lower\n")
        XCTAssertEqual(h.ok("read", "com.X", "k"), "upper\n")
        XCTAssertEqual(h.ok("read", "COM.x", "k"), "upper\n", "com.X.plist sorts before com.x.plist")
        h.ok("write", "Com.New", "k", "v")
        XCTAssertEqual(files(), ["Com.New.plist", "com.X.plist", "com.x.plist"])
    }

    func testTheGlobalDomainAndByHostFilesInAnyCase() {
        h.ok("write", "nsglobaldomain", "a", "-int", "1")
        h.ok("write", "NSGLOBALDOMAIN", "b", "-int", "2")
        XCTAssertEqual(h.ok("read", "NSGlobalDomain"), "{\n    a = 1;\n    b = 2;\n}\n")
        XCTAssertEqual(files(), [".GlobalPreferences.plist"])
        h.ok("-currentHost", "write", "com.apple.Screensaver", "idleTime", "-int", "0")
        XCTAssertEqual(h.ok("-currentHost", "read", "com.apple.screensaver", "idleTime"), "0\n")
        h.ok("-currentHost", "write", "com.apple.SCREENSAVER", "askForPassword", "-int", "1")
        XCTAssertEqual(files("/ByHost"), ["com.apple.Screensaver..plist"])
    }

    // MARK: ~/Library/Preferences

    func testLibraryPreferencesPathsNameTheDomain() {
        let home = h.config + "/home"
        h.ok("write", "~/Library/Preferences/com.apple.finder.plist", "AppleShowAllFiles", "-bool", "true")
        XCTAssertEqual(files(), ["com.apple.finder.plist"])
        XCTAssertEqual(h.ok("read", "com.apple.finder", "AppleShowAllFiles"), "1\n")
        XCTAssertEqual(h.ok("read", "~/Library/Preferences/com.apple.finder", "AppleShowAllFiles"), "1\n")
        XCTAssertEqual(h.ok("read", home + "/Library/Preferences/com.apple.Finder.plist", "AppleShowAllFiles"), "1\n")
        h.ok("write", "~/Library/Preferences/ByHost/com.apple.screensaver.0F1A2B3C.plist", "idleTime", "-int", "0")
        XCTAssertEqual(files("/ByHost"), ["com.apple.screensaver.0F1A2B3C.plist"])
        XCTAssertEqual(h.ok("-host", "0F1A2B3C", "read", "com.apple.screensaver", "idleTime"), "0\n")
        h.ok("write", "~/Library/Preferences/.GlobalPreferences.plist", "AppleLocale", "en_GB")
        XCTAssertEqual(h.ok("read", "-g", "AppleLocale"), "en_GB\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/Library"), "nothing is written under ~/Library")
        // Deeper folders and other Library folders stay plain files (in folders that
        // exist: a path domain never makes folders).
        XCTAssertEqual(h.run(["write", "~/Library/Preferences/sub/com.deep", "k", "v"]).status, 4)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/Library"), "no folder is made for a path domain")
        try? FileManager.default.createDirectory(
            atPath: home + "/Library/Preferences/sub", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: home + "/Library/Prefs", withIntermediateDirectories: true)
        h.ok("write", "~/Library/Preferences/sub/com.deep", "k", "v")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/Library/Preferences/sub/com.deep.plist"))
        h.ok("write", "~/Library/Prefs/com.other", "k", "v")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/Library/Prefs/com.other.plist"))
    }

    // MARK: Domains that start with '-'

    func testDashDomainsAreErrorsThatSayWhatToDo() {
        h.ok("write", "com.t", "keep", "1")
        let before = h.snapshot()
        let rows: [([String], String)] = [
            (
                ["read", "-app", "TextEdit"],
                "settings: invalid domain '-app': -app (application lookup) is macOS-only; name the domain instead, e.g. com.apple.TextEdit\n"
            ),
            (
                ["write", "-currentHost", "com.t", "k", "-int", "1"],
                "settings: invalid domain '-currentHost': put -currentHost before the verb, as in: settings -currentHost write …\n"
            ),
            (
                ["read", "-host", "box", "com.t"],
                "settings: invalid domain '-host': put -host before the verb, as in: settings -host NAME read …\n"
            ),
            (["delete", "-foo"], "settings: invalid domain '-foo': domain name may not start with '-'\n"),
        ]
        for (arguments, message) in rows {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments)")
            XCTAssertEqual(r.stderr, message)
            XCTAssertEqual(h.snapshot(), before, "\(arguments) changed a file")
        }
        XCTAssertEqual(files(), ["com.t.plist"], "never a file named -app.plist")
    }
}
