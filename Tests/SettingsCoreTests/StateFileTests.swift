import XCTest

@testable import SettingsStore

/// `StateFile` keeps every name below its root: the usual name is taken as it is (looked
/// at as bytes), and anything with an empty, `.` or `..` component is cleaned first.
final class StateFileTests: XCTestCase {
    func testANameNeverLeavesItsRoot() {
        let cases: [(String, String)] = [
            ("settings/history/com.app.plist.jsonl", "settings/history/com.app.plist.jsonl"),
            ("settings/apply/..json", "settings/apply/..json"),
            ("settings/../../etc/passwd", "settings/etc/passwd"),
            ("/settings//history/", "settings/history"),
            ("./a/./b", "a/b"),
            ("..", ""),
            ("a/...", "a/..."),
            (".hidden/x", ".hidden/x"),
        ]
        for (given, kept) in cases {
            XCTAssertEqual(StateFile(root: "/r", given).relative, kept, given)
        }
        XCTAssertEqual(StateFile(root: "/r", "..").path, "/r")
        XCTAssertEqual(StateFile(root: "/r", "a/b").name, "b")
    }
}
