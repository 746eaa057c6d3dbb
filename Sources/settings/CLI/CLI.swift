import DesktopSettings
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import PlistModel
import PlistCodecs
import SettingsStore

/// The command line: argv in, exit status out. Output is gathered and written with
/// one system call, so a reader of a pipe never sees half a domain.
enum CLI {
    static let version = "0.2.0"

    /// One command-line word: its text, or its bytes when they are not UTF-8 (Swift's
    /// `CommandLine.arguments` would put U+FFFD in their place, and a domain named
    /// `bad\u{FFFD}.plist` would be made).
    typealias Argument = Result<String, InvalidText>

    struct InvalidText: Error { let bytes: [UInt8] }

    /// argv as the kernel gave it.
    static func arguments() -> [Argument] {
        (0..<Int(CommandLine.argc)).map { i in
            let raw = CommandLine.unsafeArgv[i]!
            if let text = String(validatingCString: raw) { return .success(text) }
            return .failure(
                InvalidText(
                    bytes: Array(UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) })))
        }
    }

    /// `settings WORDS…` run inside another program (the test suite): the environment is
    /// exactly `environment`, standard input is `input`, and what the run prints is handed
    /// to `output` and `error`. Returns the exit status.
    static func run(
        _ words: [String], environment: [String: String], input: [UInt8] = [],
        output: @escaping @Sendable ([UInt8]) -> Void, error: @escaping @Sendable ([UInt8]) -> Void
    ) -> Int32 {
        let streams = Streams.inProcess(environment: environment, input: input, output: output, error: error)
        return run([.success("settings")] + words.map { .success($0) }, streams)
    }

    /// argv (with the program's name first) in, exit status out.
    static func run(_ argv: [Argument], _ streams: Streams = .process) -> Int32 {
        let program = (try? argv.first?.get()).map(programName) ?? "settings"
        var context = Context(program: program, streams: streams)
        var status: Int32
        do {
            var words = try checkedWords(Array(argv.dropFirst()))
            // The shell's completion asks the program by the name it was typed as:
            // `plutil complete line -convert …` completes `settings plutil -convert …`.
            if let verb = appleVerbs[program], words.starts(with: ["complete", "line"]) { words.insert(verb, at: 2) }
            let environment = streams.environment
            if let timeout = try DomainStore.secondsFromEnvironment(DomainStore.lockTimeoutVariable, in: environment) {
                context.store.lockTimeout = timeout
            }
            _ = try Journal.limits(in: environment)
            if let retry = try DomainStore.secondsFromEnvironment(DomainStore.readRetryVariable, in: environment) {
                context.store.readRetry = retry
            }
            // Said at once, not gathered: the person is waiting now.
            context.store.waitingForLock = { path, timeout in
                streams.error(
                    Array("\(program): waiting for another writer of \(path) (up to \(CLI.seconds(timeout)) s)\n".utf8))
            }
            // A journal file refused as planted: the write is in place, its history not.
            context.store.journalRefused = { message in
                streams.error(
                    Array(
                        "\(program): warning: \(CLI.oneLine("the change is in place, but not in its history: " + message))\n"
                            .utf8))
            }
            if let (name, toolWords) = appleTool(program: program, words), !words.starts(with: ["complete", "line"]) {
                // Apple's other plist tools, by the name the binary was linked as, or as a verb.
                context.store.writer = name
                status =
                    name.lowercased().hasSuffix("plutil")
                    ? PlutilCommand.run(&context, toolWords, name: name)
                    : PlistBuddyCommand.run(&context, toolWords, name: name)
            } else {
                let invocation = try Invocation(arguments: words)
                context.host = invocation.host
                context.verbWrites = invocation.verb.writes
                context.verbTakesForce = invocation.verb.options.contains { $0.name == "--force" }
                context.store.writer = "\(program) \(invocation.verb.name)"
                if DesktopCommand.names(invocation.verb, invocation.arguments) {
                    try DesktopCommand.run(&context, invocation.verb, invocation.arguments)
                } else {
                    try invocation.verb.run(&context, invocation.arguments)
                }
                status = context.status
            }
        } catch {
            let diagnostic = Diagnostic(
                error, program: program, verbWrites: context.verbWrites, takesForce: context.verbTakesForce)
            context.error.append(contentsOf: diagnostic.lines(program: program).utf8)
            status = diagnostic.status
        }
        if !context.output.isEmpty {
            var rest = context.output
            context.output = []
            context.stream(&rest)
        }
        if let error = context.outputFailure {
            // A backup to a full disk must not look like one that worked: a verb that
            // succeeded (0) or reported findings (1, `validate`) becomes a failure.
            context.error.append(contentsOf: "\(program): cannot write standard output: \(error.message)\n".utf8)
            if status == 0 || status == 1 { status = 4 }
        }
        if !context.error.isEmpty { streams.error(context.error) }
        // The process ends here, before the context is freed, when it is to end after the
        // run: what the verb kept (`keepUntilExit`) is then never taken apart.
        if streams.processEndsAfterRun { withExtendedLifetime(context) { exit(status) } }
        return status
    }

    /// The words after the program's name; a word that is not UTF-8 is refused, naming
    /// its place and showing its bytes.
    private static func checkedWords(_ argv: [Argument]) throws(CLIError) -> [String] {
        var words: [String] = []
        for (i, argument) in argv.enumerated() {
            switch argument {
            case .success(let text): words.append(text)
            case .failure(let invalid): throw CLIError.invalidUTF8(position: i + 1, bytes: invalid.bytes)
            }
        }
        return words
    }

    /// Seconds as a person typed them: `10`, `0.5`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `text` with every control character escaped (`\n`, `\t`, `\u{1B}`), so an error
    /// that echoes a name or key is one line and cannot move a terminal's cursor.
    static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `plutil` or `PlistBuddy` run by that name (`plutil -p Info.plist`) or as a verb
    /// (`settings plistbuddy …`): the name its messages use, and its words; nil for any
    /// other command line.
    static let appleVerbs = ["plutil": "plutil", "PlistBuddy": "plistbuddy"]

    static func appleTool(program: String, _ words: [String]) -> (name: String, words: [String])? {
        if appleVerbs[program] != nil { return (program, words) }
        // `settings plutil --help` is the verb's help, as for every verb.
        if let verb = words.first?.lowercased(), verb == "plutil" || verb == "plistbuddy",
            !["--help", "-h"].contains(words.dropFirst().first)
        {
            return ("\(program) \(verb)", Array(words.dropFirst()))
        }
        return nil
    }

    /// The name the binary was invoked as: `defaults` when linked under that name.
    static func programName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "settings"
    }
}

