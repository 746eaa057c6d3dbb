import DesktopSettings
import PlistModel
import PlistCodecs
import SettingsStore

/// Completion for every shell, read off the verb table: `settings complete line WORDS…`,
/// where the last word is the one being completed. The shells' scripts only pass the words
/// and show what comes back, so bash, zsh and fish offer the same candidates, and a verb,
/// sub-verb or option added to the table is completed with nothing else to change.
///
/// What it prints: a first line saying what else the shell should offer (`words`, `files`
/// or `directories`), with a tab and a message to show when there is one (a key's range);
/// then one candidate a line, with a tab and its description when it has one.
struct Completion {
    enum Also: String { case words, files, directories, commands }

    var also: Also = .words
    var message: String?
    var candidates: [(String, String)] = []

    /// The lines `complete line` prints.
    var text: String {
        var lines = [also.rawValue + (message.map { "\t" + $0 } ?? "")]
        for (word, description) in candidates where !word.contains(where: { $0 == "\n" || $0 == "\t" }) {
            lines.append(description.isEmpty ? word : word + "\t" + description)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What may stand for the last of `words` (the words after the program's name).
    static func complete(_ words: [String], _ context: inout Context) -> Completion {
        var result = Completion()
        guard let current = words.last else { return result }
        let typed = words.dropLast()
        var i = typed.startIndex
        var hostOptions: Set<String> = []
        while i < typed.endIndex, typed[i] == "-currentHost" || typed[i] == "-host" {
            hostOptions.insert(typed[i])
            if typed[i] == "-host" {
                guard i + 1 < typed.endIndex else { return result }  // a host name: nothing to offer
                context.host = (try? DomainHost.named(validating: typed[i + 1])) ?? context.host
                i += 2
            } else {
                context.host = .current
                i += 1
            }
        }
        if i == typed.endIndex {
            result.offerVerbs()
            for (option, summary) in [
                ("-currentHost", "use the settings of this host"), ("-host", "use the settings of the named host"),
            ] where !hostOptions.contains(option) {
                result.candidates.append((option, summary))
            }
            return result.matching(current)
        }
        guard var verb = Verb.named(typed[i]) else { return result }
        var rest = Array(typed[(i + 1)...])
        if !verb.subverbs.isEmpty {
            if rest.isEmpty {
                result.candidates = verb.subverbs.map { ($0.name, $0.summary) }
                result.offerOptions(of: verb, at: .start, used: [])
                return result.matching(current)
            }
            if let sub = verb.subverb(named: rest[0]) {
                verb = sub
                rest.removeFirst()
            }
        }
        // After `capture -- COMMAND`, the words are the command's own: files, as a shell
        // offers them for a command it knows nothing of.
        if verb.options.contains(where: { $0.name == "--" }), let dashes = rest.firstIndex(of: "--"),
            rest.endIndex - dashes > 1
        {
            result.also = .files
            return result
        }
        var scan = ArgumentScan(verb: verb)
        for word in rest { scan.take(word) }
        result.offer(scan, current: current, &context)
        return result.matching(current)
    }

    private mutating func offer(_ scan: ArgumentScan, current: String, _ context: inout Context) {
        let verb = scan.verb
        let domain = verb.arguments.first == .domain ? scan.positionals.first : nil
        if let option = scan.pending, let kind = option.argument {
            offer(kind, domain: domain, current: current, &context)
            return
        }
        let index = scan.positionals.count
        let place = scan.place(at: index)
        if let valueIndex = scan.valueIndex, index > valueIndex {
            // Among a collection's elements: the scalar type flags; after -bool, its words.
            let last = scan.positionals.last ?? ""
            if TypeTable.row(forFlag: last)?.row.type == .bool {
                candidates = ["true", "false", "yes", "no"].map { ($0, "") }
            } else if current.hasPrefix("-"),
                let first = TypeTable.row(forFlag: scan.positionals[valueIndex])?.row.type,
                first == .array || first == .dict
            {
                candidates = CompleteCommand.typeFlags(at: .element)
            }
            return
        }
        guard let kind = scan.kind(at: index) else {
            // Nothing more to type but options: offer them without waiting for a '-'.
            offerOptions(of: verb, at: place, used: scan.used)
            return
        }
        if current.hasPrefix("-") {
            if kind == .plistFile { candidates.append(("-", "standard input or output")) }
            offerOptions(of: verb, at: place, used: scan.used)
            return
        }
        if kind == .value, let domain, index >= 2 {
            offerValues(domain: domain, key: scan.positionals[index - 1], &context)
            // A number's range is said, not buried under the type flags.
            if candidates.isEmpty && message == nil { offerOptions(of: verb, at: place, used: scan.used) }
            return
        }
        offer(kind, domain: domain, current: current, &context)
    }

    /// The candidates of one kind of argument.
    private mutating func offer(_ kind: ArgumentKind, domain: String?, current: String, _ context: inout Context) {
        switch kind {
        case .domain:
            if current.hasPrefix("/") || current.hasPrefix("~") || current.hasPrefix(".") {
                also = .files
            } else {
                candidates = [("-g", "the global domain")] + CompleteCommand.domainNames(&context).map { ($0, "") }
                candidates += DesktopCompletion.domains(current, context)
            }
        case .pattern:
            candidates = CompleteCommand.domainNames(&context).map { ($0, "") }
            // A sync carries fixed schemas only: no `dconf:` folder, no schema's path.
            candidates += DesktopCompletion.domains(current, context).filter {
                $0.0.hasPrefix(DesktopDomain.schemaPrefix) && !$0.0.hasSuffix(":/")
            }
        case .key where domain.map(DesktopDomain.isDesktop) == true:
            candidates = DesktopCompletion.keys(of: domain!, context).map { ($0, "") }
        case .key:
            guard let domain, let name = try? context.domainName(Token(text: domain, position: 0)) else { return }
            candidates = CompleteCommand.keys(of: name, &context).map { ($0, "") }
        case .pointer:
            guard let domain, let name = try? context.domainName(Token(text: domain, position: 0)) else { return }
            candidates = CompleteCommand.pointers(in: name, &context).map { ($0, "") }
        case .side:
            candidates = [("-g", "the global domain")] + CompleteCommand.domainNames(&context).map { ($0, "") }
            also = .files
        case .command: also = .commands
        case .file: also = .files
        case .plistFile:
            also = .files
            candidates = [("-", "standard input or output")]
        case .directory: also = .directories
        case .verb: offerVerbs()
        case .shell, .place, .format, .plistFormat: candidates = (kind.words ?? []).map { ($0, "") }
        case .value, .jqPath, .json, .seconds, .milliseconds, .count, .url, .text, .word:
            message = kind.placeholder
        }
    }

    /// A value for `KEY` of `domain`: the schema's choices (or true and false), else what
    /// its range allows, as a message.
    private mutating func offerValues(domain: String, key: String, _ context: inout Context) {
        if DesktopDomain.isDesktop(domain) {
            (candidates, message) = DesktopCompletion.values(of: domain, key: key, context)
            return
        }
        guard let name = try? context.domainName(Token(text: domain, position: 0)),
            let schema = context.schema(for: name)?.key(key)
        else { return }
        let values = CompleteCommand.values(of: schema)
        if values.isEmpty {
            let range = schema.rangeText
            if range.hasPrefix("range ") { message = "value (\(range.dropFirst("range ".count)))" }
        } else {
            candidates = values.map { ($0, "") }
        }
    }

    private mutating func offerVerbs() { candidates += Self.verbs }

    /// Every verb and alias that is a word, with its summary (an alias's names its verb).
    static var verbs: [(String, String)] {
        Verb.all.flatMap { verb in
            ([verb.name] + verb.aliases).filter { !$0.hasPrefix("-") }.map { name in
                (name, verb.summary + (name == verb.name ? "" : " (as \(verb.name))"))
            }
        }
    }

    /// The verb's options at `place` not already given (but those that repeat), and the
    /// type flags where a value stands.
    private mutating func offerOptions(of verb: Verb, at place: VerbOption.Place, used: Set<String>) {
        candidates += CompleteCommand.typeFlags(at: place)
        for option in verb.options
        where option.places.contains(place) && (option.repeats || !used.contains(option.name)) {
            candidates.append((option.name, option.summary))
        }
    }

    /// Only the candidates that start with what was typed.
    private func matching(_ current: String) -> Completion {
        var result = self
        result.candidates = candidates.filter { $0.0.hasPrefix(current) }
        return result
    }
}
