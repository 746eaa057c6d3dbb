import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `diff` and `snapshot`: two states of settings compared, and a state saved to compare
/// against later. The comparing is `StateDiff`'s (SettingsCode); here the words are
/// parsed and the result printed.
enum DiffCommand {
    /// One side of a `diff`: a domain's values (from the store or a file), or a state of
    /// several domains (a `snapshot` file).
    enum Side {
        /// `name` is how commands address it: a domain's state name, a property-list
        /// file's absolute path; nil for what no command can write (standard input, JSON).
        case domain(name: String?, values: PlistDictionary?)
        case state(SettingsState)
    }

    /// `diff A [B] [--commands | --json]`: A and B are each a domain, a plist or JSON file,
    /// `-`, or a snapshot; a snapshot alone is compared with the domains as they are now.
    /// Exit 0 when equal, 1 when they differ, as diff(1).
    static func diff(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let commands = take("--commands", &words), json = take("--json", &words)
        guard !(commands && json) else { throw CLIError.usage("give one of --commands and --json") }
        for word in words where word.text.hasPrefix("--") { throw Verb.named("diff")!.unknownOption(word.text) }
        guard let first = words.first else { throw CLIError.usage("diff needs two domains, files or snapshots") }
        try expectAtMost(2, words)
        let old = try side(first, &context)
        let new: Side
        if words.count == 2 {
            new = try side(words[1], &context)
        } else if case .state(let state) = old {
            // A snapshot of every domain is compared with every domain there is now (one
            // that cannot be read said, and left out), and with its own domains gone since.
            // Its desktop domains (`gsettings:…`, `dconf:…`) as the desktop holds them now.
            let desktop = state.domains.map(\.name).filter(DesktopDomain.isDesktop)
            let names = state.domains.map(\.name).filter { !DesktopDomain.isDesktop($0) }
            var live =
                names.isEmpty && !state.complete
                ? SettingsState()
                : try SettingsState.live(state.complete ? [] : names, in: context.store) { context.report($0) }
            live.domains += try DesktopCommand.state(
                desktop.map { Token(text: $0, position: 0) }, every: false, &context)
            if state.complete {
                let gone = names.filter { name in
                    !live.names(name) && !live.unreadable.contains { sameKey($0, name) }
                }
                live.domains += try SettingsState.live(gone, in: context.store).domains
            }
            new = .state(live)
        } else {
            throw CLIError.usage("diff needs a second domain or file (one snapshot alone is compared with now)")
        }
        let difference: StateDiff
        var headings = true
        switch (old, new) {
        case (.state(let a), .state(let b)): difference = StateDiff(from: a, to: b)
        case (.domain(let a, let x), .domain(let b, let y)):
            headings = false
            // The commands turn the first side into the second, so they write to it.
            if commands, a == nil {
                throw CLIError.usage(
                    "--commands writes to '\(words[0].text)', which is not a domain or a property-list file "
                        + "ending in .plist; give the domain first to make it like the file")
            }
            difference = StateDiff(domains: StateDiff.domain(a ?? b ?? "", x, y).map { [$0] } ?? [])
        default:
            throw CLIError.usage("a snapshot is compared with a snapshot, or alone with the domains as they are now")
        }
        if commands {
            for line in difference.commands(program: context.program) { context.print(line) }
        } else if json {
            context.output += difference.json
        } else {
            context.output += difference.text(headings: headings)
        }
        if !difference.isEmpty { context.status = max(context.status, 1) }
    }

    /// `snapshot [D…] [-o FILE]`: the domains (every one when none is named) as a state
    /// file, to standard output or FILE.
    static func snapshot(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let file = try GitCommand.takeOption("-o", from: &words)
        try refuseOptions(words, of: "snapshot")
        // Desktop domains only when named: `apply` of the file gives each back exactly.
        let desktop = words.filter { DesktopDomain.isDesktop($0.text) }
        words.removeAll { DesktopDomain.isDesktop($0.text) }
        let names = try stateNames(words, &context)
        var skipped: [StoreError] = []
        var state =
            names.isEmpty && !desktop.isEmpty
            ? SettingsState() : try SettingsState.live(names, in: context.store) { skipped.append($0) }
        for error in skipped { context.report(error) }
        state.domains += try DesktopCommand.state(desktop, every: false, &context)
        try write(state.file, to: file, &context)
    }

