import Foundation
import XCTest

/// Issue 48 §9: a token in the remote's URL (its whole user part, as hosting services take
/// one, or a query value) is never printed, never written beside git's own config, and
/// never a process's argument, which every user of the machine can read
/// (`/proc/PID/cmdline`). A `git` first on PATH logs every argument it is given, then runs
/// the real git.
final class SyncSecretTests: SyncTestCase {
    /// The wrapper's log: one argument a line, `--` after each process's.
    private var argv: String { world.work + "/argv.log" }

    /// PATH with the logging `git` first.
    private func wrappedPath() throws -> [String: String] {
        let log = """
            for argument in "$@"; do printf '%s\\n' "$argument"; done >>'\(argv)'
            printf -- '--\\n' >>'\(argv)'
            """
        return ["PATH": try world.gitWrapper(log)]
    }

    /// What `run` printed, and every file of the machine's sync folder but git's config.
    private func files(_ machine: String) -> [String: String] {
        let folder = world.syncFolder(machine)
        var found: [String: String] = [:]
        for case let file as String in FileManager.default.enumerator(atPath: folder) ?? .init() {
            guard file != "repo.git/config", let data = FileManager.default.contents(atPath: folder + "/" + file)
            else { continue }
            found[file] = String(decoding: data, as: UTF8.self)
        }
        return found
    }

    func testATokenInTheRemotesURLIsNeverAnArgumentNorShownNorWritten() throws {
        let tokens = ["ghp_USERPARTTOKEN", "QUERYTOKEN"]
        let withUser = "https://\(tokens[0])@example.invalid/me/settings.git"
        let withQuery = "https://example.invalid/me/settings.git?access_token=\(tokens[1])"
        // git reaches the repository on disk for both, as it would a host: the URLs given
        // to settings are the ones with tokens.
        for machine in ["a", "b"] {
            let rules = """
                [url "\(world.remote)"]
                \tinsteadOf = \(withUser)
                \tinsteadOf = \(withQuery)

                """
            try FileManager.default.createDirectory(
                atPath: world.work + "/" + machine, withIntermediateDirectories: true)
            try rules.write(toFile: world.work + "/\(machine)/gitconfig", atomically: true, encoding: .utf8)
        }
        let path = try wrappedPath()
        var printed: [String] = []
        func run(_ machine: String, _ arguments: String..., status: Int32 = 0, line: UInt = #line) -> Harness.Result {
            let r = world.run(machine, arguments, status: status, extra: path, line: line)
            printed += [r.stdout, r.stderr]
            return r
        }
        // The remote is empty: its unborn HEAD's branch is learnt all the same.
        XCTAssertTrue(run("a", "sync", "init", withUser).stdout.contains("https://***@example.invalid/me/settings.git"))
        XCTAssertTrue(run("a", "sync", "status").stdout.contains("(branch main)"))
        _ = run("a", "write", "com.app", "z", "from a")
        _ = run("a", "sync")
        XCTAssertEqual(world.remoteFiles(), ["com.app.plist"])
        _ = run("b", "sync", "init", withQuery)
        _ = run("b", "write", "com.app", "z", "from b")
        _ = run("b", "sync")
        XCTAssertTrue(run("b", "sync", "log").stdout.contains(#"ours "from b""#))
        XCTAssertTrue(run("a", "sync", "remote", withQuery).stdout.contains("?access_token=***"))
        XCTAssertTrue(run("b", "sync", "remote", withUser).stdout.contains("https://***@example.invalid"))
        _ = run("a", "sync")
        // Every failed round names the remote, and so does the status.
        try FileManager.default.moveItem(atPath: world.remote, toPath: world.remote + ".away")
        XCTAssertTrue(
            run("a", "sync", status: 4).stderr.contains(
                "cannot reach https://example.invalid/me/settings.git?access_token=***"))
        XCTAssertTrue(run("b", "sync", status: 4).stderr.contains("cannot reach https://***@example.invalid/me"))
        try FileManager.default.moveItem(atPath: world.remote + ".away", toPath: world.remote)
        XCTAssertTrue(run("a", "sync", "status").stdout.contains("failed: cannot reach https://example.invalid/"))
        XCTAssertTrue(run("b", "sync", "status").stdout.contains("remote: https://***@example.invalid/me/settings.git"))
        _ = run("a", "sync")
        _ = run("b", "sync")
        XCTAssertEqual(world.live("a"), #"{"z": "from a"}"#)
        var written: [String: String] = [:]
        for machine in ["a", "b"] { for (file, text) in files(machine) { written[machine + ": " + file] = text } }
        XCTAssertNotNil(written["a: last"])
        XCTAssertNotNil(written["b: log"])
        XCTAssertTrue(run("b", "sync", "leave").stdout.contains("https://***@example.invalid"))

        let arguments = try String(contentsOfFile: argv, encoding: .utf8)
        // The wrapper ran: init's, each round's and `sync remote`'s git.
        for word in ["init", "ls-remote", "fetch", "push", "config"] {
            XCTAssertTrue(arguments.contains("\n\(word)\n"), "no git \(word) in the log:\n\(arguments)")
        }
        for token in tokens {
            XCTAssertFalse(arguments.contains(token), "\(token) was an argument:\n\(arguments)")
            for text in printed { XCTAssertFalse(text.contains(token), text) }
            for (file, text) in written { XCTAssertFalse(text.contains(token), "\(file): \(text)") }
        }
        // git's config holds it, as it must.
        let config = try String(contentsOfFile: world.syncFolder("a") + "/repo.git/config", encoding: .utf8)
        XCTAssertTrue(config.contains(tokens[1]), config)
    }

    /// A remote that cannot be reached: git's own messages name it, with the token, and
    /// what settings prints and keeps has it hidden; git was never given it.
    func testATokenInAnUnreachableRemoteIsHiddenInGitsMessages() throws {
        let path = try wrappedPath()
        let url = "http://USERTOKEN@127.0.0.1:9/settings.git?private_token=QUERYTOKEN"
        let failed = world.run("a", ["sync", "init", url], status: 4, extra: path)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("http://***@127.0.0.1:9/settings.git?private_token=***"), failed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: world.syncFolder("a")))
        world.run("a", ["sync", "init", world.remote], extra: path)
        let set = world.run("a", ["sync", "remote", url], extra: path)
        let round = world.run("a", ["sync"], status: 4, extra: path)
        let status = world.run("a", ["sync", "status"], extra: path)
        XCTAssertTrue(status.stdout.contains("failed: cannot reach http://***@127.0.0.1:9/"), status.stdout)
        let arguments = try String(contentsOfFile: argv, encoding: .utf8)
        XCTAssertTrue(arguments.contains("\nfetch\n"), arguments)
        for token in ["USERTOKEN", "QUERYTOKEN"] {
            XCTAssertFalse(arguments.contains(token), arguments)
            for text in [failed.stderr, set.stdout, round.stderr, status.stdout] {
                XCTAssertFalse(text.contains(token), text)
            }
            for (file, text) in files("a") { XCTAssertFalse(text.contains(token), "\(file): \(text)") }
        }
    }

    /// A remote no URL could be (a control character in it) is refused before anything is
    /// made or changed.
    func testARemoteWithAControlCharacterIsRefused() {
        let r = on("a", "sync", "init", world.remote + "\n[core]", status: 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: world.syncFolder("a")))
        on("a", "sync", "init", world.remote)
        on("a", "sync", "remote", "https://h/r\u{9B}2J", status: 2)
        XCTAssertTrue(on("a", "sync", "status").stdout.contains("remote: \(world.remote) (branch main)"))
    }
}
