import XCTest

@testable import PlistCodecs
@testable import PlistModel

/// The value-level pieces of git support, apart from git: the doc comments' examples and
/// the merge's rules one at a time (GitTests run them through the binary and real git).
final class MergeAndCanonicalTextTests: XCTestCase {
    func testTheDocExamples() {
        XCTAssertEqual(
            ThreeWayMerge(base: ["a": 1], ours: ["a": 1, "b": 2], theirs: ["a": 3]).merged, ["a": 3, "b": 2])
        XCTAssertEqual(
            String(decoding: CanonicalText.lines(.dict(["b": 1, "a": .dict(["x": true])])), as: UTF8.self),
            "/a/x = true\n/b = 1\n")
    }

    /// Issue 48 §10: C1 controls (U+0080 to U+009F: NEL, CSI) and DEL are escaped as C0's
    /// are, in a pointer, a value, a message's JSON and a whole message; valid JSON, read
    /// back as the same text.
    func testC1ControlsAreEscapedAsC0Are() throws {
        let key = "k\u{85}\u{9B}2J\u{7F}\\ \u{A0}é"
        XCTAssertEqual(CanonicalText.escapedLine(key), #"k\u0085\u009b2J\u007f\\ \#u{A0}é"#)
        XCTAssertEqual(CanonicalText.controlsEscaped(key), #"k\u0085\u009b2J\u007f\ \#u{A0}é"#)
        XCTAssertEqual(CanonicalText.controlsEscaped("a\nb\t\u{1B}"), #"a\u000ab\u0009\u001b"#)
        let value = PlistValue.array([.string("v\u{9B}31m\u{7F}\u{A0}"), .dict(["n\u{85}": 1])])
        let json = CanonicalText.json(value)
        XCTAssertEqual(json, #"["v\u009b31m\u007f\#u{A0}",{"n\u0085":1}]"#)
        XCTAssertEqual(try JSONReader.read(Array(json.utf8)), value)
        let line = String(decoding: CanonicalText.line(PlistKeyPath([key]), value), as: UTF8.self)
        XCTAssertEqual(line, #"/k\u0085\u009b2J\u007f\\ \#u{A0}é = "# + json + "\n")
        XCTAssertFalse(line.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        // The data output keeps them as they are (lossless either way).
        XCTAssertEqual(String(decoding: JSONWriter.encode(.string("\u{85}")), as: UTF8.self), "\"\u{85}\"")
    }

    func testEachRule() {
        let rows: [(PlistDictionary, PlistDictionary, PlistDictionary, PlistDictionary, [String], UInt)] = [
            (["k": 1], ["k": 1], ["k": 2], ["k": 2], [], #line),  // theirs changed
            (["k": 1], ["k": 2], ["k": 1], ["k": 2], [], #line),  // ours changed
            (["k": 1], ["k": 2], ["k": 2], ["k": 2], [], #line),  // both, alike
            (["k": 1], [:], ["k": 1], [:], [], #line),  // ours removed
            (["k": 1], [:], ["k": 3], ["k": 3], [], #line),  // removed against changed: the change
            (["k": 1], ["k": 3], [:], ["k": 3], [], #line),
            (["k": 1], ["k": 2], ["k": 3], ["k": 2], ["/k"], #line),  // conflict: ours kept
            ([:], ["k": 2], ["k": 3], ["k": 2], ["/k"], #line),  // added twice, differently
            (
                ["d": .dict(["x": 1])], ["d": .dict(["x": 2])], ["d": .dict(["x": 1, "y": 1])],
                ["d": .dict(["x": 2, "y": 1])], [], #line
            ),
            (["d": 1], ["d": .dict(["x": 1])], ["d": .dict(["y": 1])], ["d": .dict(["x": 1, "y": 1])], [], #line),
            (["l": [1]], ["l": [1, 2]], ["l": [0, 1]], ["l": [1, 2]], ["/l"], #line),  // an array is one value
        ]
        for (base, ours, theirs, merged, conflicts, line) in rows {
            let merge = ThreeWayMerge(base: base, ours: ours, theirs: theirs)
            XCTAssertEqual(merge.merged, merged, line: line)
            XCTAssertEqual(merge.conflicts.map(\.path.pointer), conflicts, line: line)
        }
    }
}