    /// Refuses a word that looks like an option but is none of the global domain's
    /// spellings (`-g`, `-globalDomain`) or `-` (standard input).
    static func refuseOptions(_ words: [Token], of verb: String) throws {
        for word in words where word.text.hasPrefix("-") && word.text != "-" {
            if (try? DomainName(word.text)) == .global { continue }
            throw Verb.named(verb)!.unknownOption(word.text)
        }
    }

    /// The domain words as a state names them, with the host option (`-currentHost`,
    /// `-host`) and ByHost paths honoured (`SettingsState.name(of:host:)`).
    static func stateNames(_ words: [Token], _ context: inout Context) throws -> [String] {
        try words.map { token throws in SettingsState.name(of: try context.domainName(token), host: context.host) }
    }

    /// Bytes to FILE, or to standard output when FILE is nil or `-`.
    static func write(_ bytes: [UInt8], to file: String?, _ context: inout Context) throws {
        guard let file, file != "-" else { context.output += bytes; return }
        // A stream the caller holds open (`/dev/stdout`, `>(command)`), or a device named
        // (a node like `/dev/null`), is written into. A FIFO elsewhere is refused: with no
        // reader it would wait for ever, and a user could plant one where root snapshots.
        let kind = (try? FileSystem.linkStatus(file))??.kind
        if file.hasPrefix("/dev/") || file.hasPrefix("/proc/") || kind == .characterDevice {
            context.note(
                try PlistFiles.write(bytes, to: file, lockTimeout: context.store.lockTimeout, newFileMode: 0o600))
            return
        }
        // Else a state file, in the folder named (whose links are the user's own), through
        // the door: never through a link at its name, never into a FIFO, never another
        // user's file when run as root.
        let state = StateFile(root: Path.directory(of: file), Path.lastComponent(of: file))
        try state.replace(with: bytes, durable: true)
    }

    /// One side, from its word: `-` is standard input; a word with a slash, or naming a
    /// file here, is a file (a state file or one domain's values); else a domain.
    static func side(_ token: Token, _ context: inout Context) throws -> Side {
        let word = token.text
        if DesktopDomain.isDesktop(word) {
            return .domain(name: word, values: try DesktopCommand.state([token], every: false, &context)[0].values)
        }
        let isFile = word == "-" || word.contains("/") || (try? FileSystem.status(word))??.isRegular == true
        guard isFile else {
            let domain = try context.domainName(token)
            let values = try context.store.load(domain, host: context.host)?.values
            return .domain(name: SettingsState.name(of: domain, host: context.host), values: values)
        }
        let bytes: [UInt8]
        if word == "-" {
            do throws(Errno) { bytes = try context.streams.input() } catch {
                throw StoreError.unreadable(path: "standard input", error)
            }
        } else {
            bytes = try PlistFiles.read(word)
        }
        switch try SettingsState.read(bytes, name: word == "-" ? "standard input" : word) {
        case .state(let state): return .state(state)
        case .domain(let values): return .domain(name: writableFile(word, bytes, &context), values: values)
        }
    }

    /// The name commands write a file by: its absolute path, when `settings write` takes
    /// that path as this file (it ends in `.plist`, outside the preferences folder) and
    /// the file is a property list (the store reads no JSON); else nil.
    private static func writableFile(_ word: String, _ bytes: [UInt8], _ context: inout Context) -> String? {
        guard word != "-", word.hasSuffix(".plist"),
            // A word without a slash names a file here (`side`), not a domain.
            case let spelled = word.contains("/") ? word : "./" + word,
            case .path(let path)? = try? DomainName(commandLine: spelled, environment: context.streams.environment),
            (try? PlistFiles.dictionary(from: bytes, name: word)) != nil
        else { return nil }
        return path
    }

    /// Whether `flag` is among the words, taking it out.
    static func take(_ flag: String, _ words: inout [Token]) -> Bool {
        let found = words.contains { $0.text == flag }
        words.removeAll { $0.text == flag }
        return found
    }
}
