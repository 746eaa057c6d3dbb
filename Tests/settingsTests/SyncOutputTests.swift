import Foundation
import XCTest

import SettingsStore
import SettingsSync

/// Issue 48 §10 and §16: what sync prints and keeps. Names and keys come from other
/// machines: a C1 control in one (CSI, U+009B, starts a terminal's command; NEL, U+0085,
/// breaks a line) is escaped as a C0 one is, on standard output, in the log, in the status,
/// and in lines an older version logged raw. The log keeps its newest lines within a bound.
final class SyncOutputTests: SyncTestCase {
    /// The control characters in `text` but its line breaks.
    private func controls(_ text: String) -> [String] {
        text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    func testC1ControlsFromTheRemoteArePrintedEscaped() throws {
        let domain = "com.c\u{9B}2J", key = "k\u{85}x"
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        on("a", "write", domain, key, "from a")
        on("b", "write", domain, key, "b\u{9B}31m\u{7F}")
        on("a", "sync")
        let round = on("b", "sync")
        XCTAssertEqual(round.stdout, "sync: exported 0, imported 1 (com.c\\u009b2J)\n")
        XCTAssertTrue(
            round.stderr.contains(#"conflict at /k\u0085x in com.c\u009b2J.plist: ours "b\u009b31m\u007f""#),
            round.stderr)
        let log = on("b", "sync", "log").stdout
        XCTAssertTrue(log.contains(#"/k\u0085x in com.c\u009b2J.plist: ours "b\u009b31m\u007f""#), log)
        let status = on("b", "sync", "status").stdout
        XCTAssertTrue(status.contains("carried: com.c\\u009b2J"), status)
        on("c", "sync", "init", world.remote)
        let joined = on("c", "sync")
        XCTAssertEqual(joined.stdout, "sync: exported 0, imported 1 (com.c\\u009b2J)\n")
        for text in [round.stdout, round.stderr, log, status, joined.stdout, joined.stderr] {
            XCTAssertEqual(controls(text), [], text)
        }
        // The files keep them escaped too.
        let kept = try String(contentsOfFile: world.syncFolder("b") + "/log", encoding: .utf8)
        XCTAssertEqual(controls(kept), [], kept)
        XCTAssertEqual(world.live("c", domain), #"{"k\u0085x": "from a"}"#)
    }

    /// A log and a `last` an older version wrote, raw: printed escaped.
    func testLinesAnOlderVersionKeptRawArePrintedEscaped() throws {
        on("a", "sync", "init", world.remote)
        let folder = world.syncFolder("a")
        let raw = "2026-01-01 10:00:00 conflict at /k\u{85} in com.x\u{9B}2J.plist: ours \"\u{1B}[31m\u{9B}0m\"\n"
        try raw.write(toFile: folder + "/log", atomically: true, encoding: .utf8)
        try "1700000000\tfailed\tcannot push com.x\u{9B}2J\u{85}\u{7}\n".write(
            toFile: folder + "/last", atomically: true, encoding: .utf8)
        let log = on("a", "sync", "log").stdout
        XCTAssertEqual(
            log, #"2026-01-01 10:00:00 conflict at /k\u0085 in com.x\u009b2J.plist: ours "\u001b[31m\u009b0m""# + "\n")
        let status = on("a", "sync", "status").stdout
        XCTAssertTrue(status.contains(#"failed: cannot push com.x\u009b2J\u0085\u0007"#), status)
        XCTAssertEqual(controls(status), [], status)
    }

    /// The log keeps its newest lines within `logLimit`: a round that logs a conflict into
    /// a log grown past it (by an older version) drops the oldest lines, whole.
    func testTheLogKeepsItsNewestLinesWithinItsBound() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        let path = world.syncFolder("b") + "/log"
        var old = ""
        var count = 0
        while old.utf8.count < 3 * SyncSetup.logLimit {
            old += "2020-01-01 00:00:00 conflict at /old\(count) in com.app.plist: ours 1, theirs 2; kept theirs\n"
            count += 1
        }
        try old.write(toFile: path, atomically: true, encoding: .utf8)
        on("a", "write", "com.app", "z", "from a")
        on("b", "write", "com.app", "z", "from b")
        on("a", "sync")
        on("b", "sync")
        let log = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertLessThanOrEqual(log.utf8.count, SyncSetup.logLimit)
        XCTAssertGreaterThan(log.utf8.count, SyncSetup.logLimit / 2)
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.last, "")
        XCTAssertTrue(
            lines.dropLast().last?.hasSuffix(#"ours "from b", theirs "from a"; kept theirs, already pushed"#) ?? false)
        // Whole lines only, the newest: the first kept is an old line from its start.
        XCTAssertTrue(lines.first?.hasPrefix("2020-01-01 00:00:00 conflict at /old") ?? false, String(lines[0]))
        XCTAssertTrue(log.contains("/old\(count - 1) in"))
        XCTAssertFalse(log.contains("/old0 in"))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        let status = on("b", "sync", "status").stdout
        XCTAssertTrue(status.contains(": \(lines.count - 1)\n"), status)
        XCTAssertEqual(on("b", "sync", "log").stdout, log)
    }

    /// A log an older version let grow (here 40 MiB) is read from its end only: `sync log`
    /// and `sync status` show its newest whole lines within the bound, and a round that
    /// cuts it reads no more than that. (Found from outside: all three read it whole.)
    func testAHugeOldLogIsNeverReadWhole() throws {
        on("b", "sync", "init", world.remote)
        let path = world.syncFolder("b") + "/log"
        let line = "2020-01-01 00:00:00 conflict at /old in com.app.plist: ours 1, theirs 2; kept theirs\n"
        let chunk = String(repeating: line, count: (1 << 20) / line.utf8.count)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        for _ in 0..<40 { handle.write(Data(chunk.utf8)) }
        handle.write(Data("2020-01-02 00:00:00 the newest line\n".utf8))
        try handle.close()
        let shown = on("b", "sync", "log").stdout
        XCTAssertLessThanOrEqual(shown.utf8.count, SyncSetup.logLimit)
        XCTAssertGreaterThan(shown.utf8.count, SyncSetup.logLimit / 2)
        XCTAssertTrue(shown.hasPrefix("2020-01-01 00:00:00 conflict at /old"), String(shown.prefix(80)))
        XCTAssertTrue(shown.hasSuffix("2020-01-02 00:00:00 the newest line\n"))
        let status = on("b", "sync", "status").stdout
        XCTAssertTrue(status.contains(": \(shown.split(separator: "\n").count)\n"), status)
    }

    /// The man page says how many pushes a round tries, as the round has it.
    func testTheManPageSaysHowManyPushesARoundTries() throws {
        let page = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../man/settings.1").standardized, encoding: .utf8)
        let environment = world.environment("a")
        let round = try SyncRound(
            store: DomainStore(environment: Environment(environment)), environment: Environment(environment))
        XCTAssertTrue(
            page.contains(
                "merged and pushed again within the round, with backoff, up to \(round.maximumAttempts) times"),
            "man/settings.1 names another count than SyncRound.maximumAttempts (\(round.maximumAttempts))")
    }
}
