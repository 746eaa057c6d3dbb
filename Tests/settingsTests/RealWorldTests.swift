import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Invocation forms from public macOS setup scripts and dotfiles, run unchanged. Each
/// must succeed, and plistlib must find the right typed value in the file.
final class RealWorldTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    struct Row {
        let arguments: [String]
        /// The file to check (relative to the config folder) and the key in it.
        let file: String
        let key: String
        let value: PlistValue
        let line: UInt
    }

    static func row(_ arguments: [String], _ file: String, _ key: String, _ value: PlistValue, line: UInt = #line)
        -> Row
    {
        Row(arguments: arguments, file: file, key: key, value: value, line: line)
    }

    static let rows: [Row] = [
        row(
            ["write", "NSGlobalDomain", "AppleKeyboardUIMode", "-int", "3"], ".GlobalPreferences",
            "AppleKeyboardUIMode", .int(3)),
        row(
            ["write", "-g", "NSWindowResizeTime", "-float", "0.001"], ".GlobalPreferences", "NSWindowResizeTime",
            .double(0.001)),  // XML keeps the Float's shortest text
        row(
            ["write", "-globalDomain", "AppleLanguages", "-array", "en", "nl"], ".GlobalPreferences", "AppleLanguages",
            .array([.string("en"), .string("nl")])),
        row(
            ["write", "Apple Global Domain", "AppleShowAllExtensions", "-bool", "true"], ".GlobalPreferences",
            "AppleShowAllExtensions", .bool(true)),
        row(
            ["-currentHost", "write", "NSGlobalDomain", "com.apple.mouse.tapBehavior", "-int", "1"],
            "ByHost/.GlobalPreferences.", "com.apple.mouse.tapBehavior", .int(1)),
        row(
            ["-currentHost", "write", "com.apple.screensaver", "idleTime", "-int", "0"],
            "ByHost/com.apple.screensaver.", "idleTime", .int(0)),
        row(
            [
                "write", "com.apple.finder", "FXInfoPanesExpanded", "-dict", "General", "-bool", "true", "OpenWith",
                "-bool", "true",
                "Privileges", "-bool", "true",
            ], "com.apple.finder", "FXInfoPanesExpanded",
            .dict(["General": .bool(true), "OpenWith": .bool(true), "Privileges": .bool(true)])),
        row(
            ["write", "com.apple.finder", "QLEnableTextSelection", "-bool", "TRUE"], "com.apple.finder",
            "QLEnableTextSelection", .bool(true)),
        row(
            ["write", "com.apple.finder", "NSToolbar Configuration Browser", "-dict-add", "TB Is Shown", "-int", "1"],
            "com.apple.finder", "NSToolbar Configuration Browser", .dict(["TB Is Shown": .int(1)])),
        row(
            ["write", "com.apple.screencapture", "location", "-string", "/home/user/Desktop"],
            "com.apple.screencapture", "location",
            .string("/home/user/Desktop")),
        row(
            ["write", "com.apple.screencapture", "type", "-string", "png"], "com.apple.screencapture", "type",
            .string("png")),
        row(
            ["write", "com.apple.Safari", "ProxiesInBookmarksBar", "()"], "com.apple.Safari", "ProxiesInBookmarksBar",
            .array([])),
        row(
            [
                "write", "com.apple.Safari",
                "com.apple.Safari.ContentPageGroupIdentifier.WebKit2DeveloperExtrasEnabled", "-bool", "true",
            ],
            "com.apple.Safari", "com.apple.Safari.ContentPageGroupIdentifier.WebKit2DeveloperExtrasEnabled", .bool(true)
        ),
        row(
            [
                "write", "com.apple.spotlight", "orderedItems", "-array", #"{"enabled" = 1;"name" = "APPLICATIONS";}"#,
                #"{"enabled" = 0;"name" = "FONTS";}"#,
            ], "com.apple.spotlight", "orderedItems",
            .array([
                .dict(["enabled": .string("1"), "name": .string("APPLICATIONS")]),
                .dict(["enabled": .string("0"), "name": .string("FONTS")]),
            ])),
        row(
            ["write", "com.apple.terminal", "StringEncodings", "-array", "4"], "com.apple.terminal", "StringEncodings",
            .array([.string("4")])),
        row(["write", "com.apple.dock", "persistent-apps", "-array"], "com.apple.dock", "persistent-apps", .array([])),
        row(["write", "com.apple.dock", "wvous-tl-corner", "-int", "2"], "com.apple.dock", "wvous-tl-corner", .int(2)),
        row(["write", "com.apple.dock", "tilesize", "-int", "36"], "com.apple.dock", "tilesize", .int(36)),
        row(
            ["write", "com.apple.dock", "autohide-delay", "-float", "0"], "com.apple.dock", "autohide-delay", .double(0)
        ),
        row(
            [
                "write", "com.apple.dock", "persistent-others", "-array-add",
                #"{tile-data={}; tile-type="spacer-tile";}"#,
            ],
            "com.apple.dock", "persistent-others",
            .array([.dict(["tile-data": .dict(PlistDictionary()), "tile-type": .string("spacer-tile")])])),
        row(
            ["write", "com.apple.menuextra.clock", "DateFormat", "-string", "EEE MMM d  h:mm:ss a"],
            "com.apple.menuextra.clock", "DateFormat",
            .string("EEE MMM d  h:mm:ss a")),
        row(
            ["write", "com.apple.LaunchServices", "LSQuarantine", "-bool", "false"], "com.apple.LaunchServices",
            "LSQuarantine", .bool(false)),
        row(
            ["write", "com.apple.ActivityMonitor", "IconType", "-integer", "5"], "com.apple.ActivityMonitor",
            "IconType", .int(5)),
        row(
            ["write", "com.apple.x", "Blob", "-data", "62706c697374"], "com.apple.x", "Blob",
            .data(Array("bplist".utf8))),
        row(
            ["write", "com.apple.x", "LastRun", "-date", "2020-01-01 12:00:00 +0000"], "com.apple.x", "LastRun",
            .date(PlistDate(CivilTime(year: 2020, month: 1, day: 1, hour: 12)))),
        row(
            ["write", "com.apple.x", "key with spaces", "value with spaces"], "com.apple.x", "key with spaces",
            .string("value with spaces")),
        row(
            [
                "write", "com.apple.x", "Nix",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><integer>7</integer></plist>",
            ],
            "com.apple.x", "Nix", .int(7)),
        row(
            ["write", "com.apple.x", "XMLDict", "<dict><key>a</key><true/></dict>"], "com.apple.x", "XMLDict",
            .dict(["a": .bool(true)])),
        row(
            ["write", "com.apple.whole", "{ Enabled = 1; Items = (a, b); }"], "com.apple.whole", "Items",
            .array([.string("a"), .string("b")])),
        // A word in a value position that is not a type flag is a value, even with a dash.
        row(
            [
                "write", "~/mdns/com.apple.mDNSResponder.plist", "ProgramArguments", "-array",
                "/usr/sbin/mDNSResponder", "-launchd",
            ],
            "home/mdns/com.apple.mDNSResponder", "ProgramArguments",
            .array([.string("/usr/sbin/mDNSResponder"), .string("-launchd")])),
        row(
            [
                "write", "~/mdns/com.apple.mDNSResponder.plist", "ProgramArguments", "-array-add",
                "-NoMulticastAdvertisements",
            ],
            "home/mdns/com.apple.mDNSResponder", "ProgramArguments",
            .array([.string("/usr/sbin/mDNSResponder"), .string("-launchd"), .string("-NoMulticastAdvertisements")])),
        row(
            ["write", "com.example.jvm", "Args", "-array-add", "-Drefine.interface=0.0.0.0"], "com.example.jvm", "Args",
            .array([.string("-Drefine.interface=0.0.0.0")])),
        row(["write", "com.apple.x", "Verbose", "-v"], "com.apple.x", "Verbose", .string("-v")),
        row(["write", "com.apple.x", "Daemon", "-launchd"], "com.apple.x", "Daemon", .string("-launchd")),
        row(["write", "com.apple.x", "Negative", "-5"], "com.apple.x", "Negative", .string("-5")),
        row(
            ["write", "com.apple.x", "Opts", "-dict", "mode", "-launchd", "n", "-int", "2"], "com.apple.x", "Opts",
            .dict(["mode": .string("-launchd"), "n": .int(2)])),
        // Untyped values decode \U and four hex digits, as defaults does; -string stays verbatim.
        row(
            ["write", "com.apple.mail", "NSUserKeyEquivalents", "-dict-add", "Send", #"@\U21a9"#], "com.apple.mail",
            "NSUserKeyEquivalents",
            .dict(["Send": .string("@\u{21A9}")])),
        row(
            ["write", "com.apple.Safari", "NSUserKeyEquivalents", "-dict-add", "Back", #"\U232b"#], "com.apple.Safari",
            "NSUserKeyEquivalents",
            .dict(["Back": .string("\u{232B}")])),
        row(["write", "com.apple.x", "Arrow", #"@\U21A9"#], "com.apple.x", "Arrow", .string("@\u{21A9}")),
        row(
            ["write", "com.apple.x", "Smile", "-array", #"\Ud83d\Ude00"#, #"x\U00e9"#], "com.apple.x", "Smile",
            .array([.string("\u{1F600}"), .string("x\u{E9}")])),
        row(
            ["write", "com.apple.x", "Verbatim", "-string", #"@\U21a9"#], "com.apple.x", "Verbatim",
            .string(#"@\U21a9"#)),
        row(
            ["write", "com.apple.x", "WinPath", #"C:\Users\me\new"#], "com.apple.x", "WinPath",
            .string(#"C:\Users\me\new"#)),
        row(["write", "com.apple.x", "Short", #"a\U21 b\n\\"#], "com.apple.x", "Short", .string(#"a\U21 b\n\\"#)),
        row(
            ["write", "com.apple.x", "LoneSurrogate", #"\Ud800x"#], "com.apple.x", "LoneSurrogate", .string(#"\Ud800x"#)
        ),
    ]

    func testEveryFormWritesTheRightTypedValue() {
        // A path domain's folder must exist (settings never makes folders outside the config folder).
        try? FileManager.default.createDirectory(atPath: h.config + "/home/mdns", withIntermediateDirectories: true)
        // The file as each row left it is kept, and one plistlib run reads them all (a
        // process per row was most of this test's time).
        let kept = h.config + "/../" + URL(fileURLWithPath: h.config).lastPathComponent + "-rows"
        try? FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: kept) }
        var lookups = ""
        for (i, row) in Self.rows.enumerated() {
            let r = h.run(row.arguments)
            XCTAssertEqual(r.status, 0, "\(row.arguments): \(r.stderr)", line: row.line)
            let copy = kept + "/\(i).plist"
            XCTAssertNoThrow(
                try FileManager.default.copyItem(atPath: h.config + "/" + row.file + ".plist", toPath: copy),
                line: row.line)
            lookups += copy + "\t" + row.key + "\n"
        }
        let result = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import plistlib, sys
                sys.path.insert(0, sys.argv[1])
                from plist_canon import canon
                for line in sys.stdin.read().splitlines():
                    path, key = line.split("\\t", 1)
                    print(canon(plistlib.load(open(path, 'rb'))[key]))
                """, URL(fileURLWithPath: Harness.canonScript).deletingLastPathComponent().path,
            ], stdin: Data(lookups.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        let read = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertEqual(read.count, Self.rows.count)
        for (row, value) in zip(Self.rows, read) {
            XCTAssertEqual(value, canonical(row.value), "\(row.arguments)", line: row.line)
        }
    }

    /// Type flags are case-sensitive in defaults too: `-BOOL` is no flag but a value,
    /// so `yes` is one word too many, and the error says which flag `-BOOL` resembles.
    func testTypeFlagsAreCaseSensitive() {
        let r = h.run(["write", "com.apple.x", "Upper", "-BOOL", "yes"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("Unexpected argument yes") && r.stderr.contains("-bool"), r.stderr)
    }

    func testArrayAddAndDictAddTwice() {
        h.ok("write", "com.t", "list", "-array-add", "a")
        h.ok("write", "com.t", "list", "-array-add", "b", "-int", "3")
        XCTAssertEqual(h.ok("read", "com.t", "list"), "(\n    a,\n    b,\n    3\n)\n")
        h.ok("write", "com.t", "map", "-dict-add", "x", "1")
        h.ok("write", "com.t", "map", "-dict-add", "y", "-bool", "true", "x", "2")
        XCTAssertEqual(h.ok("read", "com.t", "map"), "{\n    x = 2;\n    y = 1;\n}\n")
        var r = h.run(["write", "com.t", "map", "-array-add", "c"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr, "settings: Value for key map is not an array; cannot append.  Leaving defaults unchanged.\n")
        r = h.run(["write", "com.t", "list", "-dict-add", "k", "v"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr, "settings: Value for key list is not a dictionary; cannot append.  Leaving defaults unchanged.\n")
    }

    func testPathDomainsWithAndWithoutPlist() {
        let base = h.config + "/Library/Preferences/com.apple.loginwindow"
        try? FileManager.default.createDirectory(
            atPath: h.config + "/Library/Preferences", withIntermediateDirectories: true)
        h.ok("write", base, "GuestEnabled", "-bool", "false")
        XCTAssertEqual(h.ok("read", base + ".plist", "GuestEnabled"), "0\n")
        // Under $HOME/Library/Preferences a path names the domain, as on macOS.
        h.ok("write", "~/Library/Preferences/com.example", "k", "v")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path("com.example")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.config + "/home/Library/Preferences/com.example.plist"))
    }

    func testRename() throws {
        XCTAssertEqual(h.python(["write", h.path("com.bin"), "binary"]).status, 0)
        h.ok("rename", "com.bin", "half", "ratio")
        XCTAssertEqual(h.ok("read", "com.bin", "ratio"), "0.5\n")
        XCTAssertEqual(h.run(["read", "com.bin", "half"]).status, 1)
        XCTAssertEqual(
            Array((FileManager.default.contents(atPath: h.path("com.bin")) ?? Data()).prefix(8)),
            Array("bplist00".utf8),
            "a binary domain stays binary")
        let before = h.snapshot()
        let r = h.run(["rename", "com.bin", "nope", "new"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "settings: Key nope does not exist in domain com.bin; leaving defaults unchanged\n")
        XCTAssertEqual(h.snapshot(), before)
        XCTAssertEqual(h.run(["rename", "com.none", "a", "b"]).status, 1)
    }

    func testFind() {
        h.ok("write", "com.apple.dock", "autohide", "-bool", "true")
        h.ok("write", "com.other", "note", "The Dock is nice")
        h.ok("write", "com.other", "list", "-array", "x", "{ inner = dock; }")
        h.ok("write", "com.other", "plain", "nothing here")
        let out = h.ok("find", "DOCK")
        XCTAssertEqual(
            out,
            """
            Found 1 keys in domain 'com.apple.dock': {
                autohide = 1;
            }
            Found 2 keys in domain 'com.other': {
                list =     (
                    x,
                            {
                        inner = dock;
                    }
                );
                note = "The Dock is nice";
            }

            """)
        let r = h.run(["find", "absent"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "No domain, key, nor value containing 'absent'\n")
    }

    func testReadEveryDomain() {
        h.ok("write", "-g", "g", "1")
        h.ok("write", "com.b", "k", "2")
        h.ok("write", "com.a", "k", "3")
        XCTAssertEqual(
            h.ok("read"),
            """
            {
                NSGlobalDomain =     {
                    g = 1;
                };
                "com.a" =     {
                    k = 3;
                };
                "com.b" =     {
                    k = 2;
                };
            }

            """)
    }
}
