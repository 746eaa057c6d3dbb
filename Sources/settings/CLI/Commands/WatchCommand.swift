import DesktopSettings
import PlistModel
import PlistCodecs
import SettingsCode
import SettingsStore

/// `watch D [KEY…] [-p POINTER…] [--json] [--initial] [--count N] [--timeout SECONDS]
/// [--debounce MS]`: one line per change, written as it happens: `KEY<TAB>VALUE` or
/// `KEY<TAB>(deleted)` (a pointer in place of the key for `-p`), or with `--json` one
/// JSON object per line. Ends on a signal (status 0), after `--count` lines (0), or
/// after `--timeout` seconds (0 if anything changed, 124 with one line if nothing did).
enum WatchCommand {
    /// What to report: a top-level key, or a place inside one.
    enum Selector: Equatable {
        case key(String)
        case path(PlistKeyPath)

        /// Keys are bytes: `watch D \u{E9} e\u{301}` watches two keys.
        static func == (a: Self, b: Self) -> Bool {
            switch (a, b) {
            case (.key(let x), .key(let y)): sameKey(x, y)
            case (.path(let x), .path(let y)): x == y
            default: false
            }
        }
    }

    struct Options {
        var selectors: [Selector] = []
        var json = false
        var initial = false
        var count: Int?
        var timeout: Double?
        var debounce = 0.05
        /// `--exec CMD`: run through `sh -c` after each batch instead of printing.
        var exec: String?
    }

    /// One line's worth: which value, how it changed, and its values before and after.
    struct Event {
        enum Kind: String { case initial, set, delete }
        let key: String
        let path: PlistKeyPath
        /// What text lines show first: the key, or the pointer for `-p`.
        let label: String
        let kind: Kind
        let old: PlistValue?
        let new: PlistValue?
    }

    static func watch(_ context: inout Context, _ arguments: [Token]) throws {
        guard let domainToken = arguments.first else { throw CLIError.usage("watch needs a domain") }
        if DesktopDomain.isDesktop(domainToken.text) { return try watchDesktop(&context, arguments) }
        let domain = try context.domainName(domainToken)
        let options = try parse(Array(arguments.dropFirst()))
        let watcher = try DomainWatcher(
            store: context.store, domain: domain, host: context.host, debounce: options.debounce)
        context.streams.endQuietlyOnSignals()
        let program = context.program
        let streams = context.streams
        // A line that cannot be written (a full disk) ends the watch with status 4.
        let emit = { (event: Event) throws(CLIError) in
            do throws(Errno) {
                try streams.output(options.json ? json(event, domain: domain.displayName) : text(event))
            } catch {
                throw CLIError.outputFailed(error)
            }
        }
        // An administrator's file that cannot be used: said when the watch starts, and
        // again only when what is wrong changes (said at once: a watch runs until stopped).
        var warned: [LayerWarning] = []
        let warnLayers = {
            guard watcher.layerWarnings != warned else { return }
            warned = watcher.layerWarnings
            for warning in warned {
                streams.error(Array("\(program): warning: \(CLI.oneLine(warning.message))\n".utf8))
            }
        }
        warnLayers()
        if options.initial {
            let current = watcher.values
            let initial = current.sortedEntries.map { KeyChange(key: $0.key, old: nil, new: $0.value) }
            for event in events(initial, options.selectors) { try emit(event.initial) }
        }
        var printed = 0
        let deadline = options.timeout.map { DomainWatcher.clock() + $0 }
        var runner = options.exec.map {
            Runner(command: $0, domain: domain.displayName, streams: streams, program: program)
        }
        if runner != nil, streams.processEndsAfterRun { Subprocess.adoptCommandOrphans() }
        while options.count.map({ printed < $0 }) ?? true {
            let left = deadline.map { max(0, $0 - DomainWatcher.clock()) }
            let changes: [KeyChange]?
            do throws(StoreError) {
                changes = try watcher.next(timeout: left)
            } catch {
                // A file that stays broken is reported once per change of it, never as deletions.
                if case .cannotWatch = error { throw error }
                // Through the one mapper, as every other message.
                streams.error(
                    Array(Diagnostic(error, program: program, verbWrites: false).lines(program: program).utf8))
                continue
            }
            warnLayers()
            guard let changes else { break }
            if runner != nil {
                let (store, host) = (context.store, context.host)
                let ran = try runner!.run(
                    on: changes, options, before: watcher.values, reread: { try? watcher.read() },
                    journal: { store.history(of: domain, host: host) })
                if ran { printed += 1 }
                continue
            }
            try emitCounted(events(changes, options.selectors), emit, &printed, options)
        }
        timedOut(options, printed: printed, domain.displayName, &context)
    }

