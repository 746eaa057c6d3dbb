import Foundation
import XCTest

/// Issue 30 §5: a fleet syncing at once converges. Machines (4, or SETTINGS_FLEET: CI runs
/// it again with 20, which alone takes most of a minute; 6 took 10 s, the suite's longest
/// test, as retried pushes grow with the square of the fleet) each
/// write a key of their own and one shared key, then all sync at the same time, three
/// times over; then each runs two quiet rounds. Every machine must end with identical
/// domains, every machine's own key at its last value, and each last shared value either
/// the one that stayed or in its machine's sync log: nothing is lost silently.
final class SyncFleetTests: SyncTestCase {
    func testAFleetWritingAtOnceConverges() throws {
        let count = Int(ProcessInfo.processInfo.environment["SETTINGS_FLEET"] ?? "") ?? 4
        let names = (0..<count).map { "m\($0)" }
        for name in names { world.run(name, ["sync", "init", world.remote]) }
        var failures: [String] = []
        for round in 0..<3 {
            // Every machine at once: its own process, writing then syncing.
            let processes = names.map { name in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = [
                    "-c",
                    #""$0" write com.fleet "$1" -int "$2" && "$0" write com.fleet shared "$1-$2" && "$0" sync"#,
                    Harness.settings, name, "\(round)",
                ]
                process.environment = world.environment(name)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return (name, process)
            }
            for (_, process) in processes { try process.run() }
            for (name, process) in processes {
                process.waitUntilExit()
                if process.terminationStatus != 0 {
                    failures.append("\(name) round \(round): \(process.terminationStatus)")
                }
            }
        }
        XCTAssertEqual(failures, [], "every round of the busy fleet ends well")
        for _ in 0..<2 { for name in names { world.run(name, ["sync"]) } }
        let finals = names.map { world.live($0, "com.fleet") ?? "(none)" }
        XCTAssertEqual(Set(finals).count, 1, "\(Set(finals))")
        let final = try JSONSerialization.jsonObject(with: Data(finals[0].utf8)) as? [String: Any] ?? [:]
        for name in names { XCTAssertEqual(final[name] as? Int, 2, name) }
        let shared = final["shared"] as? String ?? ""
        for name in names where shared != "\(name)-2" {
            let log = world.run(name, ["sync", "log"]).stdout
            XCTAssertTrue(
                log.contains(#"ours "\#(name)-2""#), "\(name)'s last value is neither final nor logged: \(log)")
        }
    }
}
