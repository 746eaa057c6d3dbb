import PlistCodecs
import PlistModel
import PlistTools
import SettingsStore

/// `PlistBuddy` (the binary invoked by that name, or `settings plistbuddy …`): `-c`
/// commands run in order against the file, then every change written in one atomic,
/// locked save, in the file's format; without `-c`, commands are read from standard input
/// (with a prompt at a terminal) and `Save` writes. Exit status 1 when any command failed.
enum PlistBuddyCommand {
    struct Options {
        var commands: [String] = []
        var xml = false
        var noLinks = false
        var help = false
        var file: String?
    }

    static func run(_ context: inout Context, _ words: [String], name: String) -> Int32 {
        var options = Options()
        var rest = words[...]
        while let word = rest.popFirst() {
            switch word {
            case "-c":
                guard let command = rest.popFirst() else {
                    context.error.append(contentsOf: PlistBuddyHelp.usage(program: name).utf8)
                    return 1
                }
                options.commands.append(command)
            case "-x": options.xml = true
            case "-l": options.noLinks = true
            case "-h": options.help = true
            case _ where word.hasPrefix("-") && word.count > 1 && options.file == nil:
                // Flags together, as getopt takes them: -xc "Print".
                for flag in word.dropFirst() {
                    switch flag {
                    case "x": options.xml = true
                    case "l": options.noLinks = true
                    case "h": options.help = true
                    case "c":
                        guard let command = rest.popFirst() else { return usage(&context, name) }
                        options.commands.append(command)
                    default: return usage(&context, name)
                    }
                }
            default:
                guard options.file == nil else { return usage(&context, name) }
                options.file = word
            }
        }
        if options.help {
            context.output.append(
                contentsOf: (PlistBuddyHelp.usage(program: name) + "\n" + PlistBuddyHelp.commands).utf8)
            return 0
        }
        guard let file = options.file, !file.isEmpty else { return usage(&context, name) }
        do {
            if options.noLinks, (try? FileSystem.linkStatus(file))?.kind == .symbolicLink {
                throw PlistBuddyFailure("\(file) is a symbolic link, and -l follows none")
            }
            return options.commands.isEmpty
                ? try interactive(&context, file, options) : try batch(&context, file, options)
        } catch {
            let message =
                switch error {
                case let error as PlistBuddyFailure: error.message
                case let error as StoreError: error.message
                default: "\(error)"
                }
            context.error.append(contentsOf: "\(CLI.oneLine(message))\n".utf8)
            return 1
        }
    }

    private static func usage(_ context: inout Context, _ name: String) -> Int32 {
        context.error.append(contentsOf: PlistBuddyHelp.usage(program: name).utf8)
        return 1
    }

    struct PlistBuddyFailure: Error { let message: String; init(_ message: String) { self.message = message } }

    /// The `-c` commands, run under the file's lock from its read to the one write of every
    /// change: no other writer's change made meanwhile is lost.
    private static func batch(_ context: inout Context, _ file: String, _ options: Options) throws -> Int32 {
        // A stream (/dev/stdin, a pipe, <(command)) is read to its end: commands print from
        // it, and a change, which has nowhere to go, is refused.
        let stream =
            file == "/dev/stdin"
            || (try? FileSystem.status(file)).map({ [.fifo, .characterDevice].contains($0.kind) }) == true
        // Commands that only look (`Print`) take no lock: a folder the user may search but
        // not write is fine, as it is for `cat`.
        if stream || options.commands.allSatisfy(PlistBuddySession.onlyLooks) {
            var said: [UInt8] = []
            var bytes: [UInt8]?
            if file == "/dev/stdin" {
                // The run's standard input, which is the process's own outside the test suite.
                do throws(Errno) { bytes = try context.streams.input() } catch {
                    throw PlistBuddyFailure("Error Reading File: \(file) (\(error.message))")
                }
            } else if stream || (try? FileSystem.linkStatus(file)) != nil {
                bytes = try PlistFiles.read(file)
            }
            // A stream that ends at once holds nothing to read: no file is made from it.
            if stream, bytes?.isEmpty != false {
                throw PlistBuddyFailure("Error Reading File: \(file) (it is empty)")
            }
            var (session, _) = try open(bytes, file, options, said: &said)
            context.output += said
            var failed = false
            for command in options.commands {
                let result = session.run(command)
                context.output += result.output
                if let error = result.error {
                    failed = true
                    context.error += Array((CLI.oneLine(error) + "\n").utf8)
                }
                if result.action == .exit { break }
            }
            guard !session.changed else { throw PlistBuddyFailure("\(file) is not a regular file: nothing saved") }
            return failed ? 1 : 0
        }
        var failed = false
        var printed: [UInt8] = [], errors: [UInt8] = []
        let store = context.store
        let warning = try store.replaceFile(.path(PlutilCommand.absolute(file)), newFileMode: 0o644) { bytes in
            (printed, errors, failed) = ([], [], false)
            var (session, format) = try open(bytes, file, options, said: &printed)
            var toWrite: PlistValue?
            for command in options.commands {
                let result = session.run(command)
                printed += result.output
                if let error = result.error {
                    failed = true
                    errors += Array((CLI.oneLine(error) + "\n").utf8)
                }
                if result.action == .exit { break }
                switch result.action {
                case .save: toWrite = session.root
                case .revert:
                    (session, format) = try open(bytes, file, options, said: &printed)
                    toWrite = nil
                default: break
                }
            }
            if session.changed { toWrite = session.root }
            guard let root = toWrite else { return nil }
            return (root, try PropertyList.encode(root, as: format == .binary ? .binary : .xml))
        }
        context.note(warning)
        context.output += printed
        context.error += errors
        return failed ? 1 : 0
    }

