import PlistModel
import SettingsCode
import PlistCodecs
import DesktopSettings
import SettingsStore
import SettingsSync

/// Everything that can go wrong on the command line, one case per message.
enum CLIError: Error, Equatable {
    /// Bad usage; nil prints the usage text alone.
    case usage(String?)
    /// No words at all: the short usage, grouped by task.
    case bareCommand
    case unexpectedArgument(String)
    /// A word the verb table does not have: what it stands for ("verb", "sync command",
    /// "option"), the word, the verb it was given to (an option's), and the table's word
    /// within two edits of it, if any.
    case unknown(String, word: String, of: String? = nil, nearest: String?)
    /// A value flag's text that does not parse: flag, text, what was expected.
    case badValue(flag: String, text: String, expected: String)
    case missingValue(flag: String)
    /// A `-p` or `--path-json` argument that is not a usable path, or a path that does
    /// not fit the domain.
    case badPointer(KeyPathError, flag: String)
    /// An error in value words one of which resembles a type flag: the error, and the hint.
    indirect case lookalike(CLIError, ValueArguments.Lookalike)
    /// `-currentHost` or `-host` in the domain's place: the option and the verb.
    case optionAfterVerb(String, verb: String)
    /// `-app NAME`: macOS finds an application's domain from its bundle; Linux has none.
    case applicationDomain
    case nestedCollection(String)
    case couldNotParse(String)
    /// A domain with no file, or an empty one; `file` for a path domain, to say which
    /// file was looked for (`.plist` added).
    case domainMissing(String, file: String? = nil)
    /// A file-sync engine's conflict copy named as a domain; the domain it belongs to.
    case conflictCopy(String, of: String)
    /// A desktop domain (`gsettings:…`, `dconf:…`) given to a verb that does not take one.
    case desktopDomain(String)
    /// `-currentHost` or `-host` with a desktop domain, which has no per-host file.
    case desktopHasNoHost
    /// `write D K` with no value after the key.
    case valueMissing(key: String)
    /// `delete D K` of a key the domain does not have.
    case keyMissing(domain: String, key: String)
    case pairMissing(domain: String, key: String)
    /// A missing dotted key whose first part is a dictionary: the pointer to use instead.
    case pairMissingInside(domain: String, key: String, pointer: String)
    case deleteMissing(domain: String)
    case renameMissing(domain: String, key: String)
    case notAnArray(key: String)
    case notADictionary(key: String)
    case store(StoreError)
    /// A value the domain's schema does not allow: the key and why.
    case schemaViolation(key: String, String)
    /// A key a strict schema does not name.
    case notInSchema(key: String, domain: String)
    /// A schema verb for a domain without a schema, or a key it does not name.
    case noSchema(domain: String, key: String?)
    /// JSON that does not read in the mapping, and where it came from.
    case json(JSONError, source: String)
    /// A command-line word whose bytes are not UTF-8: its place after the program's name.
    case invalidUTF8(position: Int, bytes: [UInt8])
    /// Output that could not be written (a full disk, a closed descriptor).
    case outputFailed(Errno)
    /// `export D -` of a domain holding text XML cannot carry (a NUL, a C0 control).
    case notXML(domain: String, character: UInt8)
    /// git could not be started (not installed): why.
    case gitMissing(Errno)
    /// A git command `git-setup` ran failed: the command, its status and the last
    /// meaningful line it wrote on standard error.
    case gitFailed(command: String, status: Int32, said: String?)
    /// A command the user gave (`capture --`, `watch --exec`, `$EDITOR`) could not be started.
    case cannotRun(String, Errno)
    /// `edit` ended without changing anything: why.
    case editAbandoned(String)
    /// `create` of a file that is there.
    case fileExists(String)
}

/// The one place an error becomes its message and exit status (SPEC §6).
struct Diagnostic {
    /// One line: every control character in it escaped (see `CLI.oneLine`), so a name or
    /// key echoed back cannot break it.
    let message: String
    let status: Int32
    /// Whether the line ends pointing at `help` (usage errors).
    let pointsAtHelp: Bool
    /// The short usage of a bare command: printed as it is, without the program's name.
    let isUsageText: Bool

    /// `program` is the name the binary was run as, for messages that show a command.
    /// `verbWrites` is false for a verb that never changes a domain (`read`, `watch`):
    /// its messages do not say "leaving defaults unchanged", which would suggest it might
    /// have changed something.
    /// `takesForce` is false for a verb without `--force`: a refusal does not offer it.
    init(_ error: any Error, program: String = "settings", verbWrites: Bool = true, takesForce: Bool = true) {
        let (message, status) = Self.messageAndStatus(
            error, program: program,
            unchanged: verbWrites ? "; leaving defaults unchanged." : ".", takesForce: takesForce)
        // The short usage is the one message of several lines: it is the whole answer.
        if case .bareCommand? = error as? CLIError { isUsageText = true } else { isUsageText = false }
        self.message = isUsageText ? message : CLI.oneLine(message)
        self.status = status
        switch error as? CLIError {
        case .usage(_?)?, .unknown?: pointsAtHelp = true
        default: pointsAtHelp = false
        }
    }

