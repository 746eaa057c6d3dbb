import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsStore
import SettingsSync

/// `settings sync`: the words parsed and the reports printed; the rounds, the repository
/// and the state are SettingsSync's (`SyncRound`, `SyncSetup`). Every line printed has its
/// control characters escaped (`say`): names and keys come from other machines, and a C1
/// control (U+009B, a terminal's command) is no more printed raw than a newline.
enum SyncCommand {
    static func sync(_ context: inout Context, _ arguments: [Token]) throws {
        let environment = context.streams.environment
        let rest = Array(arguments.dropFirst()).map(\.text)
        do {
            switch arguments.first?.text {
            case nil: try round(&context, cancel: nil)
            case "--watch"?: try watch(&context, Array(arguments.dropFirst()))
            case "init"?:
                guard let remote = rest.first else { throw CLIError.usage("sync init needs a remote") }
                try checkDesktopPatterns(Array(rest.dropFirst()))
                say(
                    try SyncSetup.initialize(
                        remote: remote, patterns: Array(rest.dropFirst()), environment: environment),
                    &context)
            case "status"?:
                try expectAtMost(1, arguments)
                try status(&context)
            case "log"?:
                try expectAtMost(1, arguments)
                // Escaped as printed, for lines an older version logged raw.
                let folder = SyncFolder(environment: environment)
                let log = String(decoding: try folder.logTail(), as: UTF8.self)
                for line in log.split(separator: "\n") { say(String(line), &context) }
            case "leave"?:
                try expectAtMost(1, arguments)
                say(try SyncSetup.leave(environment: environment), &context)
            case "remote"?:
                guard let url = rest.first else { throw CLIError.usage("sync remote needs a URL") }
                try expectAtMost(2, arguments)
                say(try SyncSetup.setRemote(url, environment: environment), &context)
            case "carry"?:
                try checkDesktopPatterns(rest)
                say(try SyncSetup.setPatterns(rest, environment: environment), &context)
            case let word?: throw CLIError.unexpectedArgument(word)
            }
        }
    }

    /// Desktop domains travel as `gsettings:SCHEMA` (a pattern such as
    /// `gsettings:org.gnome.desktop.*`): a `dconf:` folder or a relocatable schema's path has
    /// no schema to check another machine's values against, and is refused, never taken
    /// for a plist file's name.
    private static func checkDesktopPatterns(_ patterns: [String]) throws {
        for pattern in patterns where DesktopDomain.isDesktop(pattern) {
            let id = pattern.drop { $0 != ":" }.dropFirst()
            if pattern.lowercased().hasPrefix(DesktopDomain.schemaPrefix),
                !pattern.hasPrefix(DesktopDomain.schemaPrefix)
            {
                throw CLIError.usage("write the prefix of \(pattern) in lower case, as gsettings:SCHEMA")
            }
            guard pattern.hasPrefix(DesktopDomain.schemaPrefix), !id.isEmpty, !id.contains(":"), !id.contains("/")
            else {
                throw CLIError.usage(
                    "sync carries desktop keys as gsettings:SCHEMA (a pattern such as gsettings:org.gnome.desktop.*), "
                        + "not \(pattern): a dconf folder or a schema's path has no schema to check values against")
            }
        }
    }

    /// A line on standard output, its control characters escaped.
    private static func say(_ line: String, _ context: inout Context) {
        context.print(CanonicalText.controlsEscaped(line))
    }

    /// One round; its summary, each conflict and note as a warning. `quietWhenIdle`: a
    /// watch prints nothing for a round that carried nothing.
    private static func round(_ context: inout Context, cancel: CancelSignal?, quietWhenIdle: Bool = false) throws {
        var round = try SyncRound(store: context.store, environment: context.streams.environment, cancel: cancel)
        let desktop = context.desktopStore()
        round.desktop = DesktopSync(desktop)
        let report = try round.run()
        context.note(desktop)
        if report.rewritten { context.warn("the remote's history was rewritten; merged as a join") }
        // Escaped as the log has them (`warn` would escape them otherwise, differently).
        for line in report.conflicts + report.notes { context.warn(CanonicalText.controlsEscaped(line)) }
        let carried = !report.exported.isEmpty || !report.imported.isEmpty
        guard carried || !quietWhenIdle else { return }
        var line = "sync: exported \(report.exported.count), imported \(report.imported.count)"
        if !report.imported.isEmpty { line += " (\(report.imported.joined(separator: ", ")))" }
        say(line, &context)
    }

