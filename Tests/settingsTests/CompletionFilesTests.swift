import Foundation
import XCTest
@testable import settings
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The completion scripts take everything from the binary's verb table, through
/// `settings complete line` (issues 19 and 32). Tests/shell/run.sh drives the scripts in
/// the real shells.
final class CompletionFilesTests: XCTestCase {
    func testTheVerbTableIsWhatCompletionOffers() throws {
        let h = Harness()
        defer { h.cleanUp() }
        var expected: [String] = []
        for verb in Verb.all where !verb.name.hasPrefix("-") {
            expected.append("\(verb.name)\t\(verb.summary)")
            for alias in verb.aliases where !alias.hasPrefix("-") {
                expected.append("\(alias)\t\(verb.summary) (as \(verb.name))")
            }
        }
        XCTAssertEqual(h.ok("complete", "verbs"), expected.joined(separator: "\n") + "\n")
        for verb in Verb.all {
            for place in VerbOption.Place.allCases {
                let names = h.ok("complete", "options", verb.name, place.rawValue).split(separator: "\n").map {
                    String($0.split(separator: "\t")[0])
                }
                let declared = verb.options.filter { $0.places.contains(place) }.map(\.name)
                XCTAssertEqual(
                    names.filter { !$0.hasPrefix("-") || TypeTable.row(forFlag: $0) == nil }, declared,
                    "\(verb.name) \(place)")
                let flags = names.filter { TypeTable.row(forFlag: $0) != nil }
                switch place {
                case .value, .pointerValue: XCTAssertEqual(flags, TypeTable.allFlags, "\(verb.name) \(place)")
                case .element:
                    XCTAssertEqual(
                        Set(flags),
                        Set([
                            "-bool", "-boolean", "-int", "-integer", "-float", "-double", "-string", "-data",
                            "--data-base64", "-date",
                        ])
                    )
                case .start, .key, .after: XCTAssertEqual(flags, [], "\(verb.name) \(place)")
                }
            }
        }
        // Aliases give their verb's options; an unknown verb or place gives nothing.
        XCTAssertEqual(h.ok("complete", "options", "remove", "key"), h.ok("complete", "options", "delete", "key"))
        XCTAssertEqual(h.ok("complete", "options", "frobnicate", "key"), "")
        XCTAssertEqual(h.ok("complete", "options", "read", "nowhere"), "")
    }

    /// No script keeps a list of its own: each hands the words to `complete line`, and
    /// names no verb, sub-verb, option or type flag.
    func testTheScriptsListNoVerbOrOptionThemselves() throws {
        let names = Set(
            Verb.all.flatMap { verb in [verb.name] + verb.aliases + verb.options.map(\.name) + verb.subverbs.map(\.name)
            }
                + TypeTable.allFlags
                // Shell syntax too, and the names the scripts complete for (a link's name).
        ).subtracting([
            "settings", "help", "set", "log", "complete", "line", "-v", "--", "-o", "-n", "-c", "-l", "plutil",
        ])
        for (file, text) in CompletionScripts.files {
            XCTAssertTrue(text.contains("complete line"), file)
            // Comments aside, the words of the code.
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            let words = Set(
                code.joined(separator: "\n").split(whereSeparator: { " \t\n'\"|()=:;{}[]$".contains($0) }).map(
                    String.init))
            XCTAssertEqual(words.intersection(names), [], "\(file) names these itself")
        }
    }

    /// Help lists every declared option of a verb, with its summary.
    func testHelpListsEveryDeclaredOption() {
        let h = Harness()
        defer { h.cleanUp() }
        for verb in Verb.all where !verb.options.isEmpty {
            let help = h.ok("help", verb.name)
            for option in verb.options {
                XCTAssertTrue(
                    help.contains("  \(option.synopsis)") && help.contains(option.summary),
                    "\(verb.name) \(option.name)")
            }
            let all = h.ok("help")
            for option in verb.options {
                XCTAssertTrue(all.contains("    \(option.synopsis)"), "help: \(verb.name) \(option.name)")
            }
        }
    }

    /// watch parses its options itself: it takes each one it declares.
    func testWatchTakesEveryOptionItDeclares() throws {
        for option in Verb.named("watch")!.options {
            let words = [option.name] + (option.argument == nil ? [] : [option.name == "-p" ? "/a" : "5"])
            XCTAssertNoThrow(
                try WatchCommand.parse(words.enumerated().map { Token(text: $1, position: $0 + 3) }), option.name)
        }
        XCTAssertThrowsError(try WatchCommand.parse([Token(text: "--frobnicate", position: 3)]))
    }

    /// completions/ holds the scripts `settings completion` prints, byte for byte (the
    /// zsh file as an autoloaded function). After changing `CompletionScripts`, write them:
    ///
    ///     SETTINGS_RECORD_GOLDEN=1 swift test --disable-swift-testing --filter CompletionFilesTests
    func testTheCompletionFilesAreTheScripts() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../completions"
        ).standardized
        let recording = ProcessInfo.processInfo.environment["SETTINGS_RECORD_GOLDEN"] != nil
        for (name, text) in CompletionScripts.files {
            let url = folder.appendingPathComponent(name)
            if recording { try Data(text.utf8).write(to: url) }
            XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), text, "completions/\(name): record it")
        }
        let h = Harness()
        defer { h.cleanUp() }
        XCTAssertEqual(h.ok("completion", "bash"), CompletionScripts.bash)
        XCTAssertEqual(h.ok("completion", "fish"), CompletionScripts.fish)
        XCTAssertTrue(h.ok("completion", "zsh").hasPrefix(CompletionScripts.zshFunction))
        XCTAssertEqual(h.run(["completion", "tcsh"]).status, 2)
        // The shells completion offers after `completion` are the ones with a script.
        for shell in CompletionScripts.shells { XCTAssertNotNil(CompletionScripts.script(for: shell), shell) }
    }
}