    /// The one line printed: `program: message`, and for a usage error a pointer to
    /// help on the same line (`… (see 'settings help')`), as the README promises one line.
    func lines(program: String) -> String {
        if isUsageText { return message }
        return "\(program): \(message)" + (pointsAtHelp ? " (see '\(program) help')" : "") + "\n"
    }

    /// `unchanged` ends a message that says nothing was changed: defaults' words after a
    /// verb that changes domains, a plain full stop after one that only reads.
    private static func messageAndStatus(
        _ error: any Error, program: String, unchanged: String, takesForce: Bool = true
    ) -> (String, Int32) {
        let message: String, status: Int32
        switch error {
        case let error as CLIError:
            (message, status) = Self.describe(error, program: program, unchanged: unchanged, takesForce: takesForce)
        case let error as DesktopError: (message, status) = (error.message, error.status)
        case let error as StoreError:
            (message, status) = Self.describe(
                .store(error), program: program, unchanged: unchanged, takesForce: takesForce)
        // The store's schema check, said as `write`'s own always was.
        case let refusal as SchemaRefusal:
            let error: CLIError =
                switch refusal.reason {
                case .violation(let violation): .schemaViolation(key: refusal.key, violation.message)
                case .notInSchema(let domain): .notInSchema(key: refusal.key, domain: domain)
                }
            (message, status) = Self.describe(error, program: program, unchanged: unchanged, takesForce: takesForce)
        // A file the tool keeps beside the domains: refused (3), as a domain of that kind
        // would be, or failed (4 writing, 3 reading).
        case let error as StateFileError:
            let code: Int32 =
                switch error.reason {
                case .untrusted, .failed(_, writing: false): 3
                case .failed(_, writing: true): 4
                }
            (message, status) = (error.message, code)
        case SyncError.store(let error):
            (message, status) = Self.describe(
                .store(error), program: program, unchanged: unchanged, takesForce: takesForce)
        case let error as SyncError: (message, status) = (error.message, error.status)
        case ApplyError.refused(let problems):
            // One problem is this line; several are each a line before it (ApplyCommand).
            let managed = problems.contains { if case .managed = $0 { true } else { false } }
            let what = problems.count == 1 ? problems[0].message : "\(problems.count) problems"
            (message, status) = ("\(what); nothing was applied", managed ? 4 : 2)
        // A state file or record that parses, but not as one: like a file that does not parse.
        case let error as FormError: (message, status) = (error.message, 3)
        case let ApplyError.partial(_, written, failed, error):
            let inner = Self.messageAndStatus(error, program: program, unchanged: ".")
            let done = written.isEmpty ? "no domain was written" : "applied " + written.joined(separator: ", ")
            (message, status) = ("\(failed): \(inner.0) (\(done); the others were not touched)", inner.1)
        // A path that does not fit the domain: nothing was changed.
        case let error as KeyPathError: (message, status) = ("\(error.message)\(unchanged)", 1)
        case let error as JSONError:
            (message, status) = Self.describe(
                .json(error, source: "the value"), program: program, unchanged: unchanged, takesForce: takesForce)
        default: (message, status) = ("\(error)", 1)
        }
        return (message, status)
    }