    /// `watch gsettings:… | dconf:…`: the same lines, as dconf's service changes the user's
    /// values (`DesktopWatcher`), and `--exec` as for a plist domain: a change the command
    /// made itself (through `settings`, `gsettings` or `dconf`) runs it no more.
    static func watchDesktop(_ context: inout Context, _ arguments: [Token]) throws {
        let options = try parse(Array(arguments.dropFirst()))
        let store = DesktopStore(environment: context.store.environment)
        let name = arguments[0].text
        let place = try store.place(try DesktopDomain(name))
        // A key the schema does not have is said at once, as `read` says it.
        for case .key(let key) in options.selectors { _ = try store.key(place, key) }
        let watcher = try DesktopWatcher(store: store, place: place, debounce: options.debounce)
        context.streams.endQuietlyOnSignals()
        let streams = context.streams
        let emit = { (event: Event) throws(CLIError) in
            do throws(Errno) { try streams.output(options.json ? json(event, domain: name) : text(event)) } catch {
                throw CLIError.outputFailed(error)
            }
        }
        if options.initial {
            let initial = watcher.values.sortedEntries.map { KeyChange(key: $0.key, old: nil, new: $0.value) }
            for event in events(initial, options.selectors) { try emit(event.initial) }
        }
        var printed = 0
        let deadline = options.timeout.map { DomainWatcher.clock() + $0 }
        var runner = options.exec.map { Runner(command: $0, domain: name, streams: streams, program: context.program) }
        if runner != nil, streams.processEndsAfterRun { Subprocess.adoptCommandOrphans() }
        let journalling = context.store
        while options.count.map({ printed < $0 }) ?? true {
            let left = deadline.map { max(0, $0 - DomainWatcher.clock()) }
            guard let changes = try watcher.next(timeout: left) else { break }
            guard runner != nil else {
                try emitCounted(events(changes, options.selectors), emit, &printed, options)
                continue
            }
            let ran = try runner!.run(
                on: changes, options, before: watcher.values, reread: { try? watcher.read() },
                journal: { journalling.desktopHistory(name, current: watcher.values) { _ in } })
            if ran { printed += 1 }
        }
        timedOut(options, printed: printed, name, &context)
    }

    /// Each event emitted and counted, up to `--count`.
    private static func emitCounted(
        _ batch: [Event], _ emit: (Event) throws(CLIError) -> Void, _ printed: inout Int, _ options: Options
    ) throws(CLIError) {
        for event in batch {
            try emit(event)
            printed += 1
            if let count = options.count, printed >= count { break }
        }
    }

    /// As timeout(1): 124 when the time ran out with nothing to show, with one line.
    private static func timedOut(_ options: Options, printed: Int, _ name: String, _ context: inout Context) {
        guard let timeout = options.timeout, printed == 0 else { return }
        context.error.append(contentsOf: "\(context.program): no change to \(name) in \(CLI.seconds(timeout)) s\n".utf8)
        context.status = 124
    }

    /// The lines one batch of key changes makes: every changed key when nothing was
    /// selected, else each selector that saw a change, in the order they were given.
    static func events(_ changes: [KeyChange], _ selectors: [Selector]) -> [Event] {
        func event(
            _ change: KeyChange, _ label: String, _ path: PlistKeyPath,
            _ old: PlistValue?, _ new: PlistValue?
        ) -> Event {
            Event(key: change.key, path: path, label: label, kind: new == nil ? .delete : .set, old: old, new: new)
        }
        if selectors.isEmpty {
            return changes.map { event($0, $0.key, PlistKeyPath([$0.key]), $0.old, $0.new) }
        }
        return selectors.compactMap { selector in
            switch selector {
            case .key(let key):
                return changes.first { $0.key.utf8.elementsEqual(key.utf8) }.map {
                    event($0, key, PlistKeyPath([key]), $0.old, $0.new)
                }
            case .path(let path):
                guard let change = changes.first(where: { $0.key.utf8.elementsEqual(path.segments[0].utf8) }) else {
                    return nil
                }
                let below = PlistKeyPath(Array(path.segments.dropFirst()))
                let old = change.old.flatMap { below.value(inside: $0) }
                let new = change.new.flatMap { below.value(inside: $0) }
                return old == new ? nil : event(change, path.pointer, path, old, new)
            }
        }
    }

