import Foundation
import XCTest
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore
@_exported import TestSupport

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

    func cleanUp() { try? FileManager.default.removeItem(atPath: config) }

    /// The folder the test runner and the built products are in; SETTINGS_BIN_DIR
    /// points the suite at another build (a release one, say).
    static let binDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["SETTINGS_BIN_DIR"] { return dir }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("settings").path) { return url.path }
        }
        return ".build/debug"
    }()

    static let settings = binDirectory + "/settings"

    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Skips the test, naming the Debian package to install, when `tool` is not on PATH.
    /// CI installs every one of them, so there it skips nothing (its count would show it).
    static func require(_ tool: String, package: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        if !found { throw XCTSkip("needs \(tool): apt-get install \(package)") }
    }
    static let probe = binDirectory + "/InteropProbe"
    static let canonScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Support/plist_canon.py").standardized.path

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// `settings ARGS…`.
    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) -> Result {
        exec(Harness.settings, arguments, stdin: stdin, environment: extra)
    }

    @discardableResult
    func exec(_ executable: String, _ arguments: [String], stdin: Data? = nil,
              environment extra: [String: String] = [:]) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config
        environment["HOME"] = config + "/home"
        // No waiting on a hostile or half-written file unless a test asks for the store's
        // retry (StoreBehaviourTests): it is what made the hostile-file tests slow.
        environment["SETTINGS_READ_RETRY"] = "0"
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        do { try process.run() } catch { XCTFail("cannot run \(executable): \(error)"); return Result(status: -1, stdout: "", stderr: "") }
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    /// `settings ARGS…`, failing the test unless it exits 0 with nothing on stderr.
    @discardableResult
    func ok(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = run(arguments)
        XCTAssertEqual(r.status, 0, "settings \(arguments): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        return r.stdout
    }

    func path(_ domain: String) -> String { config + "/" + domain + ".plist" }

    func python(_ arguments: [String]) -> Result { exec("/usr/bin/env", ["python3", Self.canonScript] + arguments) }

    /// plistlib's canonical form of a file.
    func plistlibCanon(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = python(["canon", path])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return r.stdout.trimmingCharacters(in: .newlines)
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
