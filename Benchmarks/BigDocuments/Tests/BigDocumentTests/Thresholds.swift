import Foundation
import XCTest

/// The limits a benchmark test holds what it measures to, kept in the repository as
/// `Benchmarks/Thresholds/NAME.json` (one object of metric names and limits), in the
/// manner of swift-log's `Benchmarks/Thresholds`: a change that makes a metric worse fails
/// the job until the stored limit is changed with it, in the same commit, on purpose.
enum Thresholds {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Thresholds").standardized.path

    /// The stored limits of `name`; a missing or unreadable file fails the test.
    static func limits(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Double] {
        let path = folder + "/" + name + ".json"
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            XCTFail("no thresholds at \(path)", file: file, line: line)
            return [:]
        }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// Fails for each metric of `measured` over its stored limit in `name`, or with none
    /// stored; prints every one, measured against its limit, for the job's log.
    static func check(
        _ name: String, _ measured: [String: Double], file: StaticString = #filePath, line: UInt = #line
    ) {
        let limits = limits(name, file: file, line: line)
        for (metric, value) in measured.sorted(by: { $0.key < $1.key }) {
            guard let limit = limits[metric] else {
                XCTFail("\(name): no threshold stored for \(metric) (measured \(value))", file: file, line: line)
                continue
            }
            print("threshold \(name) \(metric): \(value) (limit \(limit))")
            XCTAssertLessThanOrEqual(value, limit, "\(name) \(metric) over its threshold", file: file, line: line)
        }
    }
}
