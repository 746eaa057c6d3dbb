import Foundation
import XCTest
@testable import settings
@testable import PlistModel
@testable import SettingsStore

/// Issue 32: one verb table, and every listing of the verbs read off it or held to it. A
/// verb (or alias, sub-verb or option) added to `Verb.all` without its help, completion,
/// man page heading or README row fails here, naming what it lacks.
final class VerbTableTests: XCTestCase {
    private var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// The names a person types: each verb and its aliases that are words.
    private var verbWords: [(String, Verb)] {
        Verb.all.flatMap { verb in ([verb.name] + verb.aliases).filter { !$0.hasPrefix("-") }.map { ($0, verb) } }
    }

    func testTheTableIsWellFormed() {
        var seen = Set<String>()
        for verb in Verb.all {
            for name in [verb.name] + verb.aliases { XCTAssertTrue(seen.insert(name).inserted, "\(name) twice") }
            XCTAssertFalse(verb.summary.isEmpty, verb.name)
            XCTAssertFalse(verb.usage.isEmpty, verb.name)
            XCTAssertFalse(verb.examples.isEmpty, "\(verb.name) has no example")
            for (syntax, text) in verb.usage {
                XCTAssertTrue(syntax.hasPrefix(verb.name), "\(verb.name): \(syntax)")
                XCTAssertFalse(text.isEmpty, syntax)
            }
            for sub in verb.subverbs {
                XCTAssertTrue(
                    verb.usage.contains { $0.0.hasPrefix("\(verb.name) \(sub.name)") },
                    "\(verb.name) \(sub.name) has no usage line")
            }
            var options = Set<String>()
            for option in verb.options {
                XCTAssertTrue(options.insert(option.name).inserted, "\(verb.name) \(option.name) twice")
                XCTAssertFalse(option.places.isEmpty, "\(verb.name) \(option.name) stands nowhere")
            }
        }
    }

    /// The bare command names every verb and alias once, in a group.
    func testTheBareUsageNamesEveryVerb() {
        let grouped = HelpCommand.groups.flatMap(\.1)
        XCTAssertEqual(grouped.sorted(), Verb.all.map(\.name).sorted(), "each verb in one group of the bare usage")
        let bare = h.run([]).stderr
        for (word, verb) in verbWords {
            XCTAssertTrue(
                bare.range(of: "[ ,(]\(word)[ ,)\n]", options: .regularExpression) != nil,
                "bare usage lacks \(word) (\(verb.name))")
        }
    }

    /// `help VERB` shows every usage line, sub-verb, option, example and exit status of
    /// the verb; a verb that takes a value lists every type flag; `help` shows every
    /// usage line and option.
    func testHelpShowsEveryRowOfTheTable() {
        let all = h.ok("help")
        for verb in Verb.all {
            let help = h.ok("help", verb.name)
            XCTAssertEqual(h.ok(verb.name, "--help"), help, verb.name)
            for (syntax, text) in verb.usage {
                XCTAssertTrue(
                    help.contains("settings \(syntax)") && help.contains(text), "help \(verb.name): \(syntax)")
                XCTAssertTrue(all.contains(syntax), "help: \(syntax)")
            }
            for sub in verb.subverbs {
                XCTAssertTrue(
                    help.contains("  \(sub.name)") && help.contains(sub.summary), "help \(verb.name): \(sub.name)")
            }
            for option in verb.options {
                XCTAssertTrue(help.contains("  \(option.synopsis)") && help.contains(option.summary), option.name)
            }
            for example in verb.examples {
                // Words that set the environment come before the program, as a person types them.
                let words = example.split(separator: " ", omittingEmptySubsequences: false)
                let environment = words.prefix { $0.contains("=") && !$0.hasPrefix("-") }
                let line = (environment + ["settings"] + words.dropFirst(environment.count)).joined(separator: " ")
                XCTAssertTrue(help.contains("\n  \(line)\n"), example)
            }
            for (status, meaning) in verb.exits + [(0, "done"), (2, "bad usage or value")] {
                XCTAssertNotNil(
                    help.range(of: "\n  \(status) +\(meaning)\n", options: .regularExpression),
                    "help \(verb.name): exit \(status)")
            }
            if verb.arguments.contains(.value) {
                for flag in TypeTable.allFlags {
                    XCTAssertTrue(help.contains("  \(flag) "), "help \(verb.name): \(flag)")
                }
            }
        }
    }

