import Foundation
import XCTest

@testable import SettingsStore

/// The one place a program is started: what sync's git runs on.
final class SubprocessTests: XCTestCase {
    /// A megabyte in and out at once: input is written while output is read, so neither
    /// side fills its pipe and waits on the other.
    func testInputAndOutputFlowTogether() throws {
        let input = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let result = try Subprocess.run(["cat"], input: input, timeLimit: 10)
        XCTAssertEqual(result.status, 0)
        XCTAssertNil(result.stopped)
        XCTAssertEqual(result.output, input)
    }

    /// A program past its limit is ended, whether it still holds its output open or has
    /// closed it and merely goes on running.
    func testATimeLimitEndsAProgramWithOrWithoutItsOutput() throws {
        for script in ["sleep 30", "exec >/dev/null 2>&1; sleep 30"] {
            let start = Date()
            let result = try Subprocess.run(["sh", "-c", script], timeLimit: 0.5)
            XCTAssertEqual(result.stopped, .timedOut, script)
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, script)
        }
    }

    func testTheCancelSignalEndsAProgram() throws {
        let cancel = try CancelSignal()
        let start = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancel.cancel() }
        let result = try Subprocess.run(["sh", "-c", "exec >/dev/null 2>&1; sleep 30"], cancel: cancel)
        XCTAssertEqual(result.stopped, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    /// No descriptor of ours reaches the program: not a lock's (a git outliving a killed
    /// round would hold it), not a pipe a caller reads to its end. Read from the child's own
    /// `/proc/$$/fd`, the one place that shows what it inherited: no trace of this process
    /// sees a descriptor cross `exec`.
    func testTheProgramGetsOnlyItsThreeStandardDescriptors() throws {
        let fd = open("/dev/null", O_RDONLY)  // not close-on-exec
        defer { close(fd) }
        let result = try Subprocess.run(["sh", "-c", "ls /proc/$$/fd"], timeLimit: 10)
        let descriptors = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(descriptors.sorted(), ["0", "1", "2"], "\(fd) reached it")
    }
}
