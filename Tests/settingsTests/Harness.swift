import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
@_exported import TestSupport
@testable import settings

/// Runs the built binaries in a throwaway config folder, as a user would.
struct Harness {
    let config: String

    init() {
        // A tool that exits before reading its input (a missing jq) must fail its test,
        // not end the whole run with SIGPIPE.
        _ = Self.ignoreBrokenPipes
        config = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: config)
        try? FileManager.default.removeItem(atPath: files)
        try? FileManager.default.removeItem(atPath: system)
        try? FileManager.default.removeItem(atPath: state)
        try? FileManager.default.removeItem(atPath: cache)
    }

    /// Where a test's own files go (`file`), beside the config folder.
    var files: String { config + "-files" }

    /// A file named `name` holding `text`, outside the config folder (a desired state, a
    /// snapshot); written again when named again. Removed by `cleanUp`.
    func file(_ name: String, _ text: String) -> String {
        try? FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        let path = files + "/" + name
        precondition(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), path)
        return path
    }

    /// The run's `$XDG_CACHE_HOME` (the key index of big domains), beside the config folder.
    var cache: String { config + "-cache" }

    /// The run's `$XDG_STATE_HOME` (apply's records, the journal), beside the config folder,
    /// so that a test's own files never show in `snapshot()` of the config folder.
    var state: String { config + "-state" }

    /// The run's `$XDG_CONFIG_DIRS`, beside the config folder: the machine's own
    /// `/etc/xdg` never reaches a test.
    var system: String { config + "-xdg" }

    /// Writes an administrator's file, `settings/LAYER/NAME` under `system`.
    func admin(_ layer: String, _ name: String, _ text: String, in folder: String? = nil) {
        let dir = (folder ?? system) + "/settings/" + layer
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8)))
    }

    /// The folder the test runner and the built products are in; SETTINGS_BIN_DIR
    /// points the suite at another build (a release one, say).
    static let binDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["SETTINGS_BIN_DIR"] { return dir }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("settings").path) {
                return url.path
            }
        }
        return ".build/debug"
    }()

    static let settings = binDirectory + "/settings"

    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// What the program chooses for its process (`main.swift`), for the command line run
    /// in this one.
    static let programsPolicy: Void = ProcessPolicy.adopt()

    /// Skips the test, naming the Debian package to install, when `tool` is not on PATH.
    /// CI installs every one of them, so there it skips nothing (its count would show it).
    static func require(_ tool: String, package: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
        if !found { throw skip("needs \(tool): apt-get install \(package)") }
    }
    static let probe = binDirectory + "/InteropProbe"
    static let canonScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Support/plist_canon.py").standardized.path

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Whether `run` calls the command line in this process (`CLI.run`) rather than
    /// spawning the binary: yes for the debug build, which is the module linked into the
    /// tests; no when SETTINGS_BIN_DIR names another build (CI runs this suite again
    /// against the release binary so, every command spawned end to end) or SETTINGS_SPAWN
    /// is set. Tests that need a process of their own (signals, kills, concurrent writers,
    /// argv[0], descriptors) spawn it with `exec`.
    static let inProcess: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["SETTINGS_BIN_DIR"] == nil && environment["SETTINGS_SPAWN"] == nil
    }()

    /// `settings ARGS…`, with the environment a spawned command would get.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) -> Result {
        guard Harness.inProcess else { return exec(Harness.settings, arguments, stdin: stdin, environment: extra) }
        _ = Harness.programsPolicy
        let out = Collected(), err = Collected()
        let status = CLI.run(
            arguments, environment: environment(extra), input: stdin.map { Array($0) } ?? [],
            output: out.append, error: err.append)
        return Result(status: status, stdout: out.text, stderr: err.text)
    }

    /// `settings ARGS…` run in this process (`CLI.run`) whatever `inProcess` says, with the
    /// calls the system door makes recorded (`CallTrace`): what a test counts of the
    /// files, descriptors and bytes a command uses. `unset` names variables taken out of
    /// the environment.
    func traced(
        _ arguments: [String], environment extra: [String: String] = [:], unset: [String] = [],
        threads: CallTrace.Threads = .this
    ) -> (result: Result, calls: [CallTrace.Call]) {
        var environment = environment(extra)
        for name in unset { environment[name] = nil }
        return Self.traced(arguments, in: environment, threads: threads)
    }

    /// `traced` in a whole environment of the caller's (a sync machine's).
    static func traced(_ arguments: [String], in environment: [String: String], threads: CallTrace.Threads = .this)
        -> (result: Result, calls: [CallTrace.Call])
    {
        _ = Harness.programsPolicy
        let out = Collected(), err = Collected()
        let (status, calls) = CallTrace.record(threads) {
            CLI.run(arguments, environment: environment, input: [], output: out.append, error: err.append)
        }
        return (Result(status: status, stdout: out.text, stderr: err.text), calls)
    }

    /// Bytes a run prints, gathered from whichever thread prints them.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        @Sendable func append(_ more: [UInt8]) { lock.withLock { bytes += more } }
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    }

    /// The test process's environment with the config folder, a home below it and no
    /// read retry, then `extra`.
    func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config
        environment["XDG_CONFIG_DIRS"] = system
        environment["HOME"] = config + "/home"
        environment["XDG_STATE_HOME"] = state
        environment["XDG_CACHE_HOME"] = cache
        // No waiting on a hostile or half-written file unless a test asks for the store's
        // retry (StoreBehaviourTests): it is what made the hostile-file tests slow.
        environment["SETTINGS_READ_RETRY"] = "0"
        for (k, v) in extra { environment[k] = v }
        return environment
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

    /// The binary started in the background (`watch`, `capture`) in this folder's
    /// environment, its output and error on pipes; the caller waits for it.
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

    /// `settings ARGS…` from an array, as `ok(_:…)`.
    @discardableResult
    func ok(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = run(arguments)
        XCTAssertEqual(r.status, 0, "settings \(arguments): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return r.stdout
    }

    func path(_ domain: String) -> String { config + "/" + domain + ".plist" }

    /// The peak memory (KB, the whole process) of `settings ARGS…` in this folder's
    /// environment, as GNU time reports it; it must exit 0. Not Python's `ru_maxrss` of
    /// a child it spawns: a child made with vfork (as `posix_spawn` makes it) is counted
    /// with its parent's peak, which was more than a small command's own.
    func peakKB(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        try Harness.require("time", package: "time")
        let r = exec("/usr/bin/time", ["-f", "%x %M", Harness.settings] + arguments)
        let fields = r.stderr.split(separator: "\n").last?.split(separator: " ").map { Int($0) ?? -1 } ?? []
        XCTAssertEqual(fields.first, 0, "\(arguments): \(r.stderr)", file: file, line: line)
        return fields.last ?? .max
    }

    func python(_ arguments: [String]) -> Result { exec("/usr/bin/env", ["python3", Self.canonScript] + arguments) }

    /// plistlib's canonical form of a file.
    func plistlibCanon(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        plistlib("canon", path, file: file, line: line)
    }

    /// A file as plistlib reads it, as JSON with sorted keys (for files of JSON's types).
    func plistlibJSON(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        plistlib("json", path, file: file, line: line)
    }

    private func plistlib(_ request: String, _ path: String, file: StaticString, line: UInt) -> String {
        let (ok, text) = Plistlib.shared.ask([request, path])
        XCTAssertTrue(ok, "plistlib \(request) \(path): \(text)", file: file, line: line)
        return ok ? text : ""
    }

    /// Every file in the config folder and its bytes, to show that nothing changed.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: config)
        while let name = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: config + "/" + name) { files[name] = data }
        }
        return files
    }
}

/// The lines of `undo`'s or `redo`'s output that say the change it made (`-/key = …`,
/// `+/key = …`), without the lines naming the changes it took back.
func changes(_ output: String) -> String {
    output.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
        .map { $0 + "\n" }.joined()
}

extension Harness {
    /// A process holding an exclusive `flock` on `path` (a file or a folder), as another
    /// writer would, started and holding it when this returns; `terminate()` lets it go.
    func holdingLock(on path: String) throws -> Process {
        let holder = Process()
        // flock(1) rather than Python, whose start alone costs more than the tests' waits;
        // `sleep` is the shell itself by exec, so terminate() ends the holder.
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", #"exec 9<"$1"; flock -x 9; echo locked; exec sleep 60"#, "sh", path]
        let said = Pipe()
        holder.standardOutput = said
        try holder.run()
        let line = said.fileHandleForReading.readData(ofLength: 7)
        guard String(decoding: line, as: UTF8.self) == "locked\n" else {
            holder.terminate()
            throw CocoaError(.fileLocking)
        }
        return holder
    }
}
