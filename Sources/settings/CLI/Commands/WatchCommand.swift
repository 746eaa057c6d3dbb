import SettingsCore

/// `watch D [KEY…] [--initial] [--count N] [--timeout SECONDS] [--debounce MS]`: one
/// line per changed key, `KEY<TAB>VALUE` or `KEY<TAB>(deleted)`, written as it happens.
/// Ends on a signal (status 0), after `--count` lines (0), or after `--timeout` seconds
/// (0 if anything changed, 2 if nothing did).
enum WatchCommand {
    struct Options {
        var keys: [String] = []
        var initial = false
        var count: Int?
        var timeout: Double?
        var debounce = 0.05
    }

    static func watch(_ context: inout Context, _ arguments: [Token]) throws {
        guard let domainToken = arguments.first else { throw CLIError.usage("watch needs a domain") }
        let domain = try domainName(domainToken)
        let options = try parse(Array(arguments.dropFirst()))
        let watcher = try DomainWatcher(store: context.store, domain: domain, host: context.host, debounce: options.debounce)
        StandardStreams.exitQuietlyOnSignals()
        let program = context.program
        let wanted = { (key: String) in options.keys.isEmpty || options.keys.contains(key) }
        if options.initial {
            for entry in watcher.values.sortedEntries where wanted(entry.key) { emit(entry.key, entry.value) }
        }
        var printed = 0
        let deadline = options.timeout.map { DomainWatcher.clock() + $0 }
        while options.count.map({ printed < $0 }) ?? true {
            let left = deadline.map { max(0, $0 - DomainWatcher.clock()) }
            let changes: [DomainWatcher.Change]?
            do throws(StoreError) {
                changes = try watcher.next(timeout: left)
            } catch {
                // A file that stays broken is reported once per change of it, never as deletions.
                StandardStreams.write("\(program): \(error.message)\n", toError: true)
                continue
            }
            guard let changes else { break }
            for change in changes where wanted(change.key) {
                emit(change.key, change.new)
                printed += 1
                if let count = options.count, printed >= count { break }
            }
        }
        if options.timeout != nil, printed == 0 { context.status = 2 }
    }

    /// One line, flushed at once so a pipe's reader sees it now.
    private static func emit(_ key: String, _ value: PlistValue?) {
        var line = Array(key.utf8)
        line.append(UInt8(ascii: "\t"))
        line += value.map(DefaultsPrinter.renderLine) ?? Array("(deleted)".utf8)
        line.append(UInt8(ascii: "\n"))
        StandardStreams.write(line)
    }

    static func parse(_ words: [Token]) throws(CLIError) -> Options {
        var options = Options()
        var i = 0
        func number(_ flag: String, whole: Bool = false) throws(CLIError) -> Double {
            i += 1
            guard i < words.count else { throw CLIError.missingValue(flag: flag) }
            guard let n = Double(words[i].text), n.isFinite, whole ? n >= 1 && n == n.rounded() : n >= 0 else {
                throw CLIError.badValue(flag: flag, text: words[i].text, expected: whole ? "a whole number of 1 or more" : "a number of 0 or more")
            }
            return n
        }
        while i < words.count {
            switch words[i].text {
            case "--initial": options.initial = true
            case "--count": options.count = Int(try number("--count", whole: true))
            case "--timeout": options.timeout = try number("--timeout")
            case "--debounce": options.debounce = try number("--debounce") / 1000
            case let word where word.hasPrefix("--"): throw CLIError.usage("unknown watch option '\(word)'")
            case let key: options.keys.append(key)
            }
            i += 1
        }
        return options
    }
}
