import Foundation
import XCTest

/// Issue 14: schemas as a shell user meets them, against the real binary, with plistlib
/// checking the stored types and gsettings run on an equivalent gschema.
final class SchemaTests: XCTestCase {
    var h: Harness!
    override func setUp() {
        h = Harness()
        writeSchema(Self.player)
    }
    override func tearDown() { h.cleanUp() }

    static let player = """
        {"domain": "com.example.player", "strict": false, "keys": {
          "volume": {"type": "integer", "default": 50, "minimum": 0, "maximum": 100, "summary": "Output volume (%)"},
          "theme":  {"type": "string", "default": "system", "enum": ["light", "dark", "system"],
                     "summary": "Colour theme", "description": "Light, dark, or as the system is."},
          "ratio":  {"type": "real", "default": 1.0},
          "recent": {"type": "array", "items": {"type": "string"}, "default": []}}}
        """

    private func writeSchema(_ text: String, domain: String = "com.example.player") {
        let folder = h.config + "/settings/schemas"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/\(domain).json", contents: Data(text.utf8)))
    }

    private func types() -> String {
        let r = h.exec(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; d = plistlib.load(open(sys.argv[1], 'rb')); print(sorted((k, type(v).__name__) for k, v in d.items()))",
                h.path("com.example.player"),
            ])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// Must-show 1: a value out of range or not among the choices names what is allowed,
    /// exits 2 and changes nothing; --force writes it.
    func testOutOfRangeAndUnknownChoicesAreRefused() {
        h.ok("write", "com.example.player", "volume", "70")
        let before = h.snapshot()
        var r = h.run(["write", "com.example.player", "volume", "101"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.stderr,
            "settings: invalid value for volume: 101 is not in 0…100; leaving defaults unchanged. (--force writes it anyway)\n"
        )
        r = h.run(["write", "com.example.player", "theme", "neon"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("'neon' is not one of light, dark, system"), r.stderr)
        r = h.run(["write", "com.example.player", "recent", "-array", "a", "-int", "5"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("element 1: 5 is an integer, not a string"), r.stderr)
        r = h.run(["write", "com.example.player", "volume", "-string", "loud"])
        XCTAssertEqual(r.status, 2)
        // A write inside a value is checked as the whole value it makes.
        h.ok("write", "com.example.player", "recent", "-array", "a")
        let withRecent = h.snapshot()
        r = h.run(["write", "com.example.player", "-p", "/recent/-", "-int", "5"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("invalid value for recent: element 1: 5 is an integer, not a string"), r.stderr)
        XCTAssertEqual(h.snapshot(), withRecent)
        h.ok("write", "com.example.player", "-p", "/recent/-", "-string", "b")
        h.ok("delete", "com.example.player", "recent")
        XCTAssertEqual(h.snapshot(), before)
        h.ok("write", "com.example.player", "--force", "volume", "101")
        XCTAssertEqual(h.ok("read", "com.example.player", "volume"), "101\n")
    }

    /// Must-show 2: a flagless value takes the schema's type.
    func testFlaglessValuesTakeTheSchemasType() {
        h.ok("write", "com.example.player", "volume", "70")
        h.ok("write", "com.example.player", "ratio", "2")
        h.ok("write", "com.example.player", "theme", "dark")
        XCTAssertEqual(types(), "[('ratio', 'float'), ('theme', 'str'), ('volume', 'int')]\n")
        let r = h.run(["write", "com.example.player", "volume", "abc"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("'abc' is not an integer"), r.stderr)
        // Without a schema, defaults' behaviour: a string.
        h.ok("write", "com.other", "volume", "70")
        XCTAssertEqual(h.ok("read-type", "com.other", "volume"), "Type is string\n")
    }

    /// Must-show 3: defaults read back before anything is written, and after a reset.
    func testDefaultsReadBackAndResetReturnsToThem() {
        XCTAssertEqual(h.ok("read", "com.example.player", "volume"), "50\n")
        XCTAssertEqual(h.ok("read", "com.example.player", "volume", "--source"), "default\n")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: h.path("com.example.player")), "defaults are never written")
        h.ok("write", "com.example.player", "volume", "80")
        XCTAssertEqual(h.ok("read", "com.example.player", "volume", "--source"), "user\n")
        h.ok("write", "com.example.player", "theme", "dark")
        h.ok("reset", "com.example.player", "volume")
        XCTAssertEqual(h.ok("read", "com.example.player", "volume"), "50\n")
        XCTAssertEqual(h.ok("read", "com.example.player", "--json"), #"{"theme":"dark"}"# + "\n")
        XCTAssertEqual(
            h.ok("read", "com.example.player", "--with-defaults", "--json"),
            #"{"theme":"dark","volume":50,"ratio":1.0,"recent":[]}"# + "\n")
        h.ok("reset", "com.example.player", "--all")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.example.player")))
        XCTAssertEqual(h.run(["read", "com.example.player", "nokey"]).status, 1)
    }

    /// Must-show 4: a malformed schema is one warning, and read and write work as without one.
    func testAMalformedSchemaIsOneWarningAndPlainBehaviour() {
        writeSchema(#"{"keys": {"volume": {"type": "integr"}}}"#)
        var r = h.run(["write", "com.example.player", "volume", "101"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(
            r.stderr.hasPrefix("settings: warning: ignoring the schema ")
                && r.stderr.contains("/keys/volume: \"type\" must be one of"), r.stderr)
        r = h.run(["read", "com.example.player", "volume"])
        XCTAssertEqual(r.stdout, "101\n")
        XCTAssertEqual(h.ok("read-type", "com.example.player", "volume"), "Type is string\n")
        writeSchema("{not json")
        r = h.run(["read", "com.example.player", "--with-defaults"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "{\n    volume = 101;\n}\n")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("JSON line 1"), r.stderr)
    }

    func testStrictSchemasAndValidate() {
        writeSchema(#"{"strict": true, "keys": {"volume": {"type": "integer", "maximum": 10}}}"#)
        let r = h.run(["write", "com.example.player", "other", "x"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("other is not a key of com.example.player's schema, which is strict"), r.stderr)
        h.ok("write", "com.example.player", "--force", "other", "x")
        h.ok("write", "com.example.player", "--force", "volume", "11")
        XCTAssertEqual(h.ok("write", "com.example.player", "volume", "9"), "")
        h.ok("write", "com.example.player", "--force", "volume", "12")
        let v = h.run(["validate", "com.example.player"])
        XCTAssertEqual(v.status, 1)
        XCTAssertEqual(v.stdout, "other: not a key of the schema, which is strict\nvolume: 12 is not in …10\n")
        XCTAssertEqual(
            h.ok("schema", "path", "com.example.player"), h.config + "/settings/schemas/com.example.player.json\n")
    }

    /// Schemas in XDG_DATA_DIRS are found after the user's own.
    func testSchemasInDataDirs() throws {
        try FileManager.default.removeItem(atPath: h.config + "/settings/schemas/com.example.player.json")
        let data = h.config + "/share"
        try FileManager.default.createDirectory(atPath: data + "/settings/schemas", withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: data + "/settings/schemas/com.example.player.json", contents: Data(Self.player.utf8)))
        let r = h.run(
            ["range", "com.example.player", "volume"], environment: ["XDG_DATA_DIRS": "/nonexistent:" + data])
        XCTAssertEqual(r.stdout, "range integer 0 100\n", r.stderr)
    }

    /// Must-show 6: list-keys, describe and range say what gsettings says for the same
    /// keys in a gschema (type codes and GVariant quoting mapped to our words).
    func testListKeysDescribeAndRangeMatchGsettings() throws {
        try Harness.require("gsettings", package: "libglib2.0-bin")
        let gschema = """
            <schemalist>
              <schema id="com.example.player" path="/com/example/player/">
                <key name="volume" type="i"><default>50</default><range min="0" max="100"/><summary>Output volume (%)</summary></key>
                <key name="theme" type="s"><choices><choice value="light"/><choice value="dark"/><choice value="system"/></choices>
                  <default>'system'</default><summary>Colour theme</summary><description>Light, dark, or as the system is.</description></key>
                <key name="ratio" type="d"><default>1.0</default></key>
                <key name="recent" type="as"><default>[]</default></key>
              </schema>
            </schemalist>
            """
        let folder = h.config + "/gschemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: folder + "/com.example.player.gschema.xml", contents: Data(gschema.utf8)))
        XCTAssertEqual(h.exec("/usr/bin/env", ["glib-compile-schemas", folder]).status, 0)
        let environment = ["GSETTINGS_SCHEMA_DIR": folder, "GSETTINGS_BACKEND": "memory"]
        func gsettings(_ arguments: [String]) -> String {
            let r = h.exec("/usr/bin/env", ["gsettings"] + arguments, environment: environment)
            XCTAssertEqual(r.status, 0, r.stderr)
            // GVariant's words and quoting, in ours.
            let codes = ["i": "integer", "d": "real", "s": "string", "as": "array", "b": "boolean"]
            return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                var words = line.split(separator: " ").map(String.init)
                if ["type", "range"].contains(words.first ?? ""), words.count > 1 {
                    words[1] = codes[words[1]] ?? words[1]
                }
                return words.joined(separator: " ").replacingOccurrences(of: "'", with: "").replacingOccurrences(
                    of: "(null)", with: "")
            }.joined(separator: "\n")
        }
        XCTAssertEqual(h.ok("list-keys", "com.example.player"), gsettings(["list-keys", "com.example.player"]))
        for key in ["volume", "theme", "ratio", "recent"] {
            XCTAssertEqual(
                h.ok("describe", "com.example.player", key), gsettings(["describe", "com.example.player", key]), key)
            XCTAssertEqual(
                h.ok("range", "com.example.player", key), gsettings(["range", "com.example.player", key]), key)
        }
    }

    func testCompletionOffersSchemaKeysAndChoices() {
        XCTAssertEqual(h.ok("complete", "keys", "com.example.player"), "ratio\nrecent\ntheme\nvolume\n")
        XCTAssertEqual(h.ok("complete", "values", "com.example.player", "theme"), "light\ndark\nsystem\n")
        XCTAssertEqual(h.ok("complete", "values", "com.example.player", "volume"), "")
    }

    /// Ranges cannot be bypassed: NaN is in no range, and integers are compared as
    /// integers (2^53+1 is above a maximum of 2^53, though both are the same double).
    func testNaNAndBigIntegersAreOutOfRange() throws {
        writeSchema(
            """
            {"keys": {"ratio": {"type": "real", "minimum": 0, "maximum": 100},
                      "big":   {"type": "integer", "maximum": 9007199254740992},
                      "small": {"type": "integer", "minimum": -9007199254740992}}}
            """, domain: "com.range")
        var r = h.run(["write", "com.range", "big", "-int", "9007199254740993"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("9007199254740993 is not in …9007199254740992"), r.stderr)
        r = h.run(["write", "com.range", "small", "-int", "-9007199254740993"])
        XCTAssertEqual(r.status, 2, r.stderr)
        h.ok("write", "com.range", "big", "-int", "9007199254740992")
        // NaN cannot be typed; it arrives in a file another program wrote.
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: h.path("com.range"),
                contents: Data(
                    """
                    <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
                    <key>ratio</key><real>nan</real><key>big</key><integer>9007199254740993</integer></dict></plist>
                    """.utf8)))
        r = h.run(["validate", "com.range"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "big: 9007199254740993 is not in …9007199254740992\nratio: nan is not in 0…100\n")
    }
}
