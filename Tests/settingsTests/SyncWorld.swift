import Foundation
import XCTest

@testable import settings

/// Machines that sync through one bare repository on disk, with real git: each machine is
/// its own config, data and home folders and git identity. An attacker is a plain clone
/// of the same repository, committing whatever it likes.
final class SyncWorld {
    let h: Harness
    let work: String
    var remote: String { work + "/remote.git" }
    /// Machines with no git identity at all.
    var anonymous: Set<String> = []
    /// Variables one machine's processes get besides its folders (its own XDG_CONFIG_DIRS).
    var extra: [String: [String: String]] = [:]

    init(_ h: Harness, branch: String = "main") throws {
        self.h = h
        work = h.config + "-sync"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // No template (its sample hooks are files to copy each test), and no `gc --auto`
        // after each push: a process per round that never finds anything to pack.
        let r = h.exec("/usr/bin/env", ["git", "init", "-q", "--bare", "--template=", "-b", branch, remote])
        XCTAssertEqual(r.status, 0, r.stderr)
        let config = try FileHandle(forWritingTo: URL(fileURLWithPath: remote + "/config"))
        try config.seekToEnd()
        try config.write(contentsOf: Data("[receive]\n\tautogc = false\n".utf8))
        try config.close()
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: work) }

    /// One machine's folders and identity (`identity: false`: none at all).
    func machine(_ name: String) -> [String: String] {
        var environment = [
            "XDG_CONFIG_HOME": "\(work)/\(name)/config", "XDG_DATA_HOME": "\(work)/\(name)/data",
            "HOME": "\(work)/\(name)/home", "GIT_CONFIG_GLOBAL": "\(work)/\(name)/gitconfig",
            "GIT_CONFIG_NOSYSTEM": "1",
            // No `git maintenance run --auto` after each fetch: a process per round that
            // never finds anything to do in a test's few commits.
            "GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "maintenance.auto", "GIT_CONFIG_VALUE_0": "false",
            // No fsync of packs and refs: the tests kill processes, never the machine, and a
            // disk flush per push and fetch was seconds of the suite.
            "GIT_CONFIG_KEY_1": "core.fsync", "GIT_CONFIG_VALUE_1": "none",
        ]
        if !anonymous.contains(name) {
            environment["GIT_AUTHOR_NAME"] = name
            environment["GIT_AUTHOR_EMAIL"] = "\(name)@example.com"
            environment["GIT_COMMITTER_NAME"] = name
            environment["GIT_COMMITTER_EMAIL"] = "\(name)@example.com"
        }
        return environment
    }

    /// The environment a machine's process gets (the test's, with the machine's folders).
    func environment(_ name: String, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = h.environment(machine(name))
        // A git identity the test process may have must not reach a machine without one.
        for variable in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"]
        where machine(name)[variable] == nil {
            environment[variable] = nil
        }
        for (k, v) in self.extra[name] ?? [:] { environment[k] = v }
        for (k, v) in extra { environment[k] = v }
        return environment
    }

    @discardableResult
    func on(
        _ name: String, _ arguments: String..., status: Int32? = 0, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) -> Harness.Result {
        run(name, arguments, status: status, extra: extra, file: file, line: line)
    }

    @discardableResult
    func run(
        _ name: String, _ arguments: [String], status: Int32? = 0, extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) -> Harness.Result {
        let r = Harness.inProcess && extra.isEmpty ? inProcess(name, arguments) : spawned(name, arguments, extra)
        if let status {
            XCTAssertEqual(r.status, status, "\(name): settings \(arguments): \(r.stderr)", file: file, line: line)
        }
        return r
    }

    /// A machine's command run in this process (`CLI.run`), as `Harness.run` runs one with
    /// the debug build: a process each was most of a sync test's time. One given variables of
    /// its own runs as a process (`spawned`): a wrapper's PATH is looked up in the
    /// environment of the process that starts git, and a hook signals `settings` by name.
    private func inProcess(_ name: String, _ arguments: [String]) -> Harness.Result {
        _ = Harness.programsPolicy
        let out = Harness.Collected(), err = Harness.Collected()
        let status = CLI.run(
            arguments, environment: environment(name), input: [], output: out.append, error: err.append)
        return Harness.Result(status: status, stdout: out.text, stderr: err.text)
    }

    /// A machine's command as its own process of the binary.
    private func spawned(_ name: String, _ arguments: [String], _ extra: [String: String]) -> Harness.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = arguments
        process.environment = environment(name, extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try! process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Harness.Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// A machine's config folder and the path of one of its domains.
    func config(_ name: String) -> String { "\(work)/\(name)/config" }
    func file(_ name: String, _ domain: String = "com.app") -> String { "\(config(name))/\(domain).plist" }
    func syncFolder(_ name: String) -> String { "\(work)/\(name)/data/settings/sync" }

    /// The domain on a machine, as plistlib reads its live file (sorted JSON); nil when
    /// it has no file.
    func live(_ name: String, _ domain: String = "com.app", file: StaticString = #filePath, line: UInt = #line)
        -> String?
    {
        let path = self.file(name, domain)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return json(path, file: file, line: line)
    }

    func json(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let (ok, text) = Plistlib.shared.ask(["load", path])
        XCTAssertTrue(ok, text, file: file, line: line)
        return ok ? text : ""
    }

    /// git, run in the test's environment with a fixed identity.
    @discardableResult
    func git(_ arguments: [String], in folder: String? = nil, file: StaticString = #filePath, line: UInt = #line)
        -> Harness.Result
    {
        let r = h.exec(
            "/usr/bin/env", ["git"] + (folder.map { ["-C", $0] } ?? []) + arguments,
            environment: [
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
            ])
        XCTAssertEqual(r.status, 0, "git \(arguments): \(r.stderr)", file: file, line: line)
        return r
    }

    /// The names in the remote's branch tip, and one file's bytes there.
    /// (None when the branch has no commit yet.)
    func remoteFiles(_ branch: String = "main") -> [String] {
        let r = h.exec("/usr/bin/env", ["git", "--git-dir=" + remote, "ls-tree", "--name-only", "-z", branch])
        return r.status == 0 ? r.stdout.split(separator: "\0").map(String.init) : []
    }

    func remoteFile(_ name: String, _ branch: String = "main") -> String {
        git(["--git-dir=" + remote, "show", "\(branch):\(name)"]).stdout
    }

    /// An attacker's (or a plain user's) clone with a work tree: `change` edits it, then
    /// it commits everything and pushes.
    func push(
        from clone: String = "evil", _ change: (String) throws -> Void, file: StaticString = #filePath,
        line: UInt = #line
    )
        rethrows
    {
        let folder = "\(work)/\(clone)"
        if !FileManager.default.fileExists(atPath: folder) {
            git(["clone", "-q", remote, folder], file: file, line: line)
        } else {
            git(["pull", "-q", "--rebase"], in: folder, file: file, line: line)
        }
        try change(folder)
        git(["add", "-A"], in: folder, file: file, line: line)
        git(["commit", "-q", "-m", "change", "--allow-empty"], in: folder, file: file, line: line)
        git(["push", "-q", "origin", "HEAD"], in: folder, file: file, line: line)
    }

    /// Writes a schema for a domain on a machine.
    func schema(_ name: String, _ domain: String, _ json: String) throws {
        let folder = "\(config(name))/settings/schemas"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try json.write(toFile: "\(folder)/\(domain).json", atomically: true, encoding: .utf8)
    }

    /// Writes a machine's ignore file.
    func ignore(_ name: String, _ text: String) throws {
        let folder = "\(config(name))/settings"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: "\(folder)/syncignore", atomically: true, encoding: .utf8)
    }
}

/// A test case with a fresh world of machines per test (git must be installed: CI
/// installs it, so there nothing is skipped).
class SyncTestCase: XCTestCase {
    var h: Harness!
    var world: SyncWorld!

    override func setUpWithError() throws {
        try Harness.require("git", package: "git")
        h = Harness()
        world = try SyncWorld(h)
    }

    override func tearDown() {
        world.cleanUp()
        h.cleanUp()
    }

    /// `settings ARGUMENTS…` on a machine, its exit status checked unless `status` is nil.
    @discardableResult
    func on(
        _ name: String, _ arguments: String..., status: Int32? = 0, extra: [String: String] = [:], line: UInt = #line
    ) -> Harness.Result {
        world.run(name, arguments, status: status, extra: extra, line: line)
    }
}

extension SyncWorld {
    /// A `git` first on PATH that runs `script` (sh, `$REAL` the real git, `$HIT` a file
    /// to touch when the fault it injects happens) and else execs the real git. The PATH
    /// to give a machine's process.
    func gitWrapper(_ script: String) throws -> String {
        let real = git(["--exec-path"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/git"
        let helpers = work + "/helpers"
        try FileManager.default.createDirectory(atPath: helpers, withIntermediateDirectories: true)
        try "#!/bin/sh\nREAL=\(real)\nHIT=\(hit)\n\(script)\nexec \"$REAL\" \"$@\"\n".write(
            toFile: helpers + "/git", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: helpers + "/git")
        return helpers + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// The file a wrapper or hook touches when its fault happened: a test checks it, so
    /// none passes by its fault never happening.
    var hit: String { work + "/hit" }
    var wasHit: Bool { FileManager.default.fileExists(atPath: hit) }

    /// A ref of a machine's sync repository ("" when there is none).
    func ref(_ name: String, _ ref: String) -> String {
        h.exec(
            "/usr/bin/env", ["git", "--git-dir=" + syncFolder(name) + "/repo.git", "rev-parse", "-q", "--verify", ref]
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension SyncWorld {
    /// Starts `settings sync` on a machine, its output dropped, and kills it (SIGKILL)
    /// after `seconds`.
    func killed(_ name: String, after seconds: Double) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.settings)
        process.arguments = ["sync"]
        process.environment = environment(name)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
