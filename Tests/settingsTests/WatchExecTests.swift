import Foundation
import XCTest

/// `watch --exec`: the user's command after each settled batch, one at a time, never for a
/// change it made itself, through the real binary.
final class WatchExecTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testTheCommandRunsPerBatchOneAtATimeAndNotForItsOwnChanges() throws {
        h.ok("write", "com.example.app", "volume", "-int", "1")
        let log = h.config + "-exec.log"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: log) }
        // Each run logs its start, its environment and input, writes a key of its own
        // (which must not run it again), and is slow, so writes land while it runs.
        let command = """
            { echo "start $SETTINGS_DOMAIN"; printf '%s\\n' "$SETTINGS_CHANGED"; cat; } >> \(log)
            \(Harness.settings) write com.example.app normalized -int $$
            sleep 1
            echo end >> \(log)
            """
        let (process, out, err) = try h.start([
            "watch", "com.example.app", "--exec", command, "--timeout", "5", "--debounce", "300",
        ])
        WatchTests.waitUntilWaiting(process)
        h.ok("write", "com.example.app", "volume", "-int", "2")
        h.ok("write", "com.example.app", "theme", "-string", "dark")
        // While the first run sleeps: one more batch, run after it ends.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("volume\t2") {
            Thread.sleep(forTimeInterval: 0.01)
        }
        h.ok("write", "com.example.app", "volume", "-int", "3")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            start com.example.app
            /theme
            /volume
            theme\tdark
            volume\t2
            end
            start com.example.app
            /volume
            volume\t3
            end

            """, "two runs, one after the other, none for its own key")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(stderr, "")
    }

    func testAFailingCommandIsOneLineAndTheWatchGoesOn() throws {
        let (process, _, err) = try h.start([
            "watch", "com.example.app", "--exec", "exit 3", "--count", "2", "--timeout", "5",
        ])
        WatchTests.waitUntilWaiting(process)
        h.ok("write", "com.example.app", "a", "-int", "1")
        Thread.sleep(forTimeInterval: 0.3)
        h.ok("write", "com.example.app", "a", "-int", "2")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(repeating: "settings: warning: --exec command exited with status 3\n", count: 2))
        XCTAssertEqual(h.run(["watch", "com.example.app", "--exec"]).status, 2)
    }
}