extension Context {
    /// Writes `bytes` to standard output now and empties them; after a failure, only
    /// empties them (the failure is reported once, when the verb ends).
    mutating func stream(_ bytes: inout [UInt8]) {
        if outputFailure == nil {
            do throws(Errno) { try streams.output(bytes) } catch { outputFailure = error }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// What a verb needs: the store, the host option, the streams, and buffers for its output.
struct Context {
    let program: String
    let streams: Streams
    var host: DomainHost = .any
    var store: DomainStore
    var output: [UInt8] = []
    /// Why standard output could not be written, once it could not (see `stream`).
    var outputFailure: Errno?
    var error: [UInt8] = []
    /// The exit status of a verb that succeeds in more than one way (`watch --timeout`).
    var status: Int32 = 0
    /// Whether the verb may change a domain (see `Verb.writes`).
    var verbWrites = true
    /// Whether the verb takes `--force`, which a schema's refusal then offers.
    var verbTakesForce = true
    /// The last domain's layers, so a verb that looks twice warns once (see `layers(for:)`).
    var lastLayers: (DomainName, AdminLayers)?
    /// What `keepUntilExit` keeps.
    private var kept: [Any] = []

    init(program: String, streams: Streams) {
        (self.program, self.streams) = (program, streams)
        store = DomainStore(environment: streams.environment)
    }

    mutating func print(_ text: String) {
        output.append(contentsOf: text.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// Keeps a big value (values, or a document's bytes) alive until exit, so it is never
    /// freed piece by piece: the process ends with the run (`CLI.run`), which frees it all
    /// at once, where taking apart a 100,000-key tree one node at a time costs a tenth of
    /// an `import`. In a process that goes on after the run, it is freed as usual.
    mutating func keepUntilExit(_ value: Any) {
        if streams.processEndsAfterRun { kept.append(value) }
    }

    /// The domain argument, checked; `~` is the run's `$HOME`.
    /// A file-sync engine's conflict copy is never a domain (see `ConflictCopy`).
    func domainName(_ token: Token) throws(CLIError) -> DomainName {
        // `gsettings:…` and `dconf:…` name the desktop's settings, never a file: a verb
        // that does not take them yet says so (`DesktopCommand` runs those that do).
        if DesktopDomain.isDesktop(token.text) { throw CLIError.desktopDomain(token.text) }
        let name: DomainName
        do throws(StoreError) { name = try DomainName(commandLine: token.text, environment: streams.environment) } catch
        {
            throw CLIError.store(error)
        }
        if case .named(let text) = name, let domain = ConflictCopy.domain(of: text + ".plist") {
            throw CLIError.conflictCopy(text, of: domain)
        }
        return name
    }

    /// One line on stderr that does not change the exit status.
    mutating func warn(_ text: String) {
        error.append(contentsOf: "\(program): warning: \(CLI.oneLine(text))\n".utf8)
    }

    /// One line on stderr for an error that does not end the verb (a bad file among
    /// good ones); the exit status is `status` from then on.
    mutating func report(_ failure: any Error) {
        let diagnostic = Diagnostic(failure, program: program, verbWrites: verbWrites, takesForce: verbTakesForce)
        error.append(contentsOf: diagnostic.lines(program: program).utf8)
        status = max(status, diagnostic.status)
    }

    /// A warning from a change that succeeded, as one line.
    mutating func note(_ warning: StoreWarning?) {
        if let warning { warn(warning.message) }
    }

    /// The store's one-key update; a change in place whose durability is unconfirmed is
    /// a warning, and exit 0.
    /// The store refuses a change to a managed key; an administrator's file it cannot use
    /// is a warning here, on writes as on reads (see `layers(for:)`).
    mutating func update(_ domain: DomainName, key: String, _ change: (inout PlistValue?) throws -> Bool) throws {
        _ = layers(for: domain)
        note(try store.update(domain, host: host, key: key, change))
    }

    /// The store's `create`, as `update(_:_:)`: false, with nothing done, when the
    /// domain has a file or `encoded` gives nil.
    mutating func create(_ domain: DomainName, _ encoded: () -> EncodedDomain?) throws -> Bool {
        _ = layers(for: domain)
        let (created, warning) = try store.create(domain, host: host, encoded)
        note(warning)
        return created
    }

    /// The store's whole-domain update, as `update(_:key:_:)`.
    mutating func update(_ domain: DomainName, _ change: (inout PlistDictionary) throws -> Bool) throws {
        _ = layers(for: domain)
        note(try store.update(domain, host: host, change))
    }
}

/// JSON output: pretty for a person at a terminal, compact for a pipe, with a newline.
func jsonOutput(_ value: PlistValue, _ streams: Streams) -> [UInt8] {
    JSONWriter.encode(value, pretty: streams.outputIsTerminal) + [UInt8(ascii: "\n")]
}
