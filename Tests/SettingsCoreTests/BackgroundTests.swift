import Foundation
import XCTest

@testable import SettingsStore

/// A second thread (a big domain's second half, git's fetch during sync) is worth starting
/// only if it runs beside its parent. Linux started a busy parent's new thread on the
/// parent's own CPU and ran it there 2 to 3 ms later, or moved it at its next balancing:
/// about the time half of a 100,000-key domain takes, so the halves ran one after the
/// other. The thread is now started on the other CPUs the process may use.
final class BackgroundTests: XCTestCase {
    func testTheWorkStartsOnAnotherCPU() {
        let mine = Self.allowedCPUs()
        XCTAssertFalse(mine.isEmpty)
        for _ in 0..<5 {
            let (allowed, there) = Background { (Self.allowedCPUs(), Self.currentCPU()) }.join()
            XCTAssertTrue(allowed.contains(there), "runs where it may: \(there) in \(allowed)")
            if mine.count >= 2 {
                // All but the CPU its parent was on (which may have moved on since).
                XCTAssertEqual(allowed.count, mine.count - 1, "\(allowed) of \(mine)")
                XCTAssertTrue(allowed.isSubset(of: mine), "\(allowed) of \(mine)")
            } else {
                XCTAssertEqual(allowed, mine, "one CPU: it runs where there is room")
            }
        }
    }

    func testTheWorkIsDoneAndHandedOver() {
        let values = (0..<8).map { i in Background { (0..<1000).reduce(i, +) } }
        XCTAssertEqual(values.map { $0.join() }, (0..<8).map { 499_500 + $0 })
    }

    /// The calling thread's CPUs, from `Cpus_allowed_list` ("0-3,6") of its status.
    private static func allowedCPUs() -> Set<Int> {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return []
        }
        var cpus = Set<Int>()
        for part in line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
            .split(separator: ",")
        {
            let bounds = part.split(separator: "-").compactMap { Int($0) }
            if let low = bounds.first { cpus.formUnion(low...(bounds.last ?? low)) }
        }
        return cpus
    }

    /// The CPU the calling thread runs on: field 39 of its stat, counted after the
    /// command's closing parenthesis (a name may hold spaces).
    private static func currentCPU() -> Int {
        let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 36 ? Int(fields[36]) ?? -1 : -1
    }
}
