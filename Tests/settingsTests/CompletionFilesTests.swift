import Foundation
import XCTest
@testable import settings
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The completion scripts take the verbs, each verb's options and the type flags from the
/// binary's tables (`settings complete verbs`, `complete options VERB PLACE`), declared once
/// in `Verb.all` (issue 19). Tests/shell/run.sh drives the scripts in the real shells.
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
                        Set(["-bool", "-boolean", "-int", "-integer", "-float", "-double", "-string", "-data", "-date"])
                    )
                case .key, .after: XCTAssertEqual(flags, [], "\(verb.name) \(place)")
                }
            }
        }
        // Aliases give their verb's options; an unknown verb or place gives nothing.
        XCTAssertEqual(h.ok("complete", "options", "remove", "key"), h.ok("complete", "options", "delete", "key"))
        XCTAssertEqual(h.ok("complete", "options", "frobnicate", "key"), "")
        XCTAssertEqual(h.ok("complete", "options", "read", "nowhere"), "")
    }

    /// No script keeps a list of its own: each asks the binary, and names no switch or type
    /// flag (-bool stays, for the true/false that follows it).
    func testTheScriptsListNoVerbOrOptionThemselves() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../completions"
        ).standardized
        let switches = Set(Verb.all.flatMap(\.options).filter { $0.argument == nil }.map(\.name))
        let flags = TypeTable.allFlags.filter { $0 != "-bool" && $0 != "-boolean" }
        for file in ["settings.bash", "_settings", "settings.fish"] {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(text.contains("complete verbs") && text.contains("complete options"), file)
            let words = Set(text.split(whereSeparator: { " \t\n'\"|()=:".contains($0) }).map(String.init))
            for word in switches.union(flags) { XCTAssertFalse(words.contains(word), "\(file) lists \(word) itself") }
            for verb in ["read-type", "list-keys", "describe", "validate"] {
                XCTAssertFalse(text.contains("'\(verb):"), "\(file) lists the verb \(verb)")
            }
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

    /// `settings completion SHELL` prints the file, byte for byte (issue 19): the
    /// embedded copies are regenerated by scripts/embed_completions.py.
    func testTheCompletionVerbPrintsEachFile() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../completions"
        ).standardized
        let h = Harness()
        defer { h.cleanUp() }
        for (shell, file) in [("bash", "settings.bash"), ("zsh", "_settings"), ("fish", "settings.fish")] {
            var text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            if shell == "zsh" {
                // Loaded with eval, the autoload file registers itself instead of running.
                XCTAssertTrue(text.hasSuffix("\n_settings \"$@\"\n"))
                text =
                    String(text.dropLast("_settings \"$@\"\n".count))
                    + "# Loaded with eval: register instead of running.\ncompdef _settings settings defaults\n"
            }
            XCTAssertEqual(h.ok("completion", shell), text, "\(shell): run scripts/embed_completions.py")
        }
        XCTAssertEqual(h.run(["completion", "tcsh"]).status, 2)
    }
}
