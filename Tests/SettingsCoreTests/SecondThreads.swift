import Foundation
import XCTest
@testable import PlistCodecs
@testable import SettingsStore

/// What the store hands the XML reader for a big document's second half: a real second
/// thread. Counts the threads started, and for each compares the work the reader's own
/// thread did between starting it and first joining it with the work the second thread
/// did (CPU time of each thread, so waiting and a busy machine do not count): a reader
/// that joins before it reads its own half reads the halves one after the other, and
/// does next to nothing before its join.
final class SecondThreads {
    private(set) var started = 0
    /// Per thread, at its first join: the reader's CPU time since the start over the
    /// second thread's (about 1 when the halves were read at once, about 0 when not).
    private(set) var overlaps: [Double] = []

    func run(_ work: @escaping () -> Result<XMLReader.SecondHalf, PlistError>)
        -> () -> Result<XMLReader.SecondHalf, PlistError>
    {
        started += 1
        final class Spent: @unchecked Sendable { var seconds = 0.0 }
        let spent = Spent()
        let start = Self.threadCPUSeconds()
        let thread = Background {
            let before = Self.threadCPUSeconds()
            defer { spent.seconds = Self.threadCPUSeconds() - before }
            return work()
        }
        var joined = false
        return {
            guard !joined else { return thread.join() }
            joined = true
            let ours = Self.threadCPUSeconds() - start
            let result = thread.join()
            self.overlaps.append(ours / max(spent.seconds, 1e-9))
            return result
        }
    }

    /// Fails unless `count` threads were joined, each after the reader did about as much
    /// work as the thread (over a quarter of it): the halves were read at once.
    func assertEachRanBeside(count: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(overlaps.count, count, file: file, line: line)
        for overlap in overlaps {
            XCTAssertGreaterThan(
                overlap, 0.25, "this thread's work before joining, over the other's", file: file, line: line)
        }
    }

    private static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
