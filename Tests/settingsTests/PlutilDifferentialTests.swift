import Foundation
import XCTest

/// `plutil` against the real one: the plutil that ships with the Swift toolchain (beside
/// `swift`), run on its own copy of each generated document, with the same random command
/// line as `settings plutil`. Exit status, standard output and the file left are compared:
/// XML byte for byte, binary by value through plistlib, JSON by value. Documents are made
/// by Foundation, not by this project. SETTINGS_PLUTIL_CASES sets how many command lines
/// (CI runs 2,000 in a step of its own; the suite 20, as a smoke of it: the toolchain's
/// plutil takes 60 ms to start, and 60 lines took 5 s of the suite's minute).
///
/// Where the toolchain's plutil differs from macOS's, this project follows macOS, and the
/// generator keeps away from the difference (each is tested on its own elsewhere):
/// - `-p` prints data without leading zeros, and of data over 24 bytes only every other
///   byte of its first 16 (Apple's Linux port, swift-corelibs-foundation#5284, fixed by #5421 after 6.3.1): documents
///   printed with `-p` hold data of at most 24 bytes, none below 0x10 (`PlutilTests`).
/// - `--` does not end the options (the port's loop `break`s its `switch`, not the loop).
/// - `-insert … -date` with a date it cannot read, and `-append` at an index past the end,
///   crash the port; here they are errors.
/// And where this project writes differently, on purpose:
/// - reals in XML are their shortest digits (`0.1`, where Foundation writes
///   `0.10000000000000001`): both read back as the same double, so XML is compared with
///   each `<real>` read as a number; `-0.0` keeps its sign (the port writes `0.0`), so
///   no document holds it.
/// - strings of Swift and Objective-C literals escape every backslash (the port's make
///   source that does not compile): no generated string holds one.
/// - XML is never written with a control character, which no reader takes (the port
///   writes it): no generated string holds one (`AppleToolsAttackFindingsTests`).
/// - standard input converted without `-o` goes to standard output, not to a file named `-`.
final class PlutilDifferentialTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    /// The toolchain's plutil: `$(dirname "$(readlink -f "$(which swift)")")/plutil`.
    static let toolchainPlutil: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let swift = String(folder) + "/swift"
            guard FileManager.default.isExecutableFile(atPath: swift) else { continue }
            let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
            let plutil = real.appendingPathComponent("plutil").path
            if FileManager.default.isExecutableFile(atPath: plutil) { return plutil }
        }
        return nil
    }()

    func testRandomCommandLinesDoWhatTheToolchainsPlutilDoes() throws {
        guard let plutil = Self.toolchainPlutil else { throw skip("needs the Swift toolchain's plutil, beside swift") }
        let cases = Int(ProcessInfo.processInfo.environment["SETTINGS_PLUTIL_CASES"] ?? "") ?? 20
        var random = SplitMix(state: 51)
        let a = h.files + "/a", b = h.files + "/b"
        for folder in [a, b] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var kinds: [String: Int] = [:]
        for round in 0..<cases {
            let document = Generated(random: &random)
            let format: PropertyListSerialization.PropertyListFormat = random.int(2) == 0 ? .xml : .binary
            var bytes = try PropertyListSerialization.data(fromPropertyList: document.root, format: format, options: 0)
            // JSON in, which every command but -lint reads.
            // (Not Int64.min: Foundation reads -9223372036854775808 in JSON as a real.)
            let json = !document.hasDateOrData && random.int(6) == 0 && !document.holdsInt64Min
            if json { bytes = try JSONSerialization.data(withJSONObject: document.root) }
            for folder in [a, b] {
                for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                    try FileManager.default.removeItem(atPath: folder + "/" + name)
                }
                try bytes.write(to: URL(fileURLWithPath: folder + "/in.plist"))
            }
            // Each kind of command in turn, so that even the suite's 20 lines cover them all.
            let kind = Generated.commands[round % Generated.commands.count]
            let (words, output) = document.commandLine(kind, &random)
            kinds[kind, default: 0] += 1
            let stdin = words.contains("-") ? bytes : nil
            let theirs = h.exec(plutil, words.map { $0.replacingOccurrences(of: "@/", with: a + "/") }, stdin: stdin)
            let ours = h.run(["plutil"] + words.map { $0.replacingOccurrences(of: "@/", with: b + "/") }, stdin: stdin)
            let what =
                "round \(round): plutil \(words.joined(separator: " ")) on \(json ? "JSON" : format == .xml ? "XML" : "binary")"
            XCTAssertEqual(ours.status, theirs.status, "\(what)\nours: \(ours.stderr)\ntheirs: \(theirs.stderr)")
            try compare(
                ours.stdout.replacingOccurrences(of: b + "/", with: "@/"),
                theirs.stdout.replacingOccurrences(of: a + "/", with: "@/"), as: output, what + " (standard output)")
            for name in Set(try FileManager.default.contentsOfDirectory(atPath: a)).union(
                try FileManager.default.contentsOfDirectory(atPath: b))
            {
                let ourFile = FileManager.default.contents(atPath: b + "/" + name)
                let theirFile = FileManager.default.contents(atPath: a + "/" + name)
                XCTAssertEqual(ourFile == nil, theirFile == nil, "\(what): \(name) made by one only")
                guard let ourFile, let theirFile else { continue }
                try compareFiles(ourFile, theirFile, what + " (\(name))")
            }
        }
        // Every command was drawn.
        XCTAssertEqual(Set(kinds.keys), Set(Generated.commands), "\(kinds)")
    }

    /// How a command's standard output is compared.
    enum Output { case exact, xml, json, none }

    func compare(_ ours: String, _ theirs: String, as output: Output, _ what: String) throws {
        switch output {
        case .exact: XCTAssertEqual(ours, theirs, what)
        case .none: break
        case .xml: XCTAssertEqual(Self.realsRead(ours), Self.realsRead(theirs), what)
        case .json:
            guard !ours.isEmpty || !theirs.isEmpty else { return }
            let x = try? JSONSerialization.jsonObject(with: Data(ours.utf8), options: .fragmentsAllowed)
            let y = try? JSONSerialization.jsonObject(with: Data(theirs.utf8), options: .fragmentsAllowed)
            XCTAssertTrue(Self.sameJSON(x, y), "\(what)\nours: \(ours)\ntheirs: \(theirs)")
        }
    }

    func compareFiles(_ ours: Data, _ theirs: Data, _ what: String) throws {
        if ours.starts(with: Data("bplist".utf8)) || theirs.starts(with: Data("bplist".utf8)) {
            let x = h.files + "/ours.bplist", y = h.files + "/theirs.bplist"
            try ours.write(to: URL(fileURLWithPath: x))
            try theirs.write(to: URL(fileURLWithPath: y))
            XCTAssertEqual(h.plistlibCanon(x), h.plistlibCanon(y), what)
        } else if ours.starts(with: Data("<?xml".utf8)) {
            XCTAssertEqual(
                Self.realsRead(String(decoding: ours, as: UTF8.self)),
                Self.realsRead(String(decoding: theirs, as: UTF8.self)), what)
        } else if ours.first == UInt8(ascii: "{") || ours.first == UInt8(ascii: "[") {
            try compare(String(decoding: ours, as: UTF8.self), String(decoding: theirs, as: UTF8.self), as: .json, what)
        } else {
            XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: theirs, as: UTF8.self), what)
        }
    }

    /// XML with each `<real>` written as the bits of the double it reads as.
    static func realsRead(_ xml: String) -> String {
        var out = "", rest = xml[...]
        while let open = rest.range(of: "<real>"), let close = rest[open.upperBound...].range(of: "</real>") {
            out += rest[..<open.upperBound]
            let text = String(rest[open.upperBound..<close.lowerBound])
            out += Double(text).map { String($0.bitPattern, radix: 16) } ?? text
            rest = rest[close.lowerBound...]
        }
        return out + rest
    }

    static func sameJSON(_ x: Any?, _ y: Any?) -> Bool {
        switch (x, y) {
        case (nil, nil): return true
        case let (x as [String: Any], y as [String: Any]):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameJSON(value, $0) } ?? false }
        case let (x as [Any], y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        case let (x as NSNumber, y as NSNumber): return x == y
        case let (x as String, y as String): return x == y
        default: return false
        }
    }
}