    /// Completion offers every verb and alias, every sub-verb, and every option at each
    /// place it may stand, from the same table (`complete line`).
    func testCompletionOffersEveryVerbSubverbAndOption() {
        h.ok("write", "com.t", "k", "1")
        func offered(_ words: [String]) -> [String] {
            h.ok(["complete", "line"] + words).split(separator: "\n").dropFirst().map {
                String($0.split(separator: "\t", omittingEmptySubsequences: false)[0])
            }
        }
        let verbs = offered([""])
        for (word, _) in verbWords { XCTAssertTrue(verbs.contains(word), "completion lacks the verb \(word)") }
        for verb in Verb.all {
            if !verb.subverbs.isEmpty {
                XCTAssertEqual(
                    offered([verb.name, ""]).filter { !$0.hasPrefix("-") }, verb.subverbs.map(\.name), verb.name)
            }
            for option in verb.options {
                for place in option.places {
                    // The words that bring the command line to the place.
                    let start = [verb.name]
                    let words: [String]
                    switch place {
                    case .start: words = start
                    case .key: words = start + ["com.t"]
                    case .value: words = start + ["com.t", "k"]
                    case .pointerValue: words = start + ["com.t", "-p", "/k"]
                    case .after:
                        if verb.repeatsLast { continue }  // arguments never end
                        words = start + verb.arguments.map { $0 == .domain ? "com.t" : "x" }
                    case .element: continue
                    }
                    XCTAssertTrue(
                        offered(words + [String(option.name.prefix(1))]).contains(option.name),
                        "completion lacks \(verb.name) \(option.name) at \(place)")
                }
            }
        }
    }

    /// What issue 32 found missing, in every shell: the binary answers each.
    func testWhatCompletionMissedBefore() {
        func line(_ words: String...) -> String { h.ok(["complete", "line"] + words) }
        XCTAssertTrue(line("sync", "").contains("\nstatus\t"))
        XCTAssertTrue(line("git-setup", "--").contains("\n--global\t"))
        XCTAssertTrue(line("git-setup", "--repo", "").hasPrefix("directories\n"))
        XCTAssertTrue(line("conflicts", "--").contains("\n--resolve\t"))
        XCTAssertTrue(line("help", "").contains("\nwrite\t"))
        XCTAssertTrue(line("textconv", "").hasPrefix("files\n"))
        XCTAssertTrue(line("check", "-").contains("\n-v\t"))
        XCTAssertTrue(line("sync", "--watch", "--").contains("\n--interval\t"))
        // An option already given is not offered again.
        XCTAssertFalse(line("-currentHost", "-").contains("-currentHost"))
        XCTAssertTrue(line("-currentHost", "-").contains("-host"))
        XCTAssertFalse(line("watch", "com.t", "--json", "--").contains("--json"))
        // -v before the domain is not the domain.
        h.ok("write", "com.t", "volume", "1")
        XCTAssertTrue(line("check", "-v", "com.t", "").contains("\nvolume"))
    }

    /// A sub-verb or `--` option the table does not declare is refused before the verb
    /// runs, in one line, with the one it most likely meant.
    func testUnknownSubverbsAndOptionsGetDidYouMean() {
        for (words, message) in [
            (["sync", "statsu"], "unknown sync command 'statsu'; did you mean status?"),
            (["git-setup", "--glob"], "unknown option '--glob' for git-setup; did you mean --global?"),
            (["conflicts", "--resolv"], "unknown option '--resolv' for conflicts; did you mean --resolve?"),
            (["schema", "pth", "com.t"], "unknown schema command 'pth'; did you mean path?"),
            (["export", "com.t", "-", "--jsn"], "unknown option '--jsn' for export; did you mean --json?"),
            (["domains", "--frobnicate"], "unknown option '--frobnicate' for domains"),
        ] {
            let r = h.run(words)
            XCTAssertEqual(r.status, 2, "\(words)")
            XCTAssertEqual(r.stderr, "settings: \(message) (see 'settings help')\n", "\(words)")
        }
        // Where a key or a value stands, a `--` word is that word, as in defaults.
        h.ok("write", "com.t", "--k", "--v")
        XCTAssertEqual(h.ok("read", "com.t", "--k"), "--v\n")
        // Every sub-verb the table declares is one the verb takes.
        for verb in Verb.all {
            for sub in verb.subverbs {
                XCTAssertFalse(
                    h.run([verb.name, sub.name]).stderr.contains("unknown \(verb.name) command"),
                    "\(verb.name) \(sub.name)")
            }
        }
    }

