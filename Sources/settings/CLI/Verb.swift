import PlistModel
import PlistCodecs
import SettingsStore

/// (A class: a run looks verbs up by name, and a lookup should not copy every row.)
/// One verb of the command line, declared once in the verb table (`Verb.all`): its names,
/// arguments, options, sub-verbs, help and exit statuses, and the function that runs it.
/// Everything else reads the table: the word check before a verb runs (`checkWords`),
/// `help`, the bare usage, did-you-mean, completion in every shell (`Completion`) and,
/// through a test, the man page's headings and the README's verb table.
final class Verb: Sendable {
    let name: String
    let aliases: [String]
    /// A few words for completion menus and the short usage.
    let summary: String
    /// `(arguments, description)` pairs for the help text.
    let usage: [(String, String)]
    /// What each word after the verb is, options aside, in order.
    let arguments: [ArgumentKind]
    /// Whether the last argument may be given any number of times (`watch D KEY...`).
    let repeatsLast: Bool
    let options: [VerbOption]
    /// Words that choose what the verb does (`sync status`), each with its own arguments;
    /// they run through the parent's `run`.
    let subverbs: [Verb]
    /// Two or three commands as a person would type them, without the program's name.
    let examples: [String]
    /// The form of the file the verb reads, as lines of a short example (`apply`'s
    /// desired state); empty for most.
    let fileForm: [String]
    /// The exit statuses the verb returns besides 0 (done) and 2 (bad usage or value).
    let exits: [(Int32, String)]
    /// Whether the verb may change a domain; messages of the others never say "leaving
    /// defaults unchanged".
    let writes: Bool
    let run: @Sendable (inout Context, [Token]) throws -> Void

    init(
        name: String, aliases: [String] = [], summary: String, usage: [(String, String)],
        arguments: [ArgumentKind] = [], repeatsLast: Bool = false, options: [VerbOption] = [], subverbs: [Verb] = [],
        examples: [String] = [], fileForm: [String] = [], exits: [(Int32, String)] = [], writes: Bool = false,
        run: @escaping @Sendable (inout Context, [Token]) throws -> Void = { _, _ in }
    ) {
        (self.name, self.aliases, self.summary, self.usage, self.arguments, self.repeatsLast) = (
            name, aliases, summary, usage, arguments, repeatsLast
        )
        (self.options, self.subverbs, self.examples, self.exits, self.run) = (options, subverbs, examples, exits, run)
        (self.writes, self.fileForm) = (writes, fileForm)
    }

    /// A sub-verb: a word, its summary and arguments, run by the parent.
    static func sub(_ name: String, _ summary: String, _ arguments: [ArgumentKind] = [], repeatsLast: Bool = false)
        -> Verb
    {
        Verb(name: name, summary: summary, usage: [], arguments: arguments, repeatsLast: repeatsLast)
    }

    /// The names of the options `verb` declares, for its parser: an option missing from
    /// the table is not taken.
    static func optionNames(of verb: String) -> Set<String> {
        Set(named(verb)?.options.map(\.name) ?? [])
    }

    /// Whether the verb's first argument is a domain.
    var takesDomain: Bool { arguments.first == .domain }

    /// Verbs are case-insensitive, as in defaults.
    static func named(_ word: String) -> Verb? {
        let lower = word.lowercased()
        return all.first { $0.name == lower || $0.aliases.contains(lower) }
    }

    /// The verb a mistyped word most likely meant: within two edits of a name or an alias.
    static func suggestion(for word: String) -> String? {
        let names = all.flatMap { verb in
            ([verb.name] + verb.aliases).filter { !$0.hasPrefix("-") }.map { ($0, verb.name) }
        }
        guard let closest = Lookalike.closest(to: word, among: names.map(\.0)) else { return nil }
        return names.first { $0.0 == closest }?.1
    }
}

extension Verb {
    /// Refuses, before the verb runs, a sub-verb or a `--` option the table does not
    /// declare for it, naming the one it most likely meant. A `--` word where a key, a
    /// value or free text stands is that word (`write D --k v` writes the key `--k`, as
    /// defaults does).
    func checkWords(_ arguments: [Token]) throws(CLIError) {
        var verb = self
        var words = arguments[...]
        if !subverbs.isEmpty, let first = words.first, !first.text.hasPrefix("-") {
            guard let sub = subverb(named: first.text) else {
                throw CLIError.unknown(
                    "\(name) command", word: first.text,
                    nearest: Lookalike.closest(to: first.text, among: subverbs.map(\.name)))
            }
            verb = sub
            words = words.dropFirst()
        }
        var scan = ArgumentScan(verb: verb)
        for word in words.map(\.text) {
            // What follows a declared `--` is a command of the user's own (`capture -- CMD`).
            if scan.pending == nil, word == "--", verb.options.contains(where: { $0.name == "--" }) { break }
            if scan.pending == nil, word.hasPrefix("--"), word.count > 2,
                !verb.options.contains(where: { $0.name == word })
            {
                let index = scan.positionals.count
                let isValue = scan.valueIndex.map { index >= $0 } ?? false
                let kind = scan.kind(at: index)
                let isWord = [.key, .text, .word].contains(kind) || kind == .verb && Verb.named(word) != nil
                if !isValue && !isWord { throw verb.unknownOption(word, of: name) }
            }
            scan.take(word)
        }
    }

    /// The sub-verb `word` names, if the verb has it.
    func subverb(named word: String) -> Verb? { subverbs.first { $0.name == word } }

    /// "unknown option '--glob' for git-setup; did you mean --global?"
    func unknownOption(_ word: String, of verbName: String? = nil) -> CLIError {
        CLIError.unknown(
            "option", word: word, of: verbName ?? name, nearest: Lookalike.closest(to: word, among: options.map(\.name))
        )
    }

    /// "unknown verb 'wirte'; did you mean write?"
    static func unknown(_ word: String) -> CLIError {
        CLIError.unknown("verb", word: word, nearest: suggestion(for: word))
    }
}

/// Fails with "Unexpected argument" when more words follow than a verb takes.
func expectAtMost(_ n: Int, _ arguments: [Token]) throws(CLIError) {
    if arguments.count > n { throw CLIError.unexpectedArgument(arguments[n].text) }
}

extension Context {
    /// `--force` right after the domain: write what a schema would refuse, and replace
    /// or remove a read-only file (the store is told). Taken out of the words; whether
    /// it was there.
    @discardableResult
    mutating func takeForce(_ arguments: inout [Token]) -> Bool {
        let force = arguments.count > 1 && arguments[1].text == "--force"
        if force { arguments.remove(at: 1) }
        store.overwriteReadOnly = force
        store.checksSchema = !force
        return force
    }
}

extension DomainName {
    var isPath: Bool { if case .path = self { true } else { false } }

    /// The file a path domain names, for messages, when there is none; nil for the config
    /// folder's domains and for a file that is there (an empty dictionary).
    var file: String? {
        if case .path(let path) = self, (try? FileSystem.linkStatus(path)) == nil { return path }
        return nil
    }
}

/// `VERB D`: the one domain argument's values, which must exist and not be empty
/// (`paths`, `keys`).
func onlyDomainValues(_ context: inout Context, _ arguments: [Token], verb: String) throws -> PlistDictionary {
    guard let domainToken = arguments.first else { throw CLIError.usage("\(verb) needs a domain") }
    try expectAtMost(1, arguments)
    let domain = try context.domainName(domainToken)
    guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
        throw CLIError.domainMissing(domainToken.text, file: domain.file)
    }
    return values
}
