import Foundation
import XCTest
import TestSupport
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// The attack suite (ATTACKS.md, issue 18), beside the hostile-file corpus: each row
/// sets a trap in a fresh config folder, runs the real binary (under `timeout`, so a
/// hang fails instead of stopping the suite), and asserts the exit status, exactly one
/// line on stderr saying what happened, and every file as it was, kind and bytes (or,
/// for a row that is meant to change something, what it checks itself).
final class AttackTests: XCTestCase {
    var h: Harness!
    override func setUp() { h = Harness() }
    override func tearDown() { h.cleanUp() }

    struct Row: @unchecked Sendable {
        let arguments: [String]
        let status: Int32
        /// Part of the one stderr line.
        let message: String
        var environment: [String: String] = [:]
        /// Runs before, in the row's own config folder.
        var setup: (Harness) throws -> Void = { _ in }
        /// For rows that change something on purpose: checks that, instead of "nothing changed".
        var check: ((Harness) throws -> Void)?
        let line: UInt
    }

    static func row(
        _ arguments: [String], _ status: Int32, _ message: String, environment: [String: String] = [:],
        setup: @escaping (Harness) throws -> Void = { _ in }, check: ((Harness) throws -> Void)? = nil,
        line: UInt = #line
    ) -> Row {
        Row(
            arguments: arguments, status: status, message: message, environment: environment, setup: setup,
            check: check, line: line)
    }

