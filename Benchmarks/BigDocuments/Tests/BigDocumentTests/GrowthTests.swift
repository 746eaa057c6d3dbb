import Foundation
import XCTest

/// Every verb is linear in the domain: a document four times the size takes about four
/// times as long, never sixteen. Measured as the ratio of the best of three wall times,
/// against stored thresholds, in the release build this job runs: 8 leaves room for a
/// sort's logarithm and a loaded machine (linear measured 2.4 to 5.6), and a quadratic cost
/// measures 11 to 16.
final class GrowthTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// `import` of an OpenStep document of quoted strings and comments. Each string and
    /// comment once counted the lines from the start of the text for the error it might
    /// report, so 40,000 keys took 11.6 times as long as 10,000 (13 s against 152 s, on
    /// a loaded machine); now 80,000 take about 0.7 s.
    func testImportingAnOpenStepDocumentIsLinearInItsKeys() throws {
        let small = try seconds(toImportOpenStepWith: 20_000)
        let big = try seconds(toImportOpenStepWith: 80_000)
        print("OpenStep import: 20,000 keys \(small) s, 80,000 keys \(big) s")
        Thresholds.check("GrowthTests", ["OpenStep import, time for 4x the keys over 1x": big / small])
    }

    /// The best of three wall times of importing an OpenStep document of `count` keys into
    /// a new domain, which must hold them after.
    private func seconds(toImportOpenStepWith count: Int, line: UInt = #line) throws -> Double {
        var text = "{\n"
        for i in 0..<count { text += "  /* entry \(i) */ \"key\(i)\" = \"value \\\"\(i)\\\"\";\n" }
        text += "}\n"
        let file = h.config + "-openstep-\(count).plist"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        var best = Double.infinity
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: h.path("com.openstep"))
            let start = Date()
            h.ok(["import", "com.openstep", file], line: line)
            best = min(best, Date().timeIntervalSince(start))
        }
        XCTAssertEqual(h.ok(["read", "com.openstep", "key\(count - 1)"], line: line), "value \"\(count - 1)\"\n")
        return best
    }
}