    /// A session on the file's bytes (nil: no file yet, said once, as PlistBuddy does), and
    /// the format its changes are written in (OpenStep comes back as XML).
    private static func open(_ bytes: [UInt8]?, _ file: String, _ options: Options, said: inout [UInt8]) throws
        -> (PlistBuddySession, PlistFormat)
    {
        let reader: (String) throws -> [UInt8] = { try PlistFiles.read($0) }
        guard let bytes, !bytes.isEmpty else {
            if bytes == nil { said += Array("File Doesn't Exist, Will Create: \(file)\n".utf8) }
            return (PlistBuddySession(root: .dict([:]), xml: options.xml, readFile: reader), .xml)
        }
        do {
            let (root, format) = try PropertyList.read(bytes)
            return (PlistBuddySession(root: root, xml: options.xml, readFile: reader), format)
        } catch {
            throw PlistBuddyFailure("Error Reading File: \(file) (\(error.message))")
        }
    }

    /// Commands typed (a `Command: ` prompt at a terminal) or piped, one a line, until
    /// `Exit` or the input's end; `Save` writes, refusing when another program changed the
    /// file since it was read (`Revert` reads it again).
    private static func interactive(_ context: inout Context, _ file: String, _ options: Options) throws -> Int32 {
        var said: [UInt8] = []
        var read = try? PlistFiles.read(file)
        var (session, format) = try open(read, file, options, said: &said)
        context.stream(&said)
        var failed = false
        while true {
            if context.streams.inputIsTerminal {
                var prompt = Array("Command: ".utf8)
                context.stream(&prompt)
            }
            guard let line = context.streams.inputLine() else { break }
            var result = session.run(line)
            if let error = result.error {
                failed = true
                context.error += Array((CLI.oneLine(error) + "\n").utf8)
                context.streams.error(context.error)
                context.error = []
            }
            context.stream(&result.output)
            switch result.action {
            case .exit: return failed ? 1 : 0
            case .revert:
                read = try? PlistFiles.read(file)
                (session, format) = try open(read, file, options, said: &said)
                context.stream(&said)
            case .save:
                let root = session.root, before = read
                var written: [UInt8] = []
                context.note(
                    try context.store.replaceFile(.path(PlutilCommand.absolute(file)), newFileMode: 0o644) { now in
                        guard now == before || (now == nil && before == nil) else {
                            throw PlistBuddyFailure(
                                "Save: \(file) changed since it was read; Revert to read it, then make the change again"
                            )
                        }
                        written = try PropertyList.encode(root, as: format == .binary ? .binary : .xml)
                        return (root, written)
                    })
                (read, session.changed) = (written, false)
                var saying = Array("Saving...\n".utf8)
                context.stream(&saying)
            case .none: break
            }
        }
        return failed ? 1 : 0
    }
}
