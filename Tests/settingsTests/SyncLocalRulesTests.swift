import Foundation
import XCTest

/// Issue 48: the rules that keep keys on one machine fail closed. A schema or an
/// administrator's file that cannot be used stops the round for its domain, as an
/// unreadable ignore file stops the round, and never lets a local key travel; a rule
/// deleted rejoins its key as a machine joining does, never pushing its old local value
/// over another machine's newer one.
final class SyncLocalRulesTests: SyncTestCase {
    private let schema = #"{"keys": {"token": {"type": "string", "sync": false}}}"#

    func testASchemaThatStopsParsingKeepsItsLocalKeysHere() throws {
        try world.schema("a", "com.app", schema)
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "token", "secret")
        on("a", "write", "com.app", "shared", "yes")
        on("a", "write", "com.two", "k", "-int", "1")
        on("a", "sync")
        XCTAssertFalse(world.remoteFile("com.app.plist").contains("secret"))
        // One stray comma, as an editor or an app leaves it.
        try world.schema("a", "com.app", #"{"keys": {"token": {"type": "string", "sync": false},}}"#)
        on("a", "write", "com.app", "shared", "changed")
        on("a", "write", "com.two", "k", "-int", "2")
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("com.app left out of this round"), round.stderr)
        XCTAssertTrue(round.stderr.contains("com.app.json"), round.stderr)
        XCTAssertEqual(round.stderr.split(separator: "\n").count, 1, round.stderr)
        let history = world.git(["--git-dir=" + world.remote, "log", "-p", "main"]).stdout
        XCTAssertFalse(history.contains("secret"), "the token never reaches the repository's history")
        XCTAssertTrue(world.remoteFile("com.two.plist").contains("<integer>2</integer>"), "the rest goes on")
        // Mended, the domain travels again, its local key still here only.
        try world.schema("a", "com.app", schema)
        XCTAssertEqual(on("a", "sync").stderr, "")
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("changed"))
        XCTAssertFalse(world.git(["--git-dir=" + world.remote, "log", "-p", "main"]).stdout.contains("secret"))
    }

    /// A schema out of reach is no "no schema" either: a link to nothing, a loop, the
    /// schemas folder a link to nothing or a file. (Found from outside: `stat` read each as
    /// "no file", and the token travelled.)
    func testASchemaOutOfReachKeepsItsLocalKeysHere() throws {
        let folder = world.config("a") + "/settings/schemas"
        try world.schema("a", "com.app", schema)
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "token", "secret")
        on("a", "write", "com.app", "shared", "yes")
        on("a", "sync")
        let fm = FileManager.default
        let breakages: [(String, () throws -> Void)] = [
            (
                "a link to nothing",
                { try fm.createSymbolicLink(atPath: folder + "/com.app.json", withDestinationPath: "gone") }
            ),
            (
                "a loop",
                { try fm.createSymbolicLink(atPath: folder + "/com.app.json", withDestinationPath: "com.app.json") }
            ),
            (
                "the folder a link to nothing",
                {
                    try fm.removeItem(atPath: folder)
                    try fm.createSymbolicLink(atPath: folder, withDestinationPath: "gone")
                }
            ),
            (
                "the folder a file",
                {
                    try fm.removeItem(atPath: folder)
                    try "".write(toFile: folder, atomically: false, encoding: .utf8)
                }
            ),
        ]
        for (i, (what, breakIt)) in breakages.enumerated() {
            try? fm.removeItem(atPath: folder + "/com.app.json")
            try breakIt()
            on("a", "write", "com.app", "token", "secret\(i)")
            on("a", "write", "com.app", "shared", "changed\(i)")
            let round = on("a", "sync")
            XCTAssertTrue(round.stderr.contains("com.app left out of this round"), "\(what): \(round.stderr)")
            let history = world.git(["--git-dir=" + world.remote, "log", "-p", "--all"]).stdout
            XCTAssertFalse(history.contains("secret"), what)
            // Mended.
            try? fm.removeItem(atPath: folder)
            try world.schema("a", "com.app", schema)
            XCTAssertEqual(on("a", "sync").stderr, "", what)
            XCTAssertTrue(world.remoteFile("com.app.plist").contains("changed\(i)"), what)
        }
        XCTAssertFalse(world.git(["--git-dir=" + world.remote, "log", "-p", "--all"]).stdout.contains("secret"))
    }

    func testAnIgnoreFileThatIsALinkToNothingStopsTheRound() throws {
        on("a", "sync", "init", world.remote)
        on("a", "write", "com.app", "token", "secret")
        try FileManager.default.createDirectory(
            atPath: world.config("a") + "/settings", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: world.config("a") + "/settings/syncignore", withDestinationPath: "gone")
        let round = on("a", "sync", status: nil)
        XCTAssertNotEqual(round.status, 0)
        XCTAssertTrue(round.stderr.contains("syncignore"), round.stderr)
        XCTAssertEqual(world.remoteFiles(), [])
    }

    func testAManagedFileThatCannotBeReadKeepsTheDomainHere() throws {
        let admin = world.work + "/a/admin"
        world.extra["a"] = ["XDG_CONFIG_DIRS": admin]
        let managed = admin + "/settings/managed"
        try FileManager.default.createDirectory(atPath: managed, withIntermediateDirectories: true)
        try #"{"token": "locked"}"#.write(toFile: managed + "/com.app.json", atomically: true, encoding: .utf8)
        on("a", "sync", "init", world.remote)
        try FileManager.default.createDirectory(atPath: world.config("a"), withIntermediateDirectories: true)
        try """
        <?xml version="1.0"?><plist version="1.0"><dict><key>token</key><string>secret</string>\
        <key>shared</key><string>yes</string></dict></plist>
        """.write(toFile: world.file("a"), atomically: true, encoding: .utf8)
        on("a", "sync")
        XCTAssertFalse(world.remoteFile("com.app.plist").contains("secret"))
        try "{not json".write(toFile: managed + "/com.app.json", atomically: true, encoding: .utf8)
        let round = on("a", "sync")
        XCTAssertTrue(round.stderr.contains("com.app left out of this round"), round.stderr)
        XCTAssertFalse(world.git(["--git-dir=" + world.remote, "log", "-p", "main"]).stdout.contains("secret"))
    }

    func testADeletedIgnoreLineRejoinsItsKeyAsAJoiningMachinesWould() throws {
        on("a", "sync", "init", world.remote)
        on("b", "sync", "init", world.remote)
        try world.ignore("b", "com.app:theme\n")
        on("a", "write", "com.app", "theme", "dark")
        on("a", "sync")
        on("b", "write", "com.app", "theme", "b's old local")
        on("b", "sync")
        XCTAssertEqual(world.live("b"), #"{"theme": "b's old local"}"#)
        // Another machine changes the shared value meanwhile.
        on("a", "write", "com.app", "theme", "light")
        on("a", "sync")
        on("b", "sync")
        // B deletes its rule: the key rejoins; the repository's newer value wins, B's is logged.
        try world.ignore("b", "")
        let round = on("b", "sync")
        XCTAssertTrue(round.stderr.contains(#"ours "b's old local", theirs "light""#), round.stderr)
        XCTAssertEqual(world.live("b"), #"{"theme": "light"}"#)
        XCTAssertTrue(world.remoteFile("com.app.plist").contains("light"))
        XCTAssertTrue(on("b", "sync", "log").stdout.contains("b's old local"))
        on("a", "sync")
        XCTAssertEqual(world.live("a"), #"{"theme": "light"}"#)
    }
}
