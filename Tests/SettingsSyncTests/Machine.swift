import Foundation
import PlistCodecs
import PlistModel
import SettingsStore
import TestSupport
import XCTest

@testable import SettingsSync

/// One machine in a scratch folder (its config, data and home folders, no git
/// configuration of the user's), with the repository a round works in made by the user's
/// git, and what these tests build a `Plan` from: trees of the repository, live domains.
final class Machine {
    let root: String
    let environment: Environment
    let store: DomainStore

    init(_ root: String, name: String = "a") throws {
        self.root = root
        let folder = root + "/" + name
        var variables = [
            "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data", "HOME": folder + "/home",
            "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": "\(name)@example.com", "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": "\(name)@example.com",
        ]
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment = Environment(variables)
        store = DomainStore(environment: environment)
        try FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
    }

    /// A scratch folder for one test's machines; skips the test when git cannot run.
    static func scratch() throws -> String {
        let root = NSTemporaryDirectory() + "settings-sync-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let git = try Git(directory: root, environment: Environment(ProcessInfo.processInfo.environment))
        guard (try? git.attempt(["--version"], outside: true))?.ok == true else { throw skip("git is not installed") }
        return root
    }

    /// The round of this machine, which the plans are made for.
    func round() throws -> SyncRound { try SyncRound(store: store, environment: environment) }

    /// The sync's own repository, made bare as `sync init` makes it, without a remote.
    func repository() throws -> Git {
        let git = try round().git
        let made = try git.attempt(["init", "-q", "--bare", git.directory], outside: true)
        XCTAssertTrue(made.ok, made.reason)
        return git
    }

    /// A tree of the repository holding each domain's values as a round writes them.
    func tree(_ domains: [String: PlistDictionary], _ git: Git) throws -> Tree {
        var entries: [TreeEntry] = []
        for (name, values) in domains { if let entry = try Plan.entry(name, values, git) { entries.append(entry) } }
        return Tree(entries.sorted(by: Tree.order), git)
    }

    /// The plan of a round that read `live` here and `remote` in the repository, with
    /// `base` (nil: none, a machine joining) the last agreed.
    func plan(
        base: [String: PlistDictionary]?, live: [String: PlistDictionary], remote: [String: PlistDictionary]
    ) throws -> Plan {
        let round = try round()
        let git = try repository()
        var domains: [String: SyncRound.Live] = [:]
        var prepared: [String: SyncRound.Prepared] = [:]
        for (name, values) in live {
            domains[name.lowercased()] = SyncRound.Live(
                name: name, print: "read", local: LocalKeys(patterns: [], names: []),
                path: store.path(of: .named(name)))
            prepared[name] = SyncRound.Prepared(values: .success(values), print: "read")
        }
        return try Plan(
            base: try tree(base ?? [:], git), remote: try tree(remote, git), live: domains, prepared: prepared,
            rules: SyncRules(patterns: [], ignore: []), state: SyncState(), round: round)
    }

    /// The values a plan's new tree holds for a domain, read back from its blob.
    func pushed(_ plan: Plan, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> PlistDictionary?
    {
        guard let entry = plan.entries.first(where: { $0.name == name + ".plist" }) else { return nil }
        let blobs = try round().git.blobs([entry])
        return try PlistFiles.dictionary(from: (blobs[entry.id] ?? nil) ?? [], name: entry.name)
    }
}
