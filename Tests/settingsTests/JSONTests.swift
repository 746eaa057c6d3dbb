import Foundation
import XCTest

/// Issue 13 as a CI script uses it: `--json` in and out, key paths, checked with real
/// `jq` and with Python's `json` and `plistlib`.
final class JSONTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// All nine types, the integer extremes, 1.0, -0.0, NaN, a fractional date, empty
    /// data and awkward keys, as plistlib writes them in binary.
    private func writeFixture(_ domain: String = "com.fix") {
        let script = """
            import datetime, plistlib, sys
            d = {"s": "x", "min": -2**63, "max": 2**63 - 1, "umax": 2**64 - 1, "one": 1.0, "negzero": -0.0,
                 "nan": float("nan"), "when": datetime.datetime(2024, 1, 2, 3, 4, 5, 250000), "empty": b"",
                 "bytes": bytes(range(256)), "yes": True, "list": [1, "a", [], {}, 2.5], "tagged": {"$date": "x"},
                 "": "empty key", "a/b": 1, "a~b": 2, "a.b": {"c": [True, {"d": 0.5}]}}
            plistlib.dump(d, open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
            """
        let r = h.exec("/usr/bin/env", ["python3", "-c", script, h.path(domain)])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    private func jq(_ filter: String, _ input: String, raw: Bool = false) -> String {
        let r = h.exec("/usr/bin/env", ["jq", "-c"] + (raw ? ["-r"] : []) + [filter], stdin: Data(input.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    func testExportThenImportLeavesEveryValueAndTypeAsItWas() throws {
        try Harness.require("jq", package: "jq")
        writeFixture()
        let before = h.plistlibCanon(h.path("com.fix"))
        let json = h.ok("export", "com.fix", "-", "--json")
        let r = h.run(["import", "com.fix", "-", "--json"], stdin: Data(json.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.plistlibCanon(h.path("com.fix")), before)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: h.path("com.fix"))).prefix(8), Data("bplist00".utf8),
            "binary stays binary")
        // Python's json reads it, and sees the types apart.
        let check = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import json, sys
                d = json.load(sys.stdin)
                print(type(d["one"]).__name__, type(d["max"]).__name__, d["umax"], d["min"], d["nan"], d["tagged"])
                """,
            ], stdin: Data(json.utf8))
        XCTAssertEqual(
            check.stdout,
            "float int 18446744073709551615 -9223372036854775808 {'$real': 'nan'} {'$dict': {'$date': 'x'}}\n",
            check.stderr)
        XCTAssertEqual(jq(#".when["$date"]"#, json, raw: true), "2024-01-02T03:04:05.25Z\n")
        XCTAssertEqual(jq(".\"a.b\".c[1].d", json), "0.5\n")
    }

    func testPlainDomainsHaveNoTags() {
        h.ok("write", "com.plain", "s", "-string", "text")
        h.ok("write", "com.plain", "n", "-int", "5")
        h.ok("write", "com.plain", "b", "-bool", "true")
        h.ok("write", "com.plain", "list", "-array", "a", "b")
        let json = h.ok("read", "com.plain", "--json")
        XCTAssertEqual(json, #"{"b":true,"list":["a","b"],"n":5,"s":"text"}"# + "\n")
        XCTAssertFalse(json.contains("$"))
    }

    /// For every path jq finds, reading it with --path-json gives what jq's getpath gives.
    func testEveryJqPathReadsBackAsJqSeesIt() throws {
        try Harness.require("jq", package: "jq")
        writeFixture()
        let json = h.ok("export", "com.fix", "-", "--json")
        let paths = jq("paths(scalars)", json).split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(paths.count, 15)
        // jq 1.6 reads numbers as doubles (1.0 prints as 1, 2^63-1 as 9223372036854776000):
        // compare as jq's numbers, exactness is checked against plistlib above.
        let same = """
            import json, sys
            def jqish(v):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    return [jqish(x) for x in v] if isinstance(v, list) else {k: jqish(x) for k, x in v.items()} if isinstance(v, dict) else v
                return float(v)
            # One pair a line, ours then jq's: "same" or "differs" for each.
            lines = sys.stdin.read().splitlines()
            for a, b in zip(lines[0::2], lines[1::2]):
                print("same" if jqish(json.loads(a)) == jqish(json.loads(b)) else "differs")
            """
        // jq's value at every path, in the order of `paths(scalars)`, one line each; then
        // one python for every comparison (a process per path was most of this test's time).
        let theirs = jq("paths(scalars) as $p | getpath($p)", json).split(separator: "\n").map(String.init)
        XCTAssertEqual(theirs.count, paths.count)
        var pairs = ""
        for (path, their) in zip(paths, theirs) {
            let ours = h.run(["read", "com.fix", "--path-json", path, "--json"])
            XCTAssertEqual(ours.status, 0, "\(path): \(ours.stderr)")
            XCTAssertEqual(ours.stdout.filter { $0 == "\n" }.count, 1, path)
            pairs += ours.stdout + their + "\n"
        }
        let compared = h.exec("/usr/bin/env", ["python3", "-c", same], stdin: Data(pairs.utf8))
        XCTAssertEqual(compared.status, 0, compared.stderr)
        let verdicts = compared.stdout.split(separator: "\n")
        XCTAssertEqual(verdicts.count, paths.count)
        for (i, verdict) in verdicts.enumerated() where verdict != "same" {
            XCTFail("\(paths[i]): ours \(pairs.split(separator: "\n")[2 * i]), jq \(theirs[i])")
        }
        XCTAssertEqual(h.ok("read", "com.fix", "--path-json", #"["when","$date"]"#), "2024-01-02T03:04:05.25Z\n")
        XCTAssertEqual(h.ok("read", "com.fix", "--path-json", #"["list",4]"#), "2.5\n")
        XCTAssertEqual(h.ok("read", "com.fix", "-p", "/a~1b"), "1\n")
        XCTAssertEqual(h.ok("read", "com.fix", "-p", "/a~0b"), "2\n")
        XCTAssertEqual(h.ok("read", "com.fix", "-p", "/"), "empty key\n")
        XCTAssertEqual(h.ok("read-type", "com.fix", "-p", "/a.b/c/1/d"), "Type is float\n")
    }

    func testPathsListsEveryLeaf() {
        h.ok("write", "com.p", "w", "-dict", "a/b", "(1, { x = 2; })", "e", "()")
        XCTAssertEqual(h.ok("paths", "com.p"), "/w/a~1b/0\n/w/a~1b/1/x\n/w/e\n")
        XCTAssertEqual(h.run(["paths", "com.none"]).status, 1)
    }

    func testWritesInsideValues() {
        h.ok("write", "com.w", "list", "-array", "a", "b")
        h.ok("write", "com.w", "-p", "/list/1", "-string", "B")
        h.ok("write", "com.w", "-p", "/list/-", "-int", "3")
        h.ok("write", "com.w", "-p", "/list/0", "--insert", "-string", "first")
        h.ok("write", "com.w", "-p", "/win/frame/size", "--json", #"{"w": 800, "h": 600.0}"#)
        h.ok("write", "com.w", "a.b", "-string", "dotted")  // a positional key is literal
        h.ok("write", "com.w", "-p", "/win/0", "-bool", "yes")  // in a dictionary, 0 is a key
        XCTAssertEqual(
            h.ok("read", "com.w", "--json"),
            #"{"a.b":"dotted","list":["first","a","B",3],"win":{"0":true,"frame":{"size":{"h":600.0,"w":800}}}}"# + "\n"
        )
        h.ok("delete", "com.w", "-p", "/list/1")
        XCTAssertEqual(h.ok("read", "com.w", "-p", "/list", "--json"), #"["first","B",3]"# + "\n")
        XCTAssertEqual(h.plistlibCanon(h.path("com.w")).contains("i:800"), true)
    }

    /// Errors name the first failing segment, exit 1, and leave every file as it was.
    func testBadPlacesChangeNothing() {
        h.ok("write", "com.w", "list", "-array", "a")
        h.ok("write", "com.w", "s", "-string", "text")
        let before = h.snapshot()
        for (arguments, status, message) in [
            (
                ["write", "com.w", "-p", "/missing/0", "-int", "1"], 1,
                "nothing at /missing to hold an element; create /missing with -array first"
            ),
            (["write", "com.w", "-p", "/list/5", "-int", "1"], 1, "/list/5 is past the end of an array of 1 element"),
            (["write", "com.w", "-p", "/list/01", "-int", "1"], 1, "/list/01: an array takes an index"),
            (["write", "com.w", "-p", "/s/x", "-int", "1"], 1, "/s holds a string, not a dictionary or an array"),
            (["write", "com.w", "-p", "s", "-int", "1"], 2, "invalid -p: 's' is not a JSON Pointer"),
            (["write", "com.w", "-p", "/a~2", "-int", "1"], 2, "'~' must be followed by 0"),
            (["write", "com.w", "-p", "", "-int", "1"], 2, "the empty pointer names the whole domain"),
            (["write", "com.w", "--path-json", "[1.5]", "-int", "1"], 2, "invalid --path-json"),
            (["write", "com.w", "k", "--json", "{\"a\":{\"$Date\":1}}"], 2, "at /a: unknown tag \"$Date\""),
            (["write", "com.w", "k", "--json", "[1, null]"], 2, "at /1: null has no property-list type"),
            (["write", "com.w", "k", "--json", "{"], 2, "JSON line 1"),
            (["delete", "com.w", "-p", "/list/3"], 1, "/list/3 is past the end"),
            (["delete", "com.w", "-p", "/nope/x"], 1, "(com.w, /nope/x) does not exist"),
            (["read", "com.w", "-p", "/list/1"], 1, "(com.w, /list/1) does not exist"),
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, Int32(status), "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
        }
        XCTAssertEqual(h.snapshot(), before)
    }

    func testImportErrorsNameThePointerAndChangeNothing() {
        h.ok("write", "com.w", "k", "v")
        let before = h.snapshot()
        for (input, message) in [
            (#"{"a": {"when": {"$Date": "2024-01-02T03:04:05Z"}}}"#, "at /a/when: unknown tag"),
            (#"{"a": [null]}"#, "at /a/0: null"), (#"[1]"#, "the top level is an array, not an object"),
            ("{\"a\": 1,}", "JSON line 1"),
        ] {
            let r = h.run(["import", "com.w", "-", "--json"], stdin: Data(input.utf8))
            XCTAssertEqual(r.status, 2, input)
            XCTAssertTrue(
                r.stderr.hasPrefix("settings: cannot read standard input as JSON: ") && r.stderr.contains(message),
                r.stderr)
        }
        XCTAssertEqual(h.snapshot(), before)
    }

    /// Issue 34: JSON imported into a domain with no file is written straight as XML. The
    /// file must be the one the values' way writes (an import into a domain that had a
    /// key, then that key deleted), plistlib must read it, and the history, the managed
    /// keys and a value XML cannot hold must be as before.
    func testImportIntoANewDomainWritesWhatTheValuesWayWrites() throws {
        let json = #"""
            {"zeta": {"b": [1, 2.5, -0, 1e2], "a": {"$date": "2024-01-02T03:04:05+01:00"}},
             "alpha": "a &amp; <b> \"q\" \u00e9 \ud83d\ude00", "&key": {"$data": "AAEC/w=="},
             "mid": [true, false, {"$real": "-inf"}, {}, []], "big": 18446744073709551615}
            """#
        let r = h.run(["import", "com.new", "-", "--json"], stdin: Data(json.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        h.ok("write", "com.old", "gone", "1")
        XCTAssertEqual(h.run(["import", "com.old", "-", "--json"], stdin: Data(json.utf8)).status, 0)
        h.ok("delete", "com.old", "gone")
        let straight = try Data(contentsOf: URL(fileURLWithPath: h.path("com.new")))
        let long = try Data(contentsOf: URL(fileURLWithPath: h.path("com.old")))
        XCTAssertEqual(String(decoding: straight, as: UTF8.self), String(decoding: long, as: UTF8.self))
        XCTAssertEqual(h.plistlibCanon(h.path("com.new")), h.plistlibCanon(h.path("com.old")))
        let history = h.ok("history", "com.new")
        XCTAssertTrue(history.contains(" settings import (pid "), history)
        XCTAssertTrue(history.contains("+/big = 18446744073709551615\n"), history)
        XCTAssertEqual(history.split(separator: "\n").filter { $0.hasPrefix("+/") }.count, 5, history)
        // A managed key is refused, and nothing is made.
        h.admin("managed", "com.locked.json", #"{"mid": 1}"#)
        let refused = h.run(["import", "com.locked", "-", "--json"], stdin: Data(json.utf8))
        XCTAssertEqual(refused.status, 4, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("settings: cannot change mid: it is managed"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.locked")))
        // Text XML cannot hold is refused in one line, as before; a fraction of a second
        // makes the file binary, the one format that keeps it.
        let control = h.run(["import", "com.ctl", "-", "--json"], stdin: Data(#"{"a": "bell\u0007"}"#.utf8))
        XCTAssertEqual(control.status, 2, control.stderr)
        XCTAssertTrue(control.stderr.contains("the control character U+0007"), control.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.ctl")))
        let fraction = #"{"a": {"$date": "2024-01-02T03:04:05.5Z"}}"#
        XCTAssertEqual(h.run(["import", "com.frac", "-", "--json"], stdin: Data(fraction.utf8)).status, 0)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: h.path("com.frac"))).prefix(8), Data("bplist00".utf8))
    }

    /// Two imports of one new domain at once: one makes the file straight, the other
    /// finds it under the lock and merges into it, so every key of both is there.
    func testTwoImportsOfANewDomainAtOnceKeepEveryKey() throws {
        var files: [String] = []
        for side in ["a", "b"] {
            let path = h.config + "-\(side).json"
            let members = (0..<3000).map { "\"\(side)\($0)\": \($0)" }.joined(separator: ",")
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{\(members)}".utf8)))
            files.append(path)
        }
        defer { for path in files { try? FileManager.default.removeItem(atPath: path) } }
        for round in 0..<3 {
            try? FileManager.default.removeItem(atPath: h.path("com.race"))
            let running = try files.map { try h.start(["import", "com.race", $0, "--json"]) }
            for (process, _, error) in running {
                process.waitUntilExit()
                XCTAssertEqual(
                    process.terminationStatus, 0,
                    String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            let read = try JSONSerialization.jsonObject(with: Data(h.plistlibJSON(h.path("com.race")).utf8))
            XCTAssertEqual((read as? [String: Int])?.count, 6000, "round \(round)")
        }
    }

    /// An integer arriving where a real was stays a real; --exact keeps it an integer.
    func testIntegersStickToRealsUnlessExact() {
        h.ok("write", "com.w", "volume", "-float", "0.5")
        h.ok("write", "com.w", "volume", "--json", "1")
        XCTAssertEqual(h.ok("read-type", "com.w", "volume"), "Type is float\n")
        let r = h.run(["import", "com.w", "-", "--json"], stdin: Data(#"{"volume": 2, "n": 3}"#.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("read", "com.w", "--json"), #"{"n":3,"volume":2.0}"# + "\n")  // XML keeps keys sorted
        h.ok("write", "com.w", "volume", "--exact", "--json", "4")
        XCTAssertEqual(h.ok("read-type", "com.w", "volume"), "Type is integer\n")
    }

    func testMergeIsDeep() {
        h.ok("write", "com.w", "win", "-dict", "w", "-int", "1", "h", "-int", "2")
        h.ok("write", "com.w", "keep", "yes")
        let r = h.run(
            ["import", "com.w", "-", "--json", "--merge"], stdin: Data(#"{"win": {"h": 3, "x": 4}, "new": [1]}"#.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.ok("read", "com.w", "--json"), #"{"keep":"yes","new":[1],"win":{"h":3,"w":1,"x":4}}"# + "\n")
    }

    /// A path domain keeps its format: PlistBuddy's job on an Info.plist in CI.
    func testAPathDomainKeepsItsFormat() throws {
        let info = h.config + "/App/Info.plist"
        try FileManager.default.createDirectory(atPath: h.config + "/App", withIntermediateDirectories: true)
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; plistlib.dump({'CFBundleVersion': '1', 'UIDeviceFamily': [1]}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)",
                info,
            ])
        XCTAssertEqual(r.status, 0, r.stderr)
        h.ok("write", info, "-p", "/CFBundleVersion", "-string", "42")
        h.ok("write", info, "-p", "/UIDeviceFamily/-", "-int", "2")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: info)).prefix(8), Data("bplist00".utf8))
        let check = h.exec(
            "/usr/bin/env",
            ["python3", "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb')))", info])
        XCTAssertEqual(check.stdout, "{'CFBundleVersion': '42', 'UIDeviceFamily': [1, 2]}\n")
    }

    /// Every defaults line keeps its meaning: `-p` with nothing after it is a key.
    func testMinusPAloneIsStillAKey() {
        h.ok("write", "com.w", "-p", "/x")
        XCTAssertEqual(h.ok("read", "com.w", "-p"), "/x\n")
        XCTAssertEqual(h.ok("read", "com.w", "--json"), #"{"-p":"/x"}"# + "\n")
    }
}
