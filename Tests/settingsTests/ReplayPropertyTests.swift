import Foundation
import XCTest
@testable import PlistCodecs
@testable import PlistModel

/// The replay property of issue 49: for random domains of every type (control
/// characters, a value over Linux's 128 KiB argument limit, keys that start with `/`,
/// ByHost domains), `diff --commands` run by `sh -e`, in dash and in bash, makes `diff`
/// exit 0. SplitMix, so a failure names the seed that shows it again.
final class ReplayPropertyTests: XCTestCase {
    static let keys = ["a", "b", "/usr/bin/python3", "/", "-dash", "ti\u{1b}tle", "x y", "it's", "é", "0", ""]

    func text(_ g: inout SplitMix) -> String {
        let pieces = [
            "a", "Z", " ", "'", "\"", "$HOME", "`x`", "\\", "\u{1b}[31m", "\u{07}", "\r", "\n", "\t", "é", "\u{85}",
            "%s", "EOF", "\u{7f}",
        ]
        return (0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }

    func scalar(_ g: inout SplitMix) -> PlistValue {
        switch Int.random(in: 0..<9, using: &g) {
        case 0: return .bool(Bool.random(using: &g))
        case 1: return .int(PlistInteger(Int64.random(in: Int64.min...Int64.max, using: &g)))
        case 2: return .int(PlistInteger(unsigned: UInt64.max - UInt64.random(in: 0...9, using: &g)))
        case 3: return .double([0.1, -0.0, 1.0, 1e300, .infinity, .nan, 3].randomElement(using: &g)!)
        case 4: return .float([1.5, 0.1, -2].randomElement(using: &g)!)
        case 5: return .string(text(&g))
        case 6: return .data((0..<Int.random(in: 0...8, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
        case 7: return .date(PlistDate(secondsSince2001: [0, 12.5, -86400, 7e8].randomElement(using: &g)!))
        default: return .string("plain")
        }
    }

    func value(_ g: inout SplitMix, depth: Int = 0) -> PlistValue {
        guard depth < 2, Int.random(in: 0..<3, using: &g) == 0 else { return scalar(&g) }
        if Bool.random(using: &g) {
            return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in value(&g, depth: depth + 1) })
        }
        return .dict(domain(&g, depth: depth + 1))
    }

    func domain(_ g: inout SplitMix, depth: Int = 0) -> PlistDictionary {
        var out = PlistDictionary()
        for key in Self.keys where Bool.random(using: &g) { out[key] = value(&g, depth: depth) }
        return out
    }

    /// `new` is `old` changed here and there: some keys kept, some changed, some gone.
    func changed(_ old: PlistDictionary, _ g: inout SplitMix) -> PlistDictionary {
        var new = domain(&g)
        for entry in old.sortedEntries where Bool.random(using: &g) {
            if case .dict(let inner) = entry.value, Bool.random(using: &g) {
                new[entry.key] = .dict(changed(inner, &g))
            } else {
                new[entry.key] = entry.value
            }
        }
        return new
    }

    func testDiffCommandsReplayedByShMakeDiffExitZero() throws {
        try Harness.require("dash", package: "dash")
        try Harness.require("bash", package: "bash")
        let seed = UInt64(ProcessInfo.processInfo.environment["SETTINGS_REPLAY_SEED"] ?? "") ?? 49
        var g = SplitMix(state: seed)
        let path = Harness.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let big = PlistValue.data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        for round in 0..<3 {
            let h = Harness()
            defer { h.cleanUp() }
            var old = domain(&g), new = changed(old, &g)
            if round == 0 { new["blob"] = big } else if round == 1 { old["blob"] = big }
            let host: [String] = [[], ["-currentHost"], ["-host", "mac1"]][round % 3]
            let folder = host.isEmpty ? h.config : h.config + "/ByHost"
            let file =
                folder + "/com.example.r" + (host.isEmpty ? "" : "." + (host.last == "mac1" ? "mac1" : "")) + ".plist"
            let target = h.config + "/target.plist"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            XCTAssertTrue(
                FileManager.default.createFile(atPath: target, contents: Data(BinaryWriter.encode(.dict(new)))))
            for shell in ["/usr/bin/dash", "/usr/bin/bash"] {
                let label = "seed \(seed) round \(round) \(shell) (SETTINGS_REPLAY_SEED=\(seed) shows it again)"
                XCTAssertTrue(
                    FileManager.default.createFile(atPath: file, contents: Data(BinaryWriter.encode(.dict(old)))))
                let commands = h.run(host + ["diff", "com.example.r", target, "--commands"])
                XCTAssertEqual(commands.status, old == new ? 0 : 1, "\(label): \(commands.stderr)")
                let replay = h.exec(shell, ["-e"], stdin: Data(commands.stdout.utf8), environment: ["PATH": path])
                XCTAssertEqual(
                    replay.status, 0, "\(label): \(replay.stderr.prefix(2000))\n\(commands.stdout.prefix(3000))")
                let after = h.run(host + ["diff", "com.example.r", target])
                XCTAssertEqual(
                    after.status, 0, "\(label): \(after.stdout.prefix(3000))\n\(commands.stdout.prefix(3000))")
                // And the other way (once a round, for time): the commands of `diff FILE
                // DOMAIN` make the file the domain.
                guard shell.hasSuffix("dash") else { continue }
                XCTAssertTrue(
                    FileManager.default.createFile(atPath: file, contents: Data(BinaryWriter.encode(.dict(old)))))
                let back = h.run(host + ["diff", target, "com.example.r", "--commands"])
                let undone = h.exec(shell, ["-e"], stdin: Data(back.stdout.utf8), environment: ["PATH": path])
                XCTAssertEqual(
                    undone.status, 0, "\(label), file side: \(undone.stderr.prefix(2000))\n\(back.stdout.prefix(3000))")
                XCTAssertEqual(h.run(host + ["diff", target, "com.example.r"]).status, 0, "\(label), file side")
                XCTAssertTrue(
                    FileManager.default.createFile(atPath: target, contents: Data(BinaryWriter.encode(.dict(new)))))
            }
            // `apply` of a snapshot is a restore: the domain as it was, `--check` agreeing
            // with `diff` (issue 49).
            let label = "seed \(seed) round \(round), apply (SETTINGS_REPLAY_SEED=\(seed) shows it again)"
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(BinaryWriter.encode(.dict(old)))))
            let snapshot = h.config + "-snapshot.json"
            XCTAssertEqual(h.run(host + ["snapshot", "com.example.r", "-o", snapshot]).status, 0, label)
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(BinaryWriter.encode(.dict(new)))))
            XCTAssertEqual(h.run(["apply", snapshot, "--check"]).status, old == new ? 0 : 1, label)
            let applied = h.run(["apply", snapshot])
            XCTAssertEqual(applied.status, 0, "\(label): \(applied.stderr)")
            let restored = h.run(["diff", snapshot])
            XCTAssertEqual(restored.status, 0, "\(label): \(restored.stdout.prefix(3000))")
            XCTAssertEqual(h.run(["apply", snapshot, "--check"]).status, 0, label)
            // A key the snapshot holds as it is now is left as it is (a 32-bit real stays 32 bits).
            let back = try PropertyList.read(Array(try Data(contentsOf: URL(fileURLWithPath: file)))).0
            guard case .dict(let restored) = back else { return XCTFail(label) }
            for entry in new.sortedEntries where old[entry.key] == entry.value {
                XCTAssertEqual(restored[entry.key], entry.value, "\(label): \(entry.key)")
            }
        }
    }
}
