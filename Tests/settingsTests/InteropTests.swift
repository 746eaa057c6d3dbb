import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// What `settings` writes, others read, and the other way round: Python's plistlib
/// and Foundation's UserDefaults in a separate process.
final class InteropTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testPlistlibReadsWhatWeWriteWithTheRightTypes() {
        h.ok("write", "com.t", "b", "-bool", "true")
        h.ok("write", "com.t", "i", "-int", "-9223372036854775808")
        h.ok("write", "com.t", "f", "-float", "0.5")
        h.ok("write", "com.t", "d", "-double", "-0.0")
        h.ok("write", "com.t", "s", "-string", "a&b<c> 😀")
        h.ok("write", "com.t", "x", "-data", "00ff")
        h.ok("write", "com.t", "t", "-date", "2001-01-01 00:00:10 +0000")
        h.ok("write", "com.t", "a", "-array", "one", "-int", "2")
        h.ok("write", "com.t", "m", "-dict", "k", "-bool", "no")
        let expected = PlistValue.dict([
            "b": .bool(true), "i": .int(Int64.min), "f": .double(0.5), "d": .double(-0.0), "s": .string("a&b<c> 😀"),
            "x": .data([0, 255]), "t": .date(PlistDate(secondsSince2001: 10)), "a": .array([.string("one"), .int(2)]),
            "m": .dict(["k": .bool(false)]),
        ])
        XCTAssertEqual(h.plistlibCanon(h.path("com.t")), canonical(expected))
    }

    func testWeReadWhatPlistlibWritesExactly() throws {
        let path = h.path("com.py")
        XCTAssertEqual(h.python(["write", path, "xml"]).status, 0)
        let ours = try PropertyList.read(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).0
        XCTAssertTrue(canonical(ours) == h.plistlibCanon(path), "our reading differs from plistlib's")
        XCTAssertEqual(h.ok("read", "com.py", "uint64_max"), "18446744073709551615\n")
        XCTAssertEqual(h.ok("read", "com.py", "emoji"), "😀 smile\n")
        // A change keeps every other value exact.
        h.ok("write", "com.py", "added", "-int", "1")
        guard case .dict(var expected) = ours else { return XCTFail("root is not a dictionary") }
        expected["added"] = .int(1)
        XCTAssertTrue(h.plistlibCanon(path) == canonical(.dict(expected)), "a write changed other values")
    }

    func testUserDefaultsReadsWhatWeWrite() {
        h.ok("write", "com.example.interop", "b", "-bool", "true")
        h.ok("write", "com.example.interop", "i", "-int", "42")
        h.ok("write", "com.example.interop", "f", "-float", "1.5")
        h.ok("write", "com.example.interop", "s", "hello")
        h.ok("write", "com.example.interop", "a", "-array", "x", "y")
        h.ok("write", "com.example.interop", "t", "-date", "2001-01-01T00:01:00Z")
        let expected = [
            "b": "bool true", "i": "int 42", "f": "double 1.5", "s": "string hello",
            "a": "array [string x, string y]", "t": "date 60.0",
        ]
        for (key, description) in expected {
            let r = h.exec(Harness.probe, ["get", "com.example.interop", key])
            XCTAssertEqual(r.stdout, description + "\n", key)
        }
    }

    func testWeReadWhatUserDefaultsWrites() {
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "n", "int", "7"]).status, 0)
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "on", "bool", "true"]).status, 0)
        XCTAssertEqual(h.exec(Harness.probe, ["set", "com.example.app", "d", "dict", "v"]).status, 0)
        XCTAssertEqual(
            h.ok("read", "com.example.app"),
            "{\n    d =     {\n        inner = v;\n        n = 1;\n    };\n    n = 7;\n    on = 1;\n}\n")
        XCTAssertEqual(h.ok("read-type", "com.example.app", "on"), "Type is boolean\n")
    }

    func testGlobalAndCurrentHostValuesReachEveryApp() {
        h.ok("write", "-g", "AppleLocale", "en_GB")
        h.ok("-currentHost", "write", "com.example.any", "screen", "-int", "2")
        XCTAssertEqual(h.exec(Harness.probe, ["get", "com.example.any", "AppleLocale"]).stdout, "string en_GB\n")
        XCTAssertEqual(h.exec(Harness.probe, ["get", "com.other.suite", "AppleLocale"]).stdout, "string en_GB\n")
        XCTAssertEqual(h.exec(Harness.probe, ["get", "com.example.any", "screen"]).stdout, "int 2\n")
    }
}
