import Foundation
import XCTest

/// A scratch config folder and the built binaries next to the tests.
struct Scratch {
    let directory = NSTemporaryDirectory() + "settingskit-\(UUID().uuidString)"

    init() { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    static let binaries: String = {
        if let dir = ProcessInfo.processInfo.environment["SETTINGS_BIN_DIR"] { return dir }
        var url = Bundle.main.bundleURL
        while url.path != "/",
            !FileManager.default.fileExists(atPath: url.appendingPathComponent("SettingsKitProbe").path)
        {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// Runs a binary with XDG_CONFIG_HOME set to the scratch folder, then `extra`.
    @discardableResult
    func run(
        _ name: String, _ arguments: [String], environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) -> String {
        let process = Process()
        let path = name.hasPrefix("/") ? name : Self.binaries + "/" + name
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = directory
        for (name, value) in extra { environment[name] = value }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        XCTAssertNoThrow(try process.run(), file: file, line: line)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(
            process.terminationStatus, 0, "\(name) \(arguments): \(String(decoding: e, as: UTF8.self))", file: file,
            line: line)
        return String(decoding: o, as: UTF8.self)
    }
}