extension SplitMix {
    /// A number from 0 below `n`.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A random document of every type, with the key paths into it, and random `plutil`
/// command lines over it. Paths start with `@/`, each side's folder.
struct Generated {
    var root: Any
    /// Key paths of values in the document (plutil's spelling).
    var paths: [String] = []
    /// Whether it holds a date or data, which JSON refuses.
    var hasDateOrData = false
    /// Whether `-p` prints it as macOS does on both sides (see the test's list).
    var printable = true
    var holdsInt64Min = false

    static let commands = [
        "-lint", "-p", "-convert", "-insert", "-replace", "-remove", "-extract", "-type", "-create", "usage",
    ]
    static let keys = ["a", "B", "a10", "a9", "é", "key.dot", "0", "12", "CFBundleVersion", "z z"]

    init(random: inout SplitMix) {
        root = NSNull()
        let array = random.int(5) == 0
        root = array ? value(&random, depth: 0, path: [], forceArray: true) : dict(&random, depth: 0, path: [])
    }

    private mutating func dict(_ random: inout SplitMix, depth: Int, path: [String]) -> [String: Any] {
        var out: [String: Any] = [:]
        for _ in 0..<random.int(depth == 0 ? 7 : 4) {
            let key = Self.keys[random.int(Self.keys.count)]
            out[key] = value(&random, depth: depth + 1, path: path + [key])
        }
        return out
    }

