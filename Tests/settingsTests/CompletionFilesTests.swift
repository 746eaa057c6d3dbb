import Foundation
import XCTest
@testable import settings
@testable import SettingsCore

/// The completion scripts list verbs and flags by hand; they must name every one the
/// verb and type tables have. (Tests/shell/run.sh drives them in the real shells.)
final class CompletionFilesTests: XCTestCase {
    func testEveryVerbAndFlagIsCompleted() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../completions").standardized
        let words = Verb.all.map(\.name).filter { !$0.hasPrefix("-") } + Verb.all.flatMap(\.aliases).filter { !$0.hasPrefix("-") && $0 != "version" }
            + TypeTable.allFlags + ["-currentHost", "-host"]
        for file in ["settings.bash", "_settings", "settings.fish"] {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for word in words {
                XCTAssertTrue(text.contains(word), "\(file) does not complete \(word)")
            }
        }
    }
}