    /// `LABEL<TAB>VALUE`, one line, flushed at once so a pipe's reader sees it now.
    private static func text(_ event: Event) -> [UInt8] {
        var line = Array(event.label.utf8)
        line.append(UInt8(ascii: "\t"))
        line += event.new.map(DefaultsPrinter.renderLine) ?? Array("(deleted)".utf8)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// A JSON Lines record: `{"domain","key","path","change","old","new"}`, a value
    /// that is not there (before a new key, after a deletion) as `null`.
    private static func json(_ event: Event, domain: String) -> [UInt8] {
        var line = Array("{\"domain\":".utf8)
        line += JSONWriter.encode(.string(domain))
        line += Array(",\"key\":".utf8) + JSONWriter.encode(.string(event.key))
        line += Array(",\"path\":".utf8) + JSONWriter.encode(.string(event.path.pointer))
        line += Array(",\"change\":\"\(event.kind.rawValue)\",\"old\":".utf8)
        line += event.old.map { JSONWriter.encode($0) } ?? Array("null".utf8)
        line += Array(",\"new\":".utf8)
        line += event.new.map { JSONWriter.encode($0) } ?? Array("null".utf8)
        line += Array("}\n".utf8)
        return line
    }

    /// The longest `--timeout`, in seconds: a year.
    static let maximumTimeout = 31_536_000.0
    /// The longest `--debounce`, in milliseconds: an hour.
    static let maximumDebounce = 3_600_000.0

    static func parse(_ words: [Token]) throws(CLIError) -> Options {
        var options = Options()
        var i = 0
        func argument(_ flag: String) throws(CLIError) -> String {
            i += 1
            guard i < words.count else { throw CLIError.missingValue(flag: flag) }
            return words[i].text
        }
        // Bounded, so no later arithmetic on them can trap.
        func number(_ flag: String, upTo limit: Double) throws(CLIError) -> Double {
            let text = try argument(flag)
            guard let n = Seconds.parse(text, from: 0, upTo: limit) else {
                throw CLIError.badValue(flag: flag, text: text, expected: "a number from 0 to \(Int(limit))")
            }
            return n
        }
        func count() throws(CLIError) -> Int {
            let text = try argument("--count")
            guard let n = Int(text), n >= 1,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else {
                throw CLIError.badValue(flag: "--count", text: text, expected: "a whole number from 1 to \(Int.max)")
            }
            return n
        }
        func add(_ selector: Selector) {
            if !options.selectors.contains(selector) { options.selectors.append(selector) }
        }
        while i < words.count {
            switch words[i].text {
            case "--json": options.json = true
            case "--initial": options.initial = true
            case "--count": options.count = try count()
            case "--timeout": options.timeout = try number("--timeout", upTo: maximumTimeout)
            case "--debounce": options.debounce = try number("--debounce", upTo: maximumDebounce) / 1000
            case "--exec": options.exec = try argument("--exec")
            case "-p":
                let path = try PathOptions.parsePath("-p", try argument("-p"))
                guard !path.segments.isEmpty else { throw CLIError.badPointer(.wholeDomain, flag: "-p") }
                add(.path(path))
            case let word where word.hasPrefix("--"): throw Verb.named("watch")!.unknownOption(word)
            case let key: add(.key(key))
            }
            i += 1
        }
        return options
    }
}

extension WatchCommand {
    /// `--exec`: the user's command, run after each batch, one at a time (the watch waits
    /// for it), in a process group of its own, with the batch on its standard input and
    /// its pointers in its environment (`WatchExec.changedVariables`); a change it made
    /// itself runs it no more (`WatchExec.OwnChanges`). A signal that ends the watch ends
    /// the command first (`Streams.endQuietlyOnSignals`).
    struct Runner {
        let command: String
        /// The domain's name, as `SETTINGS_DOMAIN` gives it to the command.
        let domain: String
        let streams: Streams
        let program: String
        /// This run's mark, which the command's changes carry in the journal.
        let mark = "watch --exec \(FileSystem.processID)"
        var own = WatchExec.OwnChanges()

        /// Runs the command on the batch `changes` make, the command's own left out and the
        /// selectors applied, with the batch's lines (text, or `--json`) on its input; false
        /// when nothing is left to run it on.
        mutating func run(
            on changes: [KeyChange], _ options: Options, before: PlistDictionary, reread: () -> PlistDictionary?,
            journal: () -> [JournalEntry]
        ) throws -> Bool {
            let batch = WatchCommand.events(own.notOwn(changes), options.selectors)
            guard !batch.isEmpty else { return false }
            let lines = batch.flatMap { options.json ? WatchCommand.json($0, domain: domain) : WatchCommand.text($0) }
            try run(batch.map(\.path.pointer), lines: lines, before: before, reread: reread, journal: journal)
            return true
        }

        /// Runs the command through `sh -c` and waits; a failure is one line, not the end.
        /// Then reads the domain again (`reread`; nil when it cannot be read), to know the
        /// command's own changes from the watcher's next: against `before`, the values the
        /// watch had, and the domain's `journal`.
        mutating func run(
            _ pointers: [String], lines: [UInt8], before: PlistDictionary, reread: () -> PlistDictionary?,
            journal: () -> [JournalEntry]
        ) throws {
            let started = Double(FileSystem.wallClockNanoseconds()) / 1e9
            var variables = WatchExec.changedVariables(pointers)
            variables["SETTINGS_DOMAIN"] = domain
            variables[Journal.execVariable] = mark
            let status: Int32
            do throws(Errno) {
                status = try Subprocess.runCommand(
                    ["/bin/sh", "-c", command], environment: streams.environment.with(variables), input: lines)
            } catch {
                throw CLIError.cannotRun("/bin/sh", error)
            }
            if let after = reread() {
                own.ran(before: before, after: after, journal: journal, mark: mark, since: started)
            } else {
                // Unreadable now: the watcher says so, and nothing is taken for the command's.
                own = WatchExec.OwnChanges()
            }
            if status != 0 {
                streams.error(Array("\(program): warning: --exec command exited with status \(status)\n".utf8))
            }
        }
    }
}

private extension WatchCommand.Event {
    /// The same value, reported as where watching started.
    var initial: Self { Self(key: key, path: path, label: label, kind: .initial, old: nil, new: new) }
}