    /// Every entry below the config folder: its kind, and its bytes or link target.
    /// Special files are never opened (a FIFO would block).
    static func snapshot(_ root: String) -> [String: String] {
        var entries: [String: String] = [:]
        let fm = FileManager.default
        guard let names = try? fm.subpathsOfDirectory(atPath: root) else { return [:] }
        for name in names {
            let path = root + "/" + name
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                let type = attributes[.type] as? FileAttributeType
            else { continue }
            switch type {
            case .typeRegular:
                let mode = (attributes[.posixPermissions] as? Int).map { String($0, radix: 8) } ?? "?"
                entries[name] = "file \(mode) " + (fm.contents(atPath: path)?.base64EncodedString() ?? "?")
            case .typeSymbolicLink: entries[name] = "link " + ((try? fm.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default: entries[name] = type.rawValue
            }
        }
        return entries
    }

    /// A character device like `/dev/NAME`. As root it is a node of its own, made beside
    /// the config folder: a regression that replaces a device must not take the machine's
    /// `/dev/null` with it (one did, before the fix). Others get the real one, which they
    /// cannot replace.
    static func device(_ name: String, _ h: Harness) -> String {
        guard getuid() == 0 else { return "/dev/" + name }
        let folder = h.config + "-dev"
        let path = folder + "/" + name
        if !FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let minor: UInt32 = ["null": 3, "zero": 5, "urandom": 9][name] ?? 3
            // makedev(1, minor), which Glibc offers only as a macro: both numbers are small.
            XCTAssertEqual(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | minor)), 0, "mknod \(path)")
        }
        return path
    }

    static func mkfifo(_ path: String) { XCTAssertEqual(Foundation.mkfifo(path, 0o644), 0, "mkfifo \(path)") }

    static func link(_ path: String, to target: String) {
        XCTAssertNoThrow(try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target))
    }

    static func write(_ h: Harness, _ name: String, _ text: String) {
        XCTAssertTrue(FileManager.default.createFile(atPath: h.path(name), contents: Data(text.utf8)))
    }

    /// `settings ARGS…` through `sh -c PREFIX`, for redirections and limits a process
    /// cannot be given otherwise: `"$@"` is the command.
    static func shell(_ prefix: String, _ arguments: [String]) -> [String] { ["@sh", prefix] + arguments }

    /// A literal of `depth` nested arrays around one string.
    static func nested(_ depth: Int) -> String {
        String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
    }

    static let goodDomain =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>k</key><string>v</string></dict></plist>"

    static var rows: [Row] {
        var rows: [Row] = []
        let fifo: (Harness) throws -> Void = { h in mkfifo(h.path("com.t")) }
        // 1. File kinds: only regular files are read, replaced or created.
        for arguments in [
            ["read", "com.t"], ["read", "com.t", "k"], ["read-type", "com.t", "k"], ["write", "com.t", "k", "v"],
            ["delete", "com.t", "k"], ["rename", "com.t", "a", "b"], ["export", "com.t", "-"], ["paths", "com.t"],
        ] {
            rows.append(row(arguments, 3, "cannot use", setup: fifo))
        }
        rows.append(row(["watch", "com.t", "--timeout", "1"], 3, "is a FIFO, not a regular file", setup: fifo))
        rows.append(
            row(
                ["read", "com.t"], 3, "is a socket, not a regular file",
                setup: { h in
                    XCTAssertEqual(
                        h.exec(
                            "/usr/bin/env",
                            [
                                "python3", "-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])",
                                h.path("com.t"),
                            ]
                        ).status, 0)
                }))
        for device in ["zero", "urandom", "null"] {
            rows.append(
                row(
                    ["read", "com.t", "k"], 3, "is a character device",
                    setup: { h in link(h.path("com.t"), to: Self.device(device, h)) }))
            rows.append(
                row(
                    ["write", "com.t", "k", "v"], 3, "is a character device",
                    setup: { h in link(h.path("com.t"), to: Self.device(device, h)) }))
        }
        rows.append(
            row(
                ["read", "com.t"], 3, "is a directory, not a regular file",
                setup: { h in
                    try FileManager.default.createDirectory(atPath: h.path("com.t"), withIntermediateDirectories: false)
                }))
        rows.append(
            row(
                ["write", "com.t", "k", "v"], 3, "Too many levels of symbolic links",
                setup: { h in
                    link(h.path("com.t"), to: "com.u.plist")
                    link(h.path("com.u"), to: "com.t.plist")
                }))
        // A dangling link into a missing folder: no folder is made anywhere.
        rows.append(
            row(
                ["write", "com.t", "k", "v"], 4, "No such file or directory",
                setup: { h in
                    link(h.path("com.t"), to: h.config + "/outside/deeper/target.plist")
                }))
        rows.append(
            row(
                ["write", "com.t", "k", "v"], 0, "warning: ignoring the schema",
                setup: { h in
                    try FileManager.default.createDirectory(
                        atPath: h.config + "/settings/schemas", withIntermediateDirectories: true)
                    mkfifo(h.config + "/settings/schemas/com.t.json")
                },
                check: { h in
                    // plistlib, not the binary: a binary that hangs on the FIFO would hang the check.
                    XCTAssertEqual(h.plistlibCanon(h.path("com.t")), "{6b=s:76}")
                }))
        rows.append(row(["import", "com.t", "/dev/zero"], 3, "cannot use /dev/zero: it is a character device"))
        rows.append(row(["import", "com.t", "FIFO"], 3, "cannot parse", setup: { h in mkfifo(h.config + "/in.fifo") }))
        rows.append(
            row(
                ["export", "com.good", "/"], 3, "cannot use /: it is a directory",
                setup: { h in write(h, "com.good", goodDomain) }))
        // Writing into what is not replaced: the device stays a device.
        rows.append(
            row(
                ["export", "com.good", "NULL"], 0, "", setup: { h in write(h, "com.good", goodDomain) },
                check: { h in
                    XCTAssertEqual(
                        (try FileManager.default.attributesOfItem(atPath: Self.device("null", h))[.type]
                            as? FileAttributeType), .typeCharacterSpecial)
                }))
        rows.append(
            row(["export", "com.good", "/dev/stdout"], 0, "", setup: { h in write(h, "com.good", goodDomain) }))

        // 2. Read-only files are left alone (status 4) unless --force.
        let readOnly: (Harness) throws -> Void = { h in
            write(h, "com.t", goodDomain)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.path("com.t"))
        }
        for arguments in [
            ["write", "com.t", "k", "w"], ["write", "com.t", "{ a = 1; }"], ["delete", "com.t", "k"],
            ["delete", "com.t"],
            ["rename", "com.t", "k", "j"], ["reset", "com.t", "k"], ["write", "com.t", "-p", "/k", "w"],
        ] {
            rows.append(row(arguments, 4, "the file is read-only (--force writes it anyway)", setup: readOnly))
        }
        rows.append(
            row(
                ["write", "com.t", "--force", "k", "w"], 0, "", setup: readOnly,
                check: { h in
                    XCTAssertEqual(h.ok("read", "com.t", "k"), "w\n")
                    XCTAssertEqual(
                        try FileManager.default.attributesOfItem(atPath: h.path("com.t"))[.posixPermissions] as? Int,
                        0o444)
                }))
        rows.append(
            row(
                ["delete", "com.t", "--force"], 0, "", setup: readOnly,
                check: { h in
                    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("com.t")))
                }))

        // 3. What is written can always be read back.
        rows.append(row(["write", "com.t", "bad\u{1}key", "v"], 2, "control character U+0001"))
        rows.append(row(["write", "com.t", "k", "-dict", "bad\u{1}key", "v"], 2, "control character U+0001"))
        rows.append(row(["write", "com.t", "{ \"bad\\001key\" = v; }"], 2, "control character U+0001"))
        rows.append(row(["write", "com.t", "k", "--json", "{\"bad\\u0001key\": 1}"], 2, "control character U+0001"))
        rows.append(
            row(
                ["rename", "com.good", "k", "bad\u{1}key"], 2, "control character U+0001",
                setup: { h in write(h, "com.good", goodDomain) }))
        rows.append(
            row(
                ["import", "com.t", "-"], 2, "control character U+0001",
                environment: ["STDIN": "{ \"bad\\001key\" = v; }"]))
        rows.append(
            row(
                ["write", "com.t", "-p", "/" + Array(repeating: "a", count: 600).joined(separator: "/"), "v"], 2,
                "600 segments"))
        rows.append(
            row(
                ["write", "com.t", "-p", "/" + Array(repeating: "a", count: 20_000).joined(separator: "/"), "v"], 2,
                "20000 segments"))
        rows.append(
            row(
                ["read", "com.t", "-p", "/" + Array(repeating: "a", count: 20_000).joined(separator: "/")], 2,
                "20000 segments"))
        rows.append(row(["write", "com.t", "k", "-array", nested(511)], 2, "nested deeper than 512 levels"))
        rows.append(row(["write", "com.t", "k", "-dict", "a", nested(511)], 2, "nested deeper than 512 levels"))
        rows.append(row(["write", "com.t", "k", "-array-add", nested(511)], 2, "nested deeper than 512 levels"))
        rows.append(
            row(
                [
                    "write", "com.t", "k", "--json",
                    String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
                ], 2, "nested deeper than 512 levels"))
        // One level less is the deepest a file may hold: written, and read back.
        rows.append(
            row(
                ["write", "com.t", "k", "-array", nested(510)], 0, "",
                check: { h in
                    XCTAssertEqual(h.run(["read-type", "com.t", "k"]).stdout, "Type is array\n")
                }))
        for date in ["0000-01-01 00:00:00 +0000", "10000-01-01 00:00:00 +0000", "0000-12-30 00:00:00 +0100"] {
            rows.append(row(["write", "com.t", "k", "-date", date], 2, "0000-12-30 to 9999-12-31"))
        }
        // Foundation's Date.distantPast is the first date stored and read back.
        rows.append(
            row(
                ["write", "com.t", "k", "-date", "0000-12-30 00:00:00 +0000"], 0, "",
                check: { h in
                    XCTAssertEqual(h.run(["read", "com.t", "k"]).stdout, "0000-12-30 00:00:00 +0000\n")
                }))

        // 4. Only our own temporary files are removed.
        rows.append(
            row(
                ["write", "com.good", "k", "w"], 0, "",
                setup: { h in
                    write(h, "com.good", goodDomain)
                    for name in [".com.good.plist.backup", ".com.good.plist.AbCdEf", ".settings-tmp.notours"] {
                        XCTAssertTrue(
                            FileManager.default.createFile(atPath: h.config + "/" + name, contents: Data("mine".utf8)))
                    }
                    try FileManager.default.createDirectory(
                        atPath: h.config + "/.settings-tmp.dirXYZ", withIntermediateDirectories: false)
                },
                check: { h in
                    let names = try FileManager.default.contentsOfDirectory(atPath: h.config).sorted()
                    XCTAssertEqual(
                        names,
                        [
                            ".com.good.plist.AbCdEf", ".com.good.plist.backup", ".settings-tmp.dirXYZ",
                            ".settings-tmp.notours", "com.good.plist",
                        ])
                }))
        // An abandoned temporary file of ours (six characters after the prefix) is removed.
        rows.append(
            row(
                ["write", "com.good", "k", "w"], 0, "",
                setup: { h in
                    write(h, "com.good", goodDomain)
                    XCTAssertTrue(
                        FileManager.default.createFile(
                            atPath: h.config + "/.settings-tmp.Ab12Cd", contents: Data("half".utf8)))
                },
                check: { h in
                    XCTAssertEqual(
                        try FileManager.default.contentsOfDirectory(atPath: h.config).sorted(), ["com.good.plist"])
                }))

        // 6. Output and resource failures are failures.
        let good: (Harness) throws -> Void = { h in write(h, "com.good", goodDomain) }
        rows.append(
            row(
                shell("exec \"$@\" > /dev/full", ["read", "com.good"]), 4,
                "cannot write standard output: No space left on device", setup: good))
        rows.append(
            row(
                shell("exec \"$@\" > /dev/full", ["export", "com.good", "-"]), 4, "No space left on device", setup: good
            ))
        rows.append(
            row(
                shell("exec \"$@\" > /dev/full", ["export", "com.good", "-", "--json"]), 4, "No space left on device",
                setup: good))
        rows.append(
            row(
                shell("exec \"$@\" >&-", ["read", "com.good", "k"]), 4,
                "cannot write standard output: Bad file descriptor", setup: good))
        rows.append(
            row(
                shell("ulimit -f 1; exec \"$@\"", ["write", "com.good", "big", String(repeating: "x", count: 4096)]), 4,
                "File too large", setup: good))
        rows.append(
            row(
                shell("ulimit -f 1; exec \"$@\"", ["export", "com.good", "OUT"]), 4, "File too large",
                setup: { h in
                    write(
                        h, "com.good",
                        "<plist version=\"1.0\"><dict><key>k</key><string>" + String(repeating: "x", count: 4096)
                            + "</string></dict></plist>")
                }))

        // 7. Bad input is refused, not reinterpreted.
        rows.append(
            row(
                shell("exec \"$@\" \"$(printf 'bad\\377')\" k v", ["write"]), 2,
                "argument 2 ('bad\\xFF') is not valid UTF-8"))
        rows.append(
            row(
                shell("exec \"$@\" \"$(printf 'v\\377')\"", ["write", "com.t", "k"]), 2,
                "argument 4 ('v\\xFF') is not valid UTF-8"))
        for value in ["-1", "abc", "0x10", "1e3", "", " 5", "inf", "nan"] {
            rows.append(
                row(
                    ["write", "com.t", "k", "v"], 2, "invalid SETTINGS_LOCK_TIMEOUT '\(value)'",
                    environment: ["SETTINGS_LOCK_TIMEOUT": value]))
        }
        rows.append(
            row(
                ["write", "com.t", "k", "v"], 0, "", environment: ["SETTINGS_LOCK_TIMEOUT": "0.5"],
                check: { h in
                    XCTAssertEqual(h.ok("read", "com.t", "k"), "v\n")
                }))
        rows.append(row(["watch", "com.t", "--timeout", "3000000000"], 2, "invalid value '3000000000' for --timeout"))
        rows.append(
            row(
                ["watch", "com.t", "--count", "92233720368547758070"], 2,
                "invalid value '92233720368547758070' for --count"))
        rows.append(
            row(["watch", "com.t", "--debounce", "3000000000"], 2, "invalid value '3000000000' for --debounce"))
        rows.append(row(["write", String(repeating: "d", count: 250), "k", "v"], 2, "250 bytes long; at most 249"))
        rows.append(row(["read", String(repeating: "d", count: 300)], 2, "300 bytes long; at most 249"))
        rows.append(
            row(
                ["write", "/tmp/" + String(repeating: "p", count: 256), "k", "v"], 2, "the path is too long for a file")
        )
        rows.append(
            row(
                ["-host", String(repeating: "h", count: 200), "write", String(repeating: "d", count: 200), "k", "v"], 2,
                "the file name is longer than 255 bytes"))
        // Any name that can be read can be written: the longest one.
        rows.append(
            row(
                ["write", String(repeating: "d", count: 249), "k", "v"], 0, "",
                check: { h in
                    XCTAssertEqual(h.ok("read", String(repeating: "d", count: 249), "k"), "v\n")
                }))

        // The environment: a config folder that is a file.
        let configIsAFile: (Harness) throws -> Void = { h in
            XCTAssertTrue(FileManager.default.createFile(atPath: h.config + "/file", contents: Data()))
        }
        rows.append(
            row(
                ["read", "com.t", "k"], 3, "Not a directory", environment: ["XDG_CONFIG_HOME": "CONFIG/file"],
                setup: configIsAFile))
        rows.append(
            row(
                ["write", "com.t", "k", "v"], 4, "Not a directory", environment: ["XDG_CONFIG_HOME": "CONFIG/file"],
                setup: configIsAFile))

        // 8. One bad file does not take down the others.
        let neighbours: (Harness) throws -> Void = { h in
            write(h, "com.a", goodDomain)
            write(h, "com.broken", "<plist><dict><key>k</key>")
            write(h, "com.z", goodDomain)
        }
        rows.append(row(["read"], 3, "cannot parse", setup: neighbours))
        rows.append(row(["find", "v"], 3, "cannot parse", setup: neighbours))

        // 10. Errors are one line, control characters escaped.
        rows.append(row(["read", "new\nline"], 2, "invalid domain 'new\\nline'"))
        rows.append(
            row(
                ["read", "com.t", "key\u{1B}[2J"], 1, "(com.t, key\\u{1B}[2J) does not exist",
                setup: { h in write(h, "com.t", goodDomain) }))
        rows.append(row(["delete", "com.none"], 1, "Domain (com.none) not found. Defaults have not been changed."))

        // 11. Settings as code (issue 33): special files, hostile files and bad words.
        let goodT: (Harness) throws -> Void = { h in write(h, "com.t", goodDomain) }
        rows.append(row(["diff", "com.t", "FIFO"], 3, "cannot parse", setup: { h in mkfifo(h.config + "/in.fifo") }))
        rows.append(row(["diff", "com.t", "/dev/zero"], 3, "cannot use /dev/zero: it is a character device"))
        rows.append(row(["apply", "/dev/zero"], 3, "cannot use /dev/zero: it is a character device"))
        rows.append(row(["apply", "FIFO"], 3, "cannot parse", setup: { h in mkfifo(h.config + "/in.fifo") }))
        rows.append(row(["apply", "-"], 3, "cannot parse", environment: ["STDIN": "{\"com.t\": "]))
        rows.append(
            row(
                ["apply", "-"], 3, "deeper than 512",
                environment: [
                    "STDIN": "{\"com.t\": {\"k\": " + String(repeating: "[", count: 600)
                        + String(repeating: "]", count: 600) + "}}"
                ]))
        rows.append(
            row(
                ["apply", "-"], 2, "control character U+0001 in com.t",
                environment: ["STDIN": #"{"com.t": {"k": "a\u0001"}}"#],
                setup: goodT))
        rows.append(
            row(
                ["apply", "-"], 2, "com.t: /a~2: '/a~2' is not a JSON Pointer",
                environment: ["STDIN": #"{"com.t": {"/a~2": 1}}"#],
                setup: goodT))
        rows.append(
            row(["apply", "-", "--as", "a/b"], 2, "invalid value 'a/b' for --as", environment: ["STDIN": "{}"]))
        rows.append(row(["snapshot", "-o", "NULL"], 0, "", setup: goodT))
        rows.append(row(["history", "com.t", "--since", "3e400d"], 2, "invalid value '3e400d' for --since"))
        rows.append(row(["undo", "com.t", "--steps", "99999999999999999999"], 2, "invalid value"))
        rows.append(row(["undo", "com.t"], 1, "nothing to undo in com.t", setup: goodT))
        rows.append(row(["capture", "--timeout", "1e400"], 2, "invalid value '1e400' for --timeout"))
        rows.append(row(["edit", "com.t", "--format", "openstep"], 2, "invalid value 'openstep' for --format"))
        rows.append(
            row(
                ["edit", "com.t"], 1, "the editor exited with status 1; the domain is unchanged",
                environment: ["EDITOR": "false", "VISUAL": ""], setup: goodT))
        for (name, value) in [
            ("SETTINGS_HISTORY_SIZE", "-1"), ("SETTINGS_HISTORY_SIZE", "1e9"), ("SETTINGS_HISTORY_DAYS", "abc"),
        ] {
            rows.append(
                row(
                    ["write", "com.t", "k", "v"], 2, "invalid \(name) '\(value)'", environment: [name: value],
                    setup: goodT))
        }
        // A state folder that is a file, or relative: the write is done, silently.
        rows.append(
            row(
                ["write", "com.t", "k", "-int", "2"], 0, "", environment: ["XDG_STATE_HOME": "CONFIG/com.t.plist"],
                setup: goodT, check: { h in XCTAssertEqual(h.ok("read", "com.t", "k"), "2\n") }))
        return rows
    }

    /// The rows are independent (a config folder each) and mostly wait on a process
    /// starting: four lanes at once, each row checked in full as before.
    func testEveryAttackFailsCleanly() throws {
        let rows = Self.rows, lanes = 4
        let done = DispatchGroup()
        for lane in 0..<lanes {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for i in stride(from: lane, to: rows.count, by: lanes) {
                    do { try Self.check(rows[i]) } catch { XCTFail("\(error)", line: rows[i].line) }
                }
            }
        }
        done.wait()
    }

    /// Runs one row in a config folder of its own and checks what it says and leaves.
    static func check(_ row: Row) throws {
        let h = Harness()
        defer {
            h.cleanUp()
            try? FileManager.default.removeItem(atPath: h.config + "-dev")
        }
        try row.setup(h)
        let before = Self.snapshot(h.config)
        var arguments = row.arguments.map {
            $0 == "FIFO"
                ? h.config + "/in.fifo"
                : $0 == "OUT" ? h.config + "/out.plist" : $0 == "NULL" ? Self.device("null", h) : $0
        }
        var environment = row.environment.mapValues { $0.replacingOccurrences(of: "CONFIG", with: h.config) }
        let stdin = environment.removeValue(forKey: "STDIN").map { Data($0.utf8) }
        let r: Harness.Result
        if arguments.first == "@sh" {
            let prefix = arguments[1]
            arguments = Array(arguments.dropFirst(2))
            r = h.exec(
                "/usr/bin/timeout", ["10", "/bin/sh", "-c", prefix, "sh", Harness.settings] + arguments,
                stdin: stdin, environment: environment)
        } else {
            r = h.exec(
                "/usr/bin/timeout", ["10", Harness.settings] + arguments, stdin: stdin, environment: environment)
        }
        let shown = arguments.map { $0.count > 60 ? String($0.prefix(60)) + "…" : $0 }
        XCTAssertEqual(r.status, row.status, "\(shown): \(r.stderr)", line: row.line)
        if row.message.isEmpty {
            XCTAssertEqual(r.stderr, "", "\(shown)", line: row.line)
        } else {
            XCTAssertTrue(r.stderr.contains(row.message), "\(shown): \(r.stderr)", line: row.line)
            XCTAssertEqual(
                r.stderr.filter { $0 == "\n" }.count, 1, "\(shown): one line: \(r.stderr)", line: row.line)
        }
        if let check = row.check {
            try check(h)
        } else {
            XCTAssertEqual(Self.snapshot(h.config), before, "\(shown) changed a file", line: row.line)
        }
    }

    /// A file larger than any property list (sparse, so the test writes nothing) is
    /// refused before anything is allocated for it.
    func testAHugeFileIsRefusedNotRead() throws {
        let folder = h.config + "-huge"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/big.plist", contents: nil))
        XCTAssertEqual(truncate(folder + "/big.plist", 1_100 << 20), 0)
        for arguments in [
            ["read", folder + "/big.plist"], ["write", folder + "/big", "k", "v"],
            ["import", "com.t", folder + "/big.plist"],
        ] {
            let r = h.run(arguments)
            XCTAssertEqual(r.status, 3, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("it is larger than 1 GiB"), r.stderr)
        }
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: folder + "/big.plist")[.size] as? Int, 1_100 << 20)
    }

    // MARK: Ownership, permissions and metadata

    /// A second user, made once (CI runs as root); nil when not root.
    static let otherUser: (uid: UInt32, gid: UInt32)? = {
        guard getuid() == 0 else { return nil }
        let name = "settingsattack"
        if getpwnam(name) == nil {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
            p.arguments = ["--no-create-home", "--shell", "/usr/sbin/nologin", name]
            try? p.run()
            p.waitUntilExit()
        }
        guard let pw = getpwnam(name) else { return nil }
        return (pw.pointee.pw_uid, pw.pointee.pw_gid)
    }()

    static func owner(_ path: String) -> (UInt32, UInt32) {
        var s = stat()
        XCTAssertEqual(lstat(path, &s), 0, path)
        return (s.st_uid, s.st_gid)
    }

    /// `sudo settings write` on a user's config: what root makes belongs to the user, so
    /// the user's next write (run as that user) still works.
    func testRootWritesLeaveTheUsersConfigTheirs() throws {
        guard let user = Self.otherUser else { throw skip("needs root (CI runs as root)") }
        let home = h.config + "/userhome"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        XCTAssertEqual(chown(home, user.uid, user.gid), 0)
        XCTAssertEqual(chmod(h.config, 0o755), 0)
        let config = home + "/.config"
        let state = home + "/.local/state"
        try FileManager.default.createDirectory(atPath: home + "/.local", withIntermediateDirectories: true)
        XCTAssertEqual(chown(home + "/.local", user.uid, user.gid), 0)
        let env = ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state]
        for arguments in [
            ["write", "com.t", "k", "1"], ["-currentHost", "write", "com.t", "k", "1"],
            ["export", "com.t", home + "/backup.plist"],
        ] {
            let r = h.run(arguments, environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        // The journal root keeps (issue 33) is the user's too.
        let journal = try FileManager.default.contentsOfDirectory(atPath: state + "/settings/history").map {
            state + "/settings/history/" + $0
        }
        XCTAssertEqual(journal.count, 4, "two domains' journals and copies")
        for path in [
            config, config + "/com.t.plist", config + "/ByHost", config + "/ByHost/com.t..plist",
            home + "/backup.plist", state, state + "/settings", state + "/settings/history",
        ] + journal {
            XCTAssertTrue(Self.owner(path) == (user.uid, user.gid), "\(path) is owned by \(Self.owner(path))")
        }
        // The user writes on.
        let r = h.exec(
            "/usr/bin/setpriv",
            [
                "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", Harness.settings, "write", "com.t", "k",
                "2",
            ],
            environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(h.run(["read", "com.t", "k"], environment: env).stdout, "2\n")
        XCTAssertTrue(h.run(["history", "com.t"], environment: env).stdout.hasSuffix("-/k = \"1\"\n+/k = \"2\"\n"))
        // An existing file keeps its owner when root rewrites it.
        XCTAssertEqual(h.run(["write", "com.t", "k", "3"], environment: env).status, 0)
        XCTAssertTrue(Self.owner(config + "/com.t.plist") == (user.uid, user.gid))
    }

    /// ACLs and user attributes survive a write, and the ACL's mask (which the mode's
    /// group bits show) is not widened.
    func testACLsAndAttributesSurviveEveryWrite() throws {
        try Harness.require("setfacl", package: "acl")
        try Harness.require("setfattr", package: "attr")
        let file = h.path("com.t")
        h.ok("write", "com.t", "k", "1")
        h.ok("export", "com.t", h.config + "/copy.plist")
        for path in [file, h.config + "/copy.plist"] {
            XCTAssertEqual(h.exec("/usr/bin/setfacl", ["-m", "u:nobody:r,g::-,m::r", path]).status, 0)
            XCTAssertEqual(h.exec("/usr/bin/setfattr", ["-n", "user.origin", "-v", "dotfiles", path]).status, 0)
        }
        let acl = { (path: String) in self.h.exec("/usr/bin/getfacl", ["-c", path]).stdout }
        let attribute = { (path: String) in
            self.h.exec("/usr/bin/getfattr", ["--only-values", "-n", "user.origin", path]).stdout
        }
        let aclBefore = [file: acl(file), h.config + "/copy.plist": acl(h.config + "/copy.plist")]
        let modeBefore = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        XCTAssertTrue(aclBefore[file]!.contains("user:nobody:r--"), aclBefore[file]!)
        h.ok("write", "com.t", "k", "2")  // one key, XML
        h.ok("write", "com.t", "{ k = 3; j = 4; }")  // the whole domain
        h.ok("export", "com.t", h.config + "/copy.plist")  // an export over a file
        for path in [file, h.config + "/copy.plist"] {
            XCTAssertEqual(acl(path), aclBefore[path], path)
            XCTAssertEqual(attribute(path), "dotfiles", path)
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int, modeBefore)
        // A binary domain goes through the binary editor: the same.
        h.ok("export", "com.t", h.path("com.b"))
        XCTAssertEqual(h.exec("/usr/bin/setfacl", ["-m", "u:nobody:r,g::-,m::r", h.path("com.b")]).status, 0)
        let binaryACL = acl(h.path("com.b"))
        h.ok("write", "com.b", "k", "5")
        XCTAssertEqual(
            Array((FileManager.default.contents(atPath: h.path("com.b")) ?? Data()).prefix(6)), Array("bplist".utf8))
        XCTAssertEqual(acl(h.path("com.b")), binaryACL)
    }

    // MARK: Races under the lock

    /// Two first writes in two cases of one name make one file with both keys: the
    /// name is looked up under the lock.
    func testFirstWritesInTwoCasesMakeOneFile() throws {
        for round in 0..<6 {
            let h = Harness()
            defer { h.cleanUp() }
            let a = Process(), b = Process()
            for (p, arguments) in [(a, ["write", "com.App", "a", "1"]), (b, ["write", "com.app", "b", "2"])] {
                p.executableURL = URL(fileURLWithPath: Harness.settings)
                p.arguments = arguments
                p.environment = ["XDG_CONFIG_HOME": h.config, "HOME": h.config]
            }
            try a.run()
            try b.run()
            a.waitUntilExit()
            b.waitUntilExit()
            XCTAssertEqual([a.terminationStatus, b.terminationStatus], [0, 0])
            let files = try FileManager.default.contentsOfDirectory(atPath: h.config).filter { $0.hasSuffix(".plist") }
            XCTAssertEqual(files.count, 1, "round \(round): \(files)")
            XCTAssertEqual(h.ok("read", "com.app"), "{\n    a = 1;\n    b = 2;\n}\n", "round \(round)")
        }
    }

    // MARK: Failures injected into system calls

    /// `strace -e inject`: the call fails as the kernel would make it fail.
    private func injected(_ call: String, _ error: String, when: Int, _ arguments: [String]) -> Harness.Result {
        h.exec(
            "/usr/bin/strace",
            [
                "-f", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):error=\(error):when=\(when)",
                Harness.settings,
            ] + arguments)
    }

    /// The folder's fsync fails after the rename: the change is in place, so exit 0 and
    /// one warning; an fsync failing before the rename changes nothing (status 4).
    func testAFailedFolderSyncIsAWarningNotAFailure() throws {
        try Harness.require("strace", package: "strace")
        h.ok("write", "com.t", "k", "1")
        var r = injected("fsync", "EIO", when: 2, ["write", "com.t", "k", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(
            r.stderr.hasPrefix("settings: warning: ") && r.stderr.contains("durability is not confirmed"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1)
        XCTAssertEqual(h.ok("read", "com.t", "k"), "2\n")
        let before = Self.snapshot(h.config)
        r = injected("fsync", "EIO", when: 1, ["write", "com.t", "k", "3"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(r.stderr, "settings: cannot write \(h.path("com.t")): Input/output error\n")
        XCTAssertEqual(Self.snapshot(h.config), before)
    }

    /// An exhausted inotify limit names the sysctl to raise, not "No space left on device".
    func testInotifyLimitsAreNamed() throws {
        try Harness.require("strace", package: "strace")
        h.ok("write", "com.t", "k", "1")
        var r = injected("inotify_init1", "EMFILE", when: 1, ["watch", "com.t", "--timeout", "1"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("fs.inotify.max_user_instances"), r.stderr)
        r = injected("inotify_add_watch", "ENOSPC", when: 1, ["watch", "com.t", "--timeout", "1"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("fs.inotify.max_user_watches"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
    }

    // MARK: Relative XDG_DATA_DIRS

    /// The XDG spec: relative entries of XDG_DATA_DIRS are ignored.
    func testRelativeDataDirsAreIgnored() throws {
        let folder = h.config + "/work/rel/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"keys": {"k": {"type": "integer"}}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/com.t.json"))
        let run = { (dirs: String) in
            self.h.exec(
                "/bin/sh",
                [
                    "-c", "cd \"$0\" && exec \"$@\"", self.h.config + "/work", Harness.settings, "schema", "path",
                    "com.t",
                ],
                environment: ["XDG_DATA_DIRS": dirs])
        }
        XCTAssertEqual(run("rel").status, 1)
        XCTAssertEqual(run(h.config + "/work/rel").stdout, folder + "/com.t.json\n")
    }
}
