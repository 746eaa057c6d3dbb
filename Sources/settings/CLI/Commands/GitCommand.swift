import PlistCodecs
import PlistModel
import SettingsStore
import SettingsSync

/// The verbs that teach git property lists: `textconv` (a diffable text of any plist),
/// `merge-file` (git's merge-driver contract, a three-way merge per key) and `git-setup`
/// (the attributes and config that use them).
enum GitCommand {
    /// `textconv FILE`: the file's canonical text (see `CanonicalText`). FILE is a path,
    /// taken literally (git hands a temporary file's path); an empty file prints nothing.
    static func textconv(_ context: inout Context, _ arguments: [Token]) throws {
        guard let file = arguments.first else { throw CLIError.usage("textconv needs a file") }
        try expectAtMost(1, arguments)
        let bytes = try PlistFiles.read(file.text)
        guard !bytes.isEmpty else { return }
        let value: PlistValue
        do { value = try PropertyList.read(bytes).0 } catch { throw StoreError.corrupt(path: file.text, error) }
        context.output += CanonicalText.lines(value)
    }

    /// `merge-file BASE OURS THEIRS [--path P]`, as git runs a merge driver (`%O %A %B
    /// --path %P`): the merge of the three dictionaries (`ThreeWayMerge`) replaces OURS,
    /// in OURS' format. Exit 0 when it merged cleanly; 1 when both sides changed a value
    /// differently: OURS' value is kept there, every other change of THEIRS is merged, the
    /// file is still a valid property list, and each conflict is one line on stderr. A
    /// missing or empty file (git's BASE for two additions) is an empty dictionary.
    static func mergeFile(_ context: inout Context, _ arguments: [Token]) throws {
        var arguments = arguments
        let path = try takeOption("--path", from: &arguments)
        // Sync's rule for a driver of one's own: a conflict takes theirs (what another
        // machine already pushed) and appends the losing value to a log. (`settings sync`
        // itself merges without git's merge machinery, so it runs no driver.)
        let log = try takeOption("--log", from: &arguments)
        let keepTheirs = arguments.contains { $0.text == "--keep-theirs" }
        arguments.removeAll { $0.text == "--keep-theirs" }
        guard arguments.count >= 3 else { throw CLIError.usage("merge-file needs BASE OURS THEIRS") }
        try expectAtMost(3, arguments)
        let base = try side(arguments[0].text), ours = try side(arguments[1].text), theirs = try side(arguments[2].text)
        let merge = ThreeWayMerge(
            base: base.values, ours: ours.values, theirs: theirs.values, keepTheirs: keepTheirs)
        let format = ours.format ?? theirs.format ?? .xml
        let bytes: [UInt8]
        if format == .binary {
            bytes = BinaryWriter.encode(.dict(merge.merged))
        } else {
            // OpenStep has no writer here: an OpenStep OURS comes back as XML, which every
            // reader of it reads.
            var xml: [UInt8] = []
            try XMLWriter.encode(.dict(merge.merged), chunk: Int.max) { xml += $0 }
            bytes = xml
        }
        try PlistFiles.write(bytes, to: arguments[1].text, lockTimeout: context.store.lockTimeout)
        let name = path.map { " in \(CanonicalText.escapedLine($0))" } ?? ""
        var logged: [UInt8] = []
        for conflict in merge.conflicts {
            let ours = conflict.ours.map(CanonicalText.json) ?? "(removed)"
            let theirs = conflict.theirs.map(CanonicalText.json) ?? "(removed)"
            let kept = keepTheirs ? "kept theirs, already pushed" : "kept ours"
            let line =
                "conflict at \(CanonicalText.escapedLine(conflict.path.pointer))\(name): ours \(ours), theirs \(theirs); \(kept)"
            context.error += Array("\(context.program): \(line)\n".utf8)
            logged += Array("\(line)\n".utf8)
        }
        if let log, !logged.isEmpty {
            var text = (try? PlistFiles.read(log)) ?? []
            text += logged
            try PlistFiles.write(text, to: log, lockTimeout: context.store.lockTimeout)
        }
        if !merge.conflicts.isEmpty, !keepTheirs { context.status = 1 }
    }

    /// Takes `name VALUE` out of the words; the value, or nil when the option is absent.
    static func takeOption(_ name: String, from arguments: inout [Token]) throws -> String? {
        guard let at = arguments.firstIndex(where: { $0.text == name }) else { return nil }
        guard at + 1 < arguments.count else { throw CLIError.missingValue(flag: name) }
        defer { arguments.removeSubrange(at...(at + 1)) }
        return arguments[at + 1].text
    }