    private static func describe(
        _ error: CLIError, program: String, unchanged: String, takesForce: Bool = true
    ) -> (String, Int32) {
        switch error {
        case .usage(let detail):
            // The help line is added by `lines(program:)`.
            return (detail ?? "Run 'help' for usage.", 2)
        case .bareCommand:
            return (HelpCommand.shortUsage(program: program), 2)
        case .unexpectedArgument(let word):
            return ("Unexpected argument \(word)\(unchanged)", 2)
        case let .unknown(what, word, verb, nearest):
            return (
                "unknown \(what) '\(word)'" + (verb.map { " for \($0)" } ?? "")
                    + (nearest.map { "; did you mean \($0)?" } ?? ""), 2
            )
        case let .badValue(flag, text, expected):
            return ("invalid value '\(text)' for \(flag): expected \(expected)\(unchanged)", 2)
        case .missingValue(let flag):
            return ("\(flag) needs a value\(unchanged)", 2)
        case let .badPointer(error, flag):
            return ("invalid \(flag): \(error.message)", 2)
        case let .lookalike(inner, lookalike):
            let (message, status) = describe(inner, program: program, unchanged: unchanged, takesForce: takesForce)
            return ("\(message) ('\(lookalike.word)' is not a type flag; did you mean \(lookalike.flag)?)", status)
        case let .optionAfterVerb(option, verb):
            let example = option == "-host" ? "-host NAME" : option
            return (
                "invalid domain '\(option)': put \(option) before the verb, as in: \(program) \(example) \(verb) …", 2
            )
        case .applicationDomain:
            return (
                "invalid domain '-app': -app (application lookup) is "
                    + "macOS-only; name the domain instead, e.g. com.apple.TextEdit",
                2
            )
        case .nestedCollection(let flag):
            return (
                "\(flag) cannot be nested; write the inner collection as a literal such as '(a, b)' or '{k = v;}'", 2
            )
        case .couldNotParse(let text):
            return ("Could not parse: \(text).  Try single-quoting it.", 2)
        case let .domainMissing(domain, file?):
            return ("Domain \(domain) does not exist (no file \(file))", 1)
        case let .domainMissing(domain, nil):
            return ("Domain \(domain) does not exist", 1)
        case let .conflictCopy(name, domain):
            return (
                "\(name) is a file-sync conflict copy of \(domain), not a domain: "
                    + "settings conflicts --resolve \(domain) merges it back", 1
            )
        case .desktopHasNoHost:
            return ("-currentHost and -host name plist files; a desktop domain has none", 2)
        case .desktopDomain(let name):
            return (
                "\(name) is a desktop domain, which this verb does not take yet; "
                    + "man settings, DESKTOP SETTINGS, lists the verbs that do", 2
            )
        case .valueMissing(let key):
            return ("no value after the key \(key): give one, as in write <domain> \(key) <value>\(unchanged)", 2)
        case let .keyMissing(domain, key):
            return ("Key \(key) does not exist in domain \(domain)\(unchanged)", 1)
        case let .pairMissingInside(domain, key, pointer):
            return (
                "The domain/default pair of (\(domain), \(key)) does not exist; keys "
                    + "are literal: for a value inside a dictionary, use -p \(pointer)",
                1
            )
        case let .pairMissing(domain, key):
            return ("The domain/default pair of (\(domain), \(key)) does not exist", 1)
        case .deleteMissing(let domain):
            // defaults' two lines, on one.
            return ("Domain (\(domain)) not found. Defaults have not been changed.", 1)
        case let .renameMissing(domain, key):
            return ("Key \(key) does not exist in domain \(domain); leaving defaults unchanged", 1)
        case .notAnArray(let key):
            return ("Value for key \(key) is not an array; cannot append.  Leaving defaults unchanged.", 1)
        case .notADictionary(let key):
            return ("Value for key \(key) is not a dictionary; cannot append.  Leaving defaults unchanged.", 1)
        case let .schemaViolation(key, reason):
            let hint = takesForce ? " (--force writes it anyway)" : ""
            return ("invalid value for \(key): \(reason); leaving defaults unchanged.\(hint)", 2)
        case let .notInSchema(key, domain):
            return (
                "\(key) is not a key of \(domain)'s schema, which is strict; leaving defaults unchanged."
                    + (takesForce ? " (--force writes it anyway)" : ""),
                2
            )
        case let .noSchema(domain, key):
            return (key.map { "\(domain)'s schema has no key \($0)" } ?? "no schema for \(domain)", 1)
        case let .json(error, source):
            return ("cannot read \(source) as JSON: \(error.message)\(unchanged)", 2)
        case let .invalidUTF8(position, bytes):
            let shown = bytes.map {
                $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true)
            }.joined()
            return ("argument \(position) ('\(shown)') is not valid UTF-8\(unchanged)", 2)
        case .outputFailed(let errno):
            return ("cannot write standard output: \(errno.message)", 4)
        case let .notXML(domain, character):
            return (
                "cannot export \(domain) as XML: it holds the control character U+\(String(format4: character)), "
                    + "which an XML property list cannot hold (export it to a file, which is binary, or with --json)", 2
            )
        case .gitMissing(let errno):
            return ("git-setup needs git, which could not be run (\(errno.message)): install git", 4)
        case let .gitFailed(command, status, said):
            return ("\(command) failed (status \(status))" + (said.map { ": \($0)" } ?? ""), 4)
        case .editAbandoned(let why): return ("\(why); the domain is unchanged", 1)
        case .fileExists(let path):
            return ("\(path) already exists; it is unchanged (plistbuddy -c Clear empties it)", 1)
        case let .cannotRun(command, errno):
            // As a shell says it: 127 when there is no such program, 126 when it cannot run.
            return ("cannot run \(command): \(errno.message)", errno == .noSuchFile ? 127 : 126)
        case .store(let error):
            let status: Int32 =
                switch error {
                case .invalidDomain, .unstorable, .badEnvironment: 2
                case .unreadable, .notAFile, .corrupt, .notADictionary, .cannotWatch, .notJSON: 3
                case .lockTimeout, .writeFailed, .readOnly, .managed: 4
                }
            // The store's messages name no command-line flag; here is where they are known.
            switch error {
            case .readOnly: return (error.message + " (--force writes it anyway)", status)
            case .unstorable(_, .controlCharacter):
                return (
                    error.message.dropLast(StoreError.dataAdvice.count)
                        + " (store it with -data, or keep the domain binary)", status
                )
            default: return (error.message, status)
            }
        }
    }
}
