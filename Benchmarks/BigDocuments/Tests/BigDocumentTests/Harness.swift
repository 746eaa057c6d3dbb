import Foundation
import XCTest

/// The release binary in a throwaway config folder, as a user runs it: the root suite's
/// `Harness` (Tests/settingsTests), with every command spawned (this package links none
/// of the root package's code).
struct Harness {
    let config: String

    init() {
        _ = Self.ignoreBrokenPipes
        config = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    }

    func cleanUp() {
        for folder in [config, state, cache] { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// The run's `$XDG_CACHE_HOME` (the key index of big domains), beside the config folder.
    var cache: String { config + "-cache" }

    /// The run's `$XDG_STATE_HOME` (the journal), beside the config folder.
    var state: String { config + "-state" }

    /// The folder the built `settings` is in: SETTINGS_BIN_DIR, else the root package's
    /// release build (`swift build -c release` at the root), which CI builds first.
    static let binDirectory: String =
        ProcessInfo.processInfo.environment["SETTINGS_BIN_DIR"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../.build/release").standardized.path

    static let settings = binDirectory + "/settings"

    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Skips the test (fails it under SETTINGS_NO_SKIP), naming the Debian package to
    /// install, when `tool` is not on PATH.
    static func require(_ tool: String, package: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
        if !found { throw skip("needs \(tool): apt-get install \(package)") }
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The test process's environment with the config folder, a home below it and no
    /// read retry, then `extra`.
    func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config
        environment["XDG_CONFIG_DIRS"] = config + "-xdg"
        environment["HOME"] = config + "/home"
        environment["XDG_STATE_HOME"] = state
        environment["XDG_CACHE_HOME"] = cache
        environment["SETTINGS_READ_RETRY"] = "0"
        for (k, v) in extra { environment[k] = v }
        return environment
    }

    /// `settings ARGS…`, spawned.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) -> Result {
        exec(Harness.settings, arguments, stdin: stdin, environment: extra)
    }

    @discardableResult
    func exec(
        _ executable: String, _ arguments: [String], stdin: Data? = nil,
        environment extra: [String: String] = [:]
    ) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment(extra)
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        do { try process.run() } catch {
            XCTFail("cannot run \(executable): \(error)"); return Result(status: -1, stdout: "", stderr: "")
        }
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// The binary started in the background in this folder's environment, its output and
    /// error on pipes; the caller waits for it.
    func start(_ arguments: [String]) throws -> (process: Process, output: Pipe, error: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = arguments
        process.environment = environment([:])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// `settings ARGS…`, failing the test unless it exits 0 with nothing on stderr.
    @discardableResult
    func ok(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> String {
        ok(arguments, file: file, line: line)
    }

    @discardableResult
    func ok(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = run(arguments)
        XCTAssertEqual(r.status, 0, "settings \(arguments): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return r.stdout
    }

    func path(_ domain: String) -> String { config + "/" + domain + ".plist" }

    /// The peak memory (KB, the whole process) of `settings ARGS…`, as GNU time reports
    /// it; it must exit 0.
    func peakKB(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        try Harness.require("time", package: "time")
        let r = exec("/usr/bin/time", ["-f", "%x %M", Harness.settings] + arguments)
        let fields = r.stderr.split(separator: "\n").last?.split(separator: " ").map { Int($0) ?? -1 } ?? []
        XCTAssertEqual(fields.first, 0, "\(arguments): \(r.stderr)", file: file, line: line)
        return fields.last ?? .max
    }
}
