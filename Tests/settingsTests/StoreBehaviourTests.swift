import Foundation
import XCTest
@testable import SettingsCore

/// Store guarantees seen from outside: locking across processes, the retry of a file
/// caught mid-write.
final class StoreBehaviourTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// Foundation truncates and rewrites in place; a reader that catches the file half
    /// written waits briefly for the rest instead of failing.
    func testHalfWrittenFileIsRetried() throws {
        let full = XMLWriter.encode(.dict(["k": .string("v")]))
        let path = h.path("com.t")
        FileManager.default.createFile(atPath: path, contents: Data(full.prefix(full.count / 2)))
        let finisher = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            FileManager.default.createFile(atPath: path, contents: Data(full))
        }
        finisher.start()
        let r = h.run(["read", "com.t", "k"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "v\n")
    }

    /// Writers in separate processes are serialized: none loses another's key.
    func testConcurrentWritersKeepEveryKey() {
        let harness = h!
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for i in 0..<25 { harness.run(["write", "com.shared", "w\(writer)-\(i)", "-int", "\(i)"]) }
        }
        let r = h.python(["canon", h.path("com.shared")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "=i:").count - 1, 100)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: h.config)) ?? []
        XCTAssertEqual(names, ["com.shared.plist"], "no temporary file is left behind")
    }
}
