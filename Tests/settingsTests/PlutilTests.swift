import Foundation
import XCTest

/// `plutil` as a user runs it, and what it keeps of the store's promise: a change in place
/// is one atomic, locked, journalled write that keeps the file's format and mode; a
/// read-only file, a folder or a link's target outside reach lose nothing. Files are read
/// back with plistlib.
final class PlutilTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// A binary Info.plist written by Foundation, mode 0640.
    func infoPlist() -> String {
        let path = h.file("Info.plist", "")
        let info: [String: Any] = ["CFBundleVersion": "1", "CFBundleURLTypes": [["CFBundleURLSchemes": ["app"]]]]
        let bytes = try? PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
        XCTAssertNoThrow(try bytes?.write(to: URL(fileURLWithPath: path)))
        XCTAssertEqual(chmod(path, 0o640), 0)
        return path
    }

    func inode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? Int) ?? -1
    }

    /// The binary linked as `plutil` is plutil: the name is all it takes.
    func testTheBinaryLinkedAsPlutilIsPlutil() throws {
        let path = infoPlist()
        let link = h.files + "/plutil"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Harness.settings)
        let r = h.exec(link, ["-replace", "CFBundleVersion", "-string", "42", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.exec(link, ["-extract", "CFBundleVersion", "raw", path]).stdout, "42\n")
        XCTAssertEqual(h.exec(link, ["-lint", path]).stdout, "\(path): OK\n")
        XCTAssertEqual(h.exec(link, ["-x", path]).stderr, "unrecognized option: -x\n")
        XCTAssertTrue(h.exec(link, ["-help"]).stdout.hasPrefix("usage: plutil "))
        XCTAssertTrue(h.run(["plutil", "-help"]).stdout.hasPrefix("usage: settings plutil "))
        // `settings plutil --help` is the verb's help, as for every verb.
        XCTAssertTrue(h.run(["plutil", "--help"]).stdout.contains("plutil -convert"))
    }

    /// An edit in place is a new file renamed over the old one, in the old one's format and
    /// mode, with a line in the file's history.
    func testAnEditInPlaceIsOneAtomicJournalledWriteKeepingFormatAndMode() throws {
        let path = infoPlist()
        let before = inode(path)
        XCTAssertEqual(h.run(["plutil", "-replace", "CFBundleVersion", "-string", "42", path]).status, 0)
        XCTAssertNotEqual(inode(path), before, "replaced by a rename, not rewritten in place")
        XCTAssertEqual(
            h.run(["plutil", "-insert", "CFBundleURLTypes.0.CFBundleURLSchemes.0", "-string", "first", path]).status, 0)
        XCTAssertEqual(
            h.plistlibJSON(path),
            #"{"CFBundleURLTypes": [{"CFBundleURLSchemes": ["first", "app"]}], "CFBundleVersion": "42"}"#)
        XCTAssertEqual(Plistlib.shared.ask(["format", path]).text, "binary")
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode, 0o640)
        let history = h.ok("history", path)
        XCTAssertTrue(history.contains("plutil") && history.contains(#"+/CFBundleVersion = "42""#), history)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.files).sorted(), ["Info.plist"])
    }

    /// A read-only file is refused and kept; a folder and a missing file are one line each,
    /// and the other files on the line are still done.
    func testWhatCannotBeWrittenIsOneLineAndTheRestIsDone() throws {
        let locked = infoPlist()
        XCTAssertEqual(chmod(locked, 0o444), 0)
        let bytes = FileManager.default.contents(atPath: locked)
        let other = h.file("other.plist", "{a = 1;}")
        let folder = h.files + "/folder.plist"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = h.run(["plutil", "-insert", "k", "-bool", "YES", locked, folder, h.files + "/none.plist", other])
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, r.stderr)
        XCTAssertTrue(lines[0].hasPrefix("\(locked): ") && lines[0].contains("read-only"), r.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: locked), bytes)
        // The OpenStep file is read, but nothing writes OpenStep: Apple's says the same.
        XCTAssertTrue(lines[1].hasPrefix("\(folder): "), r.stderr)
        XCTAssertEqual(
            String(lines[2]), "\(h.files)/none.plist: (The operation could not be completed. The file doesn’t exist.)")
        XCTAssertEqual(String(lines[3]), "\(other): Conversion to OpenStep format is not supported")
        XCTAssertEqual(h.run(["plutil", "-convert", "xml1", other]).status, 0)
        XCTAssertEqual(h.plistlibJSON(other), #"{"a": "1"}"#)
    }

    /// A link is written through: its target changes, the link stays a link.
    func testALinkStaysALinkAndItsTargetChanges() throws {
        let target = infoPlist()
        let link = h.files + "/link.plist"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertEqual(h.run(["plutil", "-replace", "CFBundleVersion", "-string", "7", link]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target)
        XCTAssertTrue(h.plistlibJSON(target).contains(#""CFBundleVersion": "7""#))
    }

    /// Writers at once lose nothing: each one's read, change and write is one locked step.
    func testConcurrentEditsLoseNothing() throws {
        let path = infoPlist()
        let link = h.files + "/plutil"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Harness.settings)
        let script = #"for i in $(seq 1 12); do "$0" -insert "k$1$i" -integer $i "$2" || exit 1; done"#
        let writers = try (0..<3).map { n -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", script, link, "w\(n)_", path]
            try p.run()
            return p
        }
        for p in writers {
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
        }
        let keys = h.run(["plutil", "-extract", "", "raw", path])
        XCTAssertEqual(keys.status, 1, "an empty key path names nothing")
        let listed = h.run(["plutil", "-p", path]).stdout
        for n in 0..<3 {
            for i in 1...12 { XCTAssertTrue(listed.contains("\"kw\(n)_\(i)\" => \(i)"), "kw\(n)_\(i) lost") }
        }
    }

    /// -convert json refuses dates and data as Apple's does, then says once what keeps them;
    /// standard input converts to standard output; -create makes an empty dictionary.
    func testJSONRefusalPointsAtTheLosslessExport() throws {
        let path = h.file("d.plist", "{ when = <2a>; }")
        let r = h.run(["plutil", "-convert", "json", "-o", "-", path, path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            "\(path): Invalid object in plist for JSON format\n"
                + "hint: settings export \(path) - --json keeps dates and data ({\"$date\": …}, {\"$data\": …})\n"
                + "\(path): Invalid object in plist for JSON format\n")
        XCTAssertEqual(h.ok("export", path, "-", "--json"), #"{"when":{"$data":"Kg=="}}"# + "\n")
        let piped = h.run(["plutil", "-convert", "json", "-"], stdin: Data(#"{"a": [1, true]}"#.utf8))
        XCTAssertEqual(piped.stdout, #"{"a":[1,true]}"#)
        let made = h.files + "/new.plist"
        XCTAssertEqual(h.run(["plutil", "-create", "binary1", made]).status, 0)
        XCTAssertEqual(h.plistlibJSON(made), "{}")
    }
}

/// The attack rows through both new entry points: a FIFO with no writer, a device, a
/// folder, a dangling link and a link loop in place of the file each get one line and a
/// failure, never a hang, and nothing is made in their place.
final class AppleToolsAttackTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testOddFilesAreOneLineEachAndNothingIsMade() throws {
        _ = h.file("placeholder", "")
        let fifo = h.files + "/fifo.plist", folder = h.files + "/folder.plist"
        let dangling = h.files + "/dangling.plist", loop = h.files + "/loop.plist"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: h.files + "/nowhere.plist")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let before = try FileManager.default.contentsOfDirectory(atPath: h.files).sorted()
        for target in [fifo, folder, loop, "/dev/null"] {
            for words in [
                ["plutil", "-insert", "k", "-string", "v", target], ["plutil", "-convert", "binary1", target],
                ["plistbuddy", "-c", "Add :k string v", target],
            ] {
                let r = h.run(words)
                XCTAssertNotEqual(r.status, 0, "\(words)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(words): \(r.stderr)")
            }
        }
        // A dangling link is written through, as `cp` would: its target is made, the link stays.
        XCTAssertEqual(h.run(["plistbuddy", "-c", "Add :k string v", dangling]).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dangling), h.files + "/nowhere.plist")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: h.files).sorted(), (before + ["nowhere.plist"]).sorted()
        )
        XCTAssertEqual(Plistlib.shared.ask(["load", h.files + "/nowhere.plist"]).text, #"{"k": "v"}"#)
    }
}

/// `-convert objc -header` writes the constant's definition and its header beside the file.
final class PlutilLiteralFileTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testObjCWithAHeaderAndSwiftBesideTheFile() throws {
        let path = h.file("Colors.plist", "{ red = 1; name = \"Red\"; }")
        XCTAssertEqual(h.run(["plutil", "-convert", "objc", "-header", path]).status, 0)
        XCTAssertEqual(
            String(decoding: FileManager.default.contents(atPath: h.files + "/Colors.m") ?? Data(), as: UTF8.self),
            "#import \"Colors.h\"\n\n/// Generated from Colors.plist\n__attribute__((visibility(\"hidden\")))\n"
                + "NSDictionary * const Colors = @{\n    @\"name\" : @\"Red\",\n    @\"red\" : @\"1\",\n};\n")
        XCTAssertEqual(
            String(decoding: FileManager.default.contents(atPath: h.files + "/Colors.h") ?? Data(), as: UTF8.self),
            "#import <Foundation/Foundation.h>\n\n/// Generated from Colors.plist\n"
                + "__attribute__((visibility(\"hidden\")))\nextern NSDictionary * const Colors;\n")
        XCTAssertEqual(h.run(["plutil", "-convert", "swift", path]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.files + "/Colors.swift"))
        XCTAssertEqual(
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self),
            "{ red = 1; name = \"Red\"; }", "the source is kept")
    }
}

/// What the outside attack on issue 51 found, each fixed and kept as a test.
final class AppleToolsAttackFindingsTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// React Native's `Add NSAppTransportSecurity:NSExceptionDomains:$IP.xip.io:… bool true`
    /// and LLVM's `Print:CFBundleVersion`: parents made, and a command joined to its entry.
    func testScriptsPlistBuddyLines() throws {
        let path = h.file("Info.plist", "{ CFBundleVersion = 7; }")
        let r = h.run([
            "plistbuddy", "-c",
            "Add NSAppTransportSecurity:NSExceptionDomains:10.0.2.2.xip.io:NSTemporaryExceptionAllowsInsecureHTTPLoads bool true",
            path,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            Plistlib.shared.ask(["load", path]).text.contains(
                #"{"NSExceptionDomains": {"10.0.2.2.xip.io": {"NSTemporaryExceptionAllowsInsecureHTTPLoads": true}}}"#))
        XCTAssertEqual(h.run(["plistbuddy", "-c", "Print:CFBundleVersion", path]).stdout, "7\n")
    }

    /// XML cannot hold a control character: converting such a file to xml1 is refused and
    /// the file is kept (Apple's writes an XML file no reader takes).
    func testXMLThatCouldNotBeReadIsNeverWritten() throws {
        let path = h.file("ctl.plist", "")
        let script =
            "import plistlib, sys; plistlib.dump({'s': 'a\\x07b'}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)"
        XCTAssertEqual(h.exec("/usr/bin/env", ["python3", "-c", script, path]).status, 0)
        let before = FileManager.default.contents(atPath: path)
        let r = h.run(["plutil", "-convert", "xml1", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            "\(path): Invalid object in plist for XML format: a control character, U+0007 (binary1 keeps it)\n")
        XCTAssertEqual(FileManager.default.contents(atPath: path), before)
    }

    /// Apple's oddity kept, with the verb that does better said once: -replace on an array's
    /// index inserts; `write -p` replaces.
    func testReplaceOnAnArrayIndexInsertsAndSaysWhatReplaces() throws {
        let path = h.file("a.plist", "")
        h.ok("write", path, "list", "-array", "x", "y")
        let r = h.run(["plutil", "-replace", "list.0", "-string", "w", path, path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "hint: -replace on an array index inserts, as Apple's plutil does; settings write \(path) -p /list/0 … "
                + "replaces the element\n")
        XCTAssertEqual(h.ok("write", path, "-p", "/list/0", "-string", "v"), "")
        XCTAssertEqual(
            h.ok("read", path, "--json"), #"{"list":["v","w","x","y"]}"# + "\n", "both files' inserts, one hint")
    }

    /// An endless input under `ulimit -v` is refused in one line, not a crash: reads stop at
    /// a quarter of the address space the process may have.
    func testEndlessInputUnderAMemoryLimitIsOneLine() throws {
        for words in [["plutil", "-lint", "-"], ["import", "com.example.zero", "-"]] {
            let r = h.exec(
                "/bin/sh", ["-c", #"ulimit -v 200000; exec "$0" "$@" < /dev/zero"#, Harness.settings] + words)
            XCTAssertTrue(r.status == 1 || r.status == 3, "\(words): \(r.status) \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(words): \(r.stderr)")
        }
    }

    /// A name or entry with a line break or an escape sequence is one line on stderr.
    func testErrorsAreOneLine() throws {
        _ = h.file("x", "")
        let odd = h.files + "/bad\nname\u{1B}[31m.plist"
        XCTAssertEqual(h.run(["plutil", "-p", odd]).stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(h.run(["plutil", "-\nx\u{1B}[2J", odd]).stderr, "unrecognized option: -\\nx\\u{1B}[2J\n")
        let path = h.file("p.plist", "{ a = 1; }")
        let r = h.run(["plistbuddy", "-c", "Print :x\u{1B}[2J", path])
        XCTAssertEqual(r.stderr, "Print: Entry, \":x\\u{1B}[2J\", Does Not Exist\n")
    }
}