    /// Seconds read the same in every option and variable: a hex float is refused everywhere.
    func testSecondsParseOneWay() {
        for words in [["watch", "com.t", "--timeout", "0x1p0"], ["sync", "--watch", "--interval", "0x1p0"]] {
            let r = h.run(words)
            XCTAssertEqual(r.status, 2, "\(words)")
            XCTAssertTrue(r.stderr.contains("invalid value '0x1p0'"), r.stderr)
        }
        let r = h.run(["read", "com.t"], environment: ["SETTINGS_LOCK_TIMEOUT": "0x1p0"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(Seconds.parse("1.5"), 1.5)
        for text in ["0x1p0", "1e3", "inf", "-1", " 5", "5 ", ".5", "5."] { XCTAssertNil(Seconds.parse(text), text) }
    }

    /// The man page has a heading in VERBS for every verb, alias and sub-verb, and names
    /// every option there; `help --man` prints the page.
    func testTheManPageHasEveryVerb() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("man/settings.1"), encoding: .utf8)
        XCTAssertEqual(h.ok("help", "--man"), page, "run scripts/embed_man.py")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let from = lines.firstIndex(of: ".SH VERBS"),
            let to = lines[(from + 1)...].firstIndex(where: { $0.hasPrefix(".SH ") })
        else { return XCTFail("no VERBS section") }
        let section = lines[from..<to]
        // The headings' words, as man shows them: macros, fonts and quotes away.
        var headings: [String] = []
        for (i, line) in section.enumerated() where line == ".TP" {
            let tag = section[section.startIndex + i + 1]
            headings.append(Self.plain(tag))
        }
        let text = Self.plain(section.joined(separator: "\n"))
        for verb in Verb.all {
            XCTAssertTrue(
                headings.contains { $0 == verb.name || $0.hasPrefix(verb.name + " ") || $0.hasPrefix(verb.name + ",") },
                "man VERBS has no heading for \(verb.name)")
            for alias in verb.aliases {
                XCTAssertTrue(text.contains(alias), "man VERBS does not name \(verb.name)'s alias \(alias)")
            }
            for sub in verb.subverbs {
                XCTAssertTrue(
                    headings.contains { $0.contains("\(verb.name) \(sub.name)") },
                    "man VERBS has no heading for \(verb.name) \(sub.name)")
            }
            for option in verb.options {
                XCTAssertTrue(text.contains(option.name), "man VERBS does not name \(verb.name) \(option.name)")
            }
        }
    }

    /// Every heading of the man page stays on one line when man renders it at 80 columns.
    func testManPageHeadingsFitOnALine() throws {
        try Harness.require("man", package: "man-db")
        let page = Self.root.appendingPathComponent("man/settings.1").path
        let r = h.exec(
            "/usr/bin/env", ["man", "-l", "-Tutf8", page], environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"])
        let rendered = r.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let source = try String(contentsOf: URL(fileURLWithPath: page), encoding: .utf8).split(separator: "\n")
        for (i, line) in source.enumerated() where line == ".TP" && i + 1 < source.count {
            let heading = Self.plain(source[i + 1])
            // A heading shorter than the indent shares its line with the text after it.
            XCTAssertTrue(
                rendered.contains { $0 == heading || $0.hasPrefix(heading + " ") }, "wrapped at 80 columns: \(heading)")
        }
    }

    /// The README's verb table has a row for every verb and alias.
    func testTheReadmeVerbTableHasEveryVerb() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n")
        guard let from = lines.firstIndex(of: "| verb | what it does |") else { return XCTFail("no verb table") }
        let table = lines[from...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        for (word, verb) in verbWords {
            XCTAssertTrue(
                table.contains("`\(word)") || table.contains("(`\(word)`"),
                "README verb table lacks \(word) (\(verb.name))")
        }
    }

    /// A roff line as man shows its words: macros, font escapes and quotes removed.
    static func plain<S: StringProtocol>(_ roff: S) -> String {
        var text = String(roff)
        for macro in [".BI ", ".BR ", ".IR ", ".RB ", ".RI ", ".IB ", ".B ", ".I "] where text.hasPrefix(macro) {
            text = String(text.dropFirst(macro.count))
            // Alternating fonts join their arguments; quotes hold spaces.
            var words: [String] = []
            var current = ""
            var quoted = false
            for c in text {
                if c == "\"" {
                    quoted.toggle()
                } else if c == " " && !quoted {
                    words.append(current)
                    current = ""
                } else {
                    current.append(c)
                }
            }
            words.append(current)
            text = words.joined(separator: macro.count == 3 ? " " : "")
        }
        for escape in ["\\fB", "\\fI", "\\fR", "\\fP"] { text = text.replacingOccurrences(of: escape, with: "") }
        return text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\ ", with: " ")
            .replacingOccurrences(of: "\\(em", with: "—")
    }
}