    private mutating func value(_ random: inout SplitMix, depth: Int, path: [String], forceArray: Bool = false) -> Any {
        paths.append(path.map { $0.replacingOccurrences(of: ".", with: "\\.") }.joined(separator: "."))
        let kind = forceArray ? 8 : random.int(depth >= 3 ? 7 : 10)
        switch kind {
        case 0: return random.int(2) == 0
        case 1:
            let value = [0, 1, -1, 42, Int.max, Int.min, -7_000_000_000][random.int(7)]
            if value == Int.min { holdsInt64Min = true }
            return value
        case 2: return [0.5, 1.0, 0.1, 1e20, 3e-7, 0.0078125, -2.25, 123456.789, 2.5][random.int(9)]
        case 3:
            return ["hello", "two words", "x/y\"q'", "é日本", "", "a.b", "10", "<tag>&amp;"][random.int(8)]
        case 4:
            hasDateOrData = true
            return Date(timeIntervalSince1970: Double(random.int(4_000_000_000)))
        case 5:
            hasDateOrData = true
            let count = random.int(30)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.int(256)) }
            if count > 24 || bytes.contains(where: { $0 < 0x10 }) { printable = false }
            return Data(bytes)
        case 6: return "s\(random.int(100))"
        case 7, 9: return dict(&random, depth: depth, path: path)
        default:
            var items: [Any] = []
            for i in 0..<random.int(4) { items.append(value(&random, depth: depth + 1, path: path + ["\(i)"])) }
            return items
        }
    }

    /// A random key path: one of the document's (not the root's), or one that is not there.
    func keyPath(_ random: inout SplitMix) -> String {
        let known = paths.filter { !$0.isEmpty }
        if known.isEmpty || random.int(5) == 0 {
            return ["nothere", "a.nothere", "0", "5", "a.0", "x\\.y", ""][random.int(7)]
        }
        return known[random.int(known.count)]
    }

    /// The words, and how standard output is compared.
    /// A random command line of `kind` over the document.
    func commandLine(_ kind: String, _ random: inout SplitMix) -> ([String], PlutilDifferentialTests.Output) {
        let file = "@/in.plist"
        switch kind {
        case "-lint": return (random.int(2) == 0 ? ["-lint", file] : ["-lint", "-s", file, "@/missing"], .exact)
        case "-p" where printable: return (["-p", file], .exact)
        case "-p": return (["-type", keyPath(&random), file], .exact)
        case "-convert":
            switch random.int(10) {
            case 7: return (["-convert", "swift", "-o", "-", file], .exact)
            case 8: return (["-convert", "objc", "-o", "-", file], .exact)
            case 9: return (["-convert", "binary1", "-o", "@/out.plist", "-"], .exact)
            case 0: return (["-convert", "xml1", file], .exact)
            case 1: return (["-convert", "binary1", file], .exact)
            case 2: return (["-convert", "json", file], .exact)
            case 3: return (["-convert", "json", "-r", "-o", "-", file], hasDateOrData ? .exact : .json)
            case 4: return (["-convert", "xml1", "-o", "@/out.xml", file], .exact)
            case 5: return (["-convert", "json", "-e", "json", file], .exact)
            default: return (["-convert", "xml1", "-o", "-", file], .xml)
            }
        case "-insert", "-replace":
            let values: [[String]] = [
                ["-bool", "YES"], ["-bool", "no"], ["-integer", "42"], ["-integer", "-7x"], ["-float", "1.5"],
                ["-float", "0.1"], ["-string", "hi there"], ["-date", "2024-01-02T03:04:05Z"], ["-data", "AQID"],
                ["-json", #"{"x":[1,2.5,"y"]}"#], ["-json", "3"], ["-dictionary"], ["-array"],
                ["-data", "not base64!"], ["-json", "{bad"], ["-bool"], ["-nosuchtype", "1"],
                ["-xml", "<plist><array><string>x</string></array></plist>"],
            ]
            let path = keyPath(&random)
            var words = [random.int(2) == 0 ? "-insert" : "-replace", path]
            words += values[random.int(values.count)]
            // Only at a value that is there: at an index past an array's end, the port crashes.
            if words[0] == "-insert", paths.contains(path), random.int(6) == 0 { words.append("-append") }
            return (words + [file], .exact)
        case "-remove": return (["-remove", keyPath(&random), file], .exact)
        case "-extract":
            let path = keyPath(&random)
            switch random.int(5) {
            case 0: return (["-extract", path, "raw", file], .exact)
            case 1: return (["-extract", path, "raw", "-n", file], .exact)
            case 2: return (["-extract", path, "xml1", "-o", "-", file], .xml)
            case 3: return (["-extract", path, "json", "-o", "-", file], .json)
            default:
                let type = ["string", "integer", "dictionary", "array", "bool"][random.int(5)]
                return (["-extract", path, "raw", "-expect", type, file], .exact)
            }
        case "-type": return (["-type", keyPath(&random), file], .exact)
        case "-create":
            switch random.int(4) {
            case 0: return (["-create", "xml1", "@/new.plist"], .exact)
            case 1: return (["-create", "binary1", file], .exact)
            case 2: return (["-create", ["json", "swift", "objc", "raw"][random.int(4)], "-"], .exact)
            default: return (["-create", "json", "-r", "-o", "-", "-"], .exact)
            }
        default:
            let lines: [[String]] = [
                [], ["-p"], ["-convert"], ["-convert", "yaml", file], ["-convert", "xml1", "-o"], ["-x", file],
                ["-extract", "a"], ["-extract", "a", "raw", "-expect", "thing", file], ["-remove"],
                ["-insert", "a", "-string"], ["-lint", "-o", "x", file], ["-p", "-e", "x", file],
                ["-convert", "json", "-header", file], ["-s", file], ["-p", "-s", file], [file, file],
                ["-extract", "a", "raw", "-o", "-", "-"], ["-type", "", file], ["-help"],
            ]
            var words = lines[random.int(lines.count)]
            if !printable, words.first == "-p" { words = ["-lint", file] }
            // -help's text is this project's own words (PlutilHelp): its status is compared.
            return (words, words == ["-help"] ? .none : .exact)
        }
    }
}
