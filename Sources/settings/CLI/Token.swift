import PlistModel
import PlistCodecs
import SettingsStore

/// One command-line word and where it stood, so an error can name the exact word.
struct Token: Equatable {
    let text: String
    /// 1-based position in argv after the program name.
    let position: Int
}

/// argv split into the options before the verb, the verb, and its arguments.
struct Invocation {
    var host: DomainHost = .any
    var verb: Verb
    var arguments: [Token]

    init(arguments argv: [String]) throws(CLIError) {
        let tokens = argv.enumerated().map { Token(text: $0.element, position: $0.offset + 1) }
        var i = 0
        var host = DomainHost.any
        while i < tokens.count {
            switch tokens[i].text {
            case "-currentHost":
                host = .current
                i += 1
                continue
            case "-host":
                guard i + 1 < tokens.count else { throw CLIError.usage("-host needs a host name") }
                do throws(StoreError) { host = try DomainHost.named(validating: tokens[i + 1].text) } catch {
                    throw CLIError.store(error)
                }
                i += 2
                continue
            default: break
            }
            break
        }
        guard i < tokens.count else {
            if tokens.isEmpty { throw CLIError.bareCommand }
            throw CLIError.usage("no verb given")
        }
        guard let verb = Verb.named(tokens[i].text) else { throw Verb.unknown(tokens[i].text) }
        self.host = host
        self.verb = verb
        self.arguments = Array(tokens[(i + 1)...])
        // `VERB --help` and `VERB -h` directly after the verb are its help; anywhere else
        // they are words (`write D K --help` stores the string, as defaults does).
        if verb.name != "help", let first = arguments.first?.text, first == "--help" || first == "-h" {
            self.verb = Verb.named("help")!
            self.arguments = [Token(text: verb.name, position: tokens[i].position)]
            return
        }
        // defaults reads these as a domain name and quietly does the wrong thing.
        if verb.takesDomain, let word = arguments.first?.text {
            switch word {
            case "-currentHost", "-host": throw CLIError.optionAfterVerb(word, verb: verb.name)
            case "-app": throw CLIError.applicationDomain
            default: break
            }
        }
        try verb.checkWords(arguments)
    }
}
