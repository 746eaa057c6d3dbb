import Foundation
import XCTest

/// A private D-Bus session for one test, as `dbus-run-session` gives one: its own
/// `dbus-daemon`, which starts dconf's service on first use, writing the test's own
/// `XDG_CONFIG_HOME/dconf/user`. `gsettings`, `dconf` and `settings` all run in it.
final class DesktopSession {
    let h: Harness
    let runtime: String
    private let daemon: Process
    /// What every program of the session is given beside the harness's environment.
    let variables: [String: String]

    /// `tag`: a second session of the same test (another machine) has its own bus.
    /// `dconf`: the command the bus starts for dconf's service in place of Debian's (an
    /// empty string: none at all), for a service that fails or lies.
    init(_ h: Harness, extra: [String: String] = [:], tag: String = "", dconf: String? = nil) throws {
        try Harness.require("dbus-daemon", package: "dbus-daemon")
        try Harness.require("dconf", package: "dconf-cli")
        try Harness.require("gsettings", package: "libglib2.0-bin")
        self.h = h
        runtime = h.config + "-run" + tag
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        daemon.arguments = [
            "dbus-daemon", "--session", "--nofork", "--print-address=1", "--address=unix:path=\(runtime)/bus",
        ]
        if let dconf {
            // A bus of its own configuration: only this folder's services can be started.
            let services = runtime + "/services"
            try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
            if !dconf.isEmpty {
                try "[D-BUS Service]\nName=ca.desrt.dconf\nExec=\(dconf)\n".write(
                    toFile: services + "/ca.desrt.dconf.service", atomically: true, encoding: .utf8)
            }
            let config = """
                <busconfig>
                  <type>session</type>
                  <listen>unix:path=\(runtime)/bus</listen>
                  <servicedir>\(services)</servicedir>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                </busconfig>

                """
            try config.write(toFile: runtime + "/bus.conf", atomically: true, encoding: .utf8)
            daemon.arguments = ["dbus-daemon", "--config-file=\(runtime)/bus.conf", "--nofork", "--print-address=1"]
        }
        let base = ["XDG_RUNTIME_DIR": runtime, "GSETTINGS_BACKEND": "dconf"].merging(extra) { $1 }
        daemon.environment = h.environment(base)
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else { throw XCTSkip("dbus-daemon gave no address") }
        variables = base.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    func stop() {
        daemon.terminate()
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(atPath: runtime)
    }

    /// `settings` in the session.
    func run(_ arguments: [String], stdin: Data? = nil, extra: [String: String] = [:]) -> Harness.Result {
        h.run(arguments, stdin: stdin, environment: variables.merging(extra) { $1 })
    }

    /// `settings`, which must succeed; its output.
    func ok(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> String {
        let r = run(arguments)
        XCTAssertEqual(r.status, 0, "settings \(arguments.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r.stdout
    }

    /// A program started in the session and left running (a watch, a monitor, one writer
    /// among others): `settings` unless `program` is given, its output where given (else
    /// the test's own), in the session's environment unless `environment` is given.
    func start(
        _ arguments: [String], program: String = Harness.settings, output: Any? = nil, errors: Any? = nil,
        environment: [String: String]? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment ?? h.environment(variables)
        if let output { process.standardOutput = output }
        if let errors { process.standardError = errors }
        try process.run()
        return process
    }

    /// GLib's own tools (`gsettings`, `dconf`) in the session.
    @discardableResult
    func tool(_ arguments: [String], stdin: Data? = nil) -> Harness.Result {
        h.exec("/usr/bin/env", arguments, stdin: stdin, environment: variables)
    }

    /// `gsettings get`'s text, without its newline.
    func gsettings(_ schema: String, _ key: String) -> String {
        tool(["gsettings", "get", schema, key]).stdout.trimmingCharacters(in: .newlines)
    }
}