    /// One side of a merge: its dictionary and format; a missing or empty file is empty.
    private static func side(_ path: String) throws -> (values: PlistDictionary, format: PlistFormat?) {
        guard FileSystem.exists(path) else { return ([:], nil) }
        let bytes = try PlistFiles.read(path)
        guard !bytes.isEmpty else { return ([:], nil) }
        let (value, format): (PlistValue, PlistFormat)
        do { (value, format) = try PropertyList.read(bytes) } catch { throw StoreError.corrupt(path: path, error) }
        guard case .dict(let values) = value else { throw StoreError.notADictionary(path: path, value.type) }
        return (values, format)
    }

    /// The attributes line `git-setup` makes sure of.
    static let attributes = "*.plist diff=plist merge=plist"

    /// `git-setup [--global | --repo DIR]`: through `git config` (so `--global` honours
    /// `GIT_CONFIG_GLOBAL`), `diff.plist.textconv`, `merge.plist.driver` and
    /// `merge.plist.name`, and the attributes line in the global attributes file or the
    /// repository's `.gitattributes`. Idempotent; says what it wrote.
    static func gitSetup(_ context: inout Context, _ arguments: [Token]) throws {
        var scope: [String] = ["--local"], repository: String?
        switch arguments.first?.text {
        case nil: repository = "."
        case "--global"?:
            try expectAtMost(1, arguments)
            scope = ["--global"]
        case "--repo"?:
            guard arguments.count >= 2 else { throw CLIError.missingValue(flag: "--repo") }
            try expectAtMost(2, arguments)
            repository = arguments[1].text
        case let word?: throw CLIError.unexpectedArgument(word)
        }
        let git = ["git"] + (repository.map { ["-C", $0] } ?? [])
        let program = shellQuoted(Subprocess.currentExecutable ?? "settings")
        let settings = [
            ("diff.plist.textconv", "\(program) textconv"),
            ("merge.plist.driver", "\(program) merge-file %O %A %B --path %P"),
            ("merge.plist.name", "property lists, merged key by key by settings"),
        ]
        let environment = context.streams.environment
        for (name, value) in settings {
            try run(git + ["config"] + scope + [name, value], environment, &context)
            context.print("git config \(scope[0]) \(name) \(shellQuoted(value))")
        }
        let file: String
        if repository != nil {
            let top = try run(git + ["rev-parse", "--show-toplevel"], environment, &context)
            file = Path.join(top, ".gitattributes")
        } else {
            let configured = try? run(
                git + ["config", "--global", "--get", "core.attributesFile"], environment, &context)
            if let configured, !configured.isEmpty {
                file =
                    configured.hasPrefix("~/")
                    ? Path.join(environment.home, String(configured.dropFirst(2))) : configured
            } else if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
                file = Path.join(xdg, "git/attributes")
            } else {
                file = Path.join(environment.home, ".config/git/attributes")
            }
        }
        var text = FileSystem.exists(file) ? try PlistFiles.read(file) : []
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        if lines.contains(where: { $0.trimmingBlanks() == attributes }) {
            context.print("\(file) already has \(attributes)")
            return
        }
        if !text.isEmpty, text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        text += Array("\(attributes)\n".utf8)
        do { try FileSystem.makeDirectories(Path.directory(of: file)) } catch {
            throw StoreError.writeFailed(path: file, error)
        }
        try PlistFiles.write(text, to: file, lockTimeout: context.store.lockTimeout)
        context.print("\(file): \(attributes)")
    }

    /// Runs git; its standard output, without the last newline. What git writes on
    /// standard error reaches the user through the run's streams (so an in-process run
    /// holds it too); a failure is one line: the command, its status and git's last
    /// meaningful line.
    @discardableResult
    static func run(_ arguments: [String], _ environment: Environment, _ context: inout Context) throws -> String {
        let result: Subprocess.Result
        do { result = try Subprocess.run(arguments, environment: environment) } catch {
            throw CLIError.gitMissing(error)
        }
        guard result.status == 0 else {
            throw CLIError.gitFailed(
                command: arguments.joined(separator: " "), status: result.status, said: lastLine(of: result.errors))
        }
        context.error += result.errors
        var output = result.output
        if output.last == UInt8(ascii: "\n") { output.removeLast() }
        return String(decoding: output, as: UTF8.self)
    }

    /// The last line of a program's standard error that says something: not blank, not
    /// one of git's `hint:` lines.
    static func lastLine(of errors: [UInt8]) -> String? {
        String(decoding: errors, as: UTF8.self).split(separator: "\n").map { $0.trimmingBlanks() }
            .last { !$0.isEmpty && !$0.hasPrefix("hint:") }.map(String.init)
    }

    /// `word` as one word for the shell git runs a driver with.
    static func shellQuoted(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default: return "/._-+".utf8.contains(byte)
            }
        }
        if plain, !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
