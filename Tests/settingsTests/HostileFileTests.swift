import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The corpus of Tests/hostile/make_corpus.py, each file installed as a domain: `read`
/// and `write` finish within a second, exit 3 with one line naming the file, and leave
/// it byte for byte as it was.
final class HostileFileTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    func testEveryHostileFileFailsCleanly() throws {
        let corpus = h.config + "/../hostile-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../hostile/make_corpus.py"
        ).path
        XCTAssertEqual(h.exec("/usr/bin/env", ["python3", script, corpus]).status, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 39)
        let path = h.path("com.hostile")
        for name in names {
            let content = try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + name))
            try? FileManager.default.removeItem(atPath: path)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: content))
            for arguments in [
                ["read", "com.hostile"], ["read", "com.hostile", "a"], ["write", "com.hostile", "k", "-int", "1"],
            ] {
                let start = Date()
                let r = h.run(arguments)
                let elapsed = Date().timeIntervalSince(start)
                XCTAssertLessThan(elapsed, 1.0, "\(name) \(arguments[0]) took \(elapsed) s")
                if name == "empty" {
                    // SPEC §5: a 0-byte file is an empty domain.
                    XCTAssertEqual(r.status, arguments[0] == "write" ? 0 : 1, "\(name) \(arguments): \(r.stderr)")
                    continue
                }
                XCTAssertEqual(r.status, 3, "\(name) \(arguments): \(r.stderr)")
                XCTAssertTrue(
                    r.stderr.hasPrefix("settings: cannot ") && r.stderr.contains(path), "\(name): \(r.stderr)")
                XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "\(name): \(r.stderr)")
                XCTAssertEqual(r.stdout, "")
                XCTAssertEqual(
                    FileManager.default.contents(atPath: path), content, "\(name): \(arguments[0]) changed the file")
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: h.config).filter {
            $0 != "com.hostile.plist" && $0 != "home"
        }
        XCTAssertEqual(leftovers, [], "no temporary files")
    }
}