    /// `sync --watch [--interval S]`: a round now, then one after local changes settle (a
    /// second without another; a plist domain's or the dconf database's) and one every S
    /// seconds (default 60) for the other machines'. SIGINT or SIGTERM ends it with status
    /// 0 within seconds: a git process under way is stopped, and the next round finishes
    /// what that one began. A round that fails is one line, and the loop goes on; an idle
    /// round prints nothing.
    private static func watch(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        let interval =
            try GitCommand.takeOption("--interval", from: &arguments).map { text -> Double in
                guard let seconds = Seconds.parse(text, from: 0, upTo: WatchCommand.maximumTimeout), seconds > 0 else {
                    throw CLIError.badValue(
                        flag: "--interval", text: text,
                        expected: "a number of seconds above 0, up to \(Int(WatchCommand.maximumTimeout))")
                }
                return seconds
            } ?? 60
        try expectAtMost(0, arguments)
        let stop: CancelSignal, inotify: Inotify
        do {
            (stop, inotify) = (try CancelSignal(), try Inotify())
            try FileSystem.makeDirectories(context.store.directory)
            _ = try inotify.watch(context.store.directory, Inotify.folderEvents)
        } catch {
            throw StoreError.unreadable(path: context.store.directory, error)
        }
        // dconf's service replaces the user's database by a rename on each change: a
        // carried desktop key changed is a round a second later too, not at the interval.
        let database = DesktopStore(environment: context.store.environment).profile.userDatabase
        let databaseFolder = database.map(Path.directory(of:))
        // A fresh user has no dconf folder yet: it is watched once it appears in the config
        // folder (dconf's service makes it at its first change).
        var databaseWatched = databaseFolder.map { (try? inotify.watch($0, Inotify.folderEvents)) != nil } ?? true
        let databaseName = database.map(Path.lastComponent(of:))
        let databaseFolderName = databaseFolder.map(Path.lastComponent(of:))
        if context.streams.processEndsAfterRun { stop.raisedOnTerminationSignals() }
        var quiet: Double? = nil
        while true {
            do { try round(&context, cancel: stop, quietWhenIdle: true) } catch SyncError.cancelled {
                break
            } catch {
                context.report(error)
            }
            try? context.streams.output(context.output)
            context.streams.error(context.error)
            (context.output, context.error) = ([], [])
            // Wait for a change of a domain file, then for it to settle, or for the interval.
            var wake: Inotify.Wake
            repeat {
                do { wake = try inotify.wait(seconds: quiet ?? interval, cancel: stop) } catch {
                    throw StoreError.unreadable(path: context.store.directory, error)
                }
                if wake == .events {
                    let names = (try? inotify.events())?.map(\.name) ?? []
                    if names.contains(where: { ($0.hasSuffix(".plist") && !$0.hasPrefix(".")) || $0 == databaseName }) {
                        quiet = 1
                    }
                    if !databaseWatched, let databaseFolder, names.contains(where: { $0 == databaseFolderName }),
                        (try? inotify.watch(databaseFolder, Inotify.folderEvents)) != nil
                    {
                        databaseWatched = true
                        quiet = 1
                    }
                }
            } while wake == .events
            if wake == .cancelled { break }
            quiet = nil
        }
        // Stopping is how a watch ends: a failed round it went on from is not its status.
        context.status = 0
    }

    /// `sync status`: the remote, the last round, the domains carried and the conflicts kept.
    private static func status(_ context: inout Context) throws {
        let environment = context.streams.environment
        guard let status = try SyncSetup.status(environment: environment, configDirectory: context.store.directory)
        else {
            say("not syncing: settings sync init REMOTE", &context)
            return
        }
        say("remote: \(status.remote) (branch \(status.branch))", &context)
        say("folder: \(status.folder)", &context)
        say("last round: \(status.lastRound)", &context)
        let rules = SyncRules(patterns: status.patterns, ignore: try SyncFolder.contents(status.ignoreFile) ?? [])
        var names = try context.store.domainNames().filter(rules.carries)
        names += ((try? DesktopStore(environment: environment).domainsWithValues()) ?? []).filter(rules.carries)
        say("carried: " + (names.isEmpty ? "(none)" : names.joined(separator: ", ")), &context)
        say(
            "patterns: " + (status.patterns.isEmpty ? "every domain" : status.patterns.joined(separator: " "))
                + "; kept local: \(status.ignoreFile)", &context)
        say("conflicts kept in \(status.log): \(status.conflictsKept)", &context)
    }
}
