import PlistCodecs
import PlistModel
import PlistTools
import SettingsStore

/// `plutil` (the binary invoked by that name, or `settings plutil …`): Apple's plist
/// utility's command line, its output and exit statuses (0, or 1 when anything failed),
/// on this store: a file changed in place is replaced atomically under its folder's
/// lock, keeping its mode, and a read-only one is refused.
enum PlutilCommand {
    /// Runs `plutil WORDS…` (`name` is how the help names it) and returns its status.
    static func run(_ context: inout Context, _ words: [String], name: String) -> Int32 {
        let invocation: PlutilInvocation
        do throws(PlutilError) { invocation = try PlutilInvocation(words) } catch {
            context.error.append(contentsOf: (CLI.oneLine(error.message) + "\n").utf8)
            return 1
        }
        if case .help = invocation.command {
            context.output.append(contentsOf: PlutilHelp.text(program: name).utf8)
            return 0
        }
        if case .print = invocation.command, invocation.silent {
            context.error.append(contentsOf: "-s doesn't make a lot of sense with -p.\n".utf8)
        }
        var failed = false, hinted = false, hintedArray = false
        for path in invocation.paths {
            do {
                try run(&context, invocation, path, hintedArray: &hintedArray)
            } catch {
                failed = true
                let message =
                    switch error {
                    case let error as PlutilError: error.message
                    case let error as StoreError: "(\(error.message))"
                    default: "(\(error))"
                    }
                // One line whatever the name or key holds: control characters are escaped.
                context.error.append(
                    contentsOf: (CLI.oneLine("\(path == "-" ? "<stdin>" : path): \(message)") + "\n").utf8)
                if case .notForJSON(datesOrData: true) = error as? PlutilError, !hinted {
                    hinted = true
                    context.error.append(contentsOf: hintForJSON(path).utf8)
                }
            }
        }
        return failed ? 1 : 0
    }

    /// Said once after plutil's refusal of dates and data in JSON: the command that keeps
    /// them (a path with a `/`, so `export` takes it as a file, not a domain's name).
    static func hintForJSON(_ path: String) -> String {
        let file = path == "-" ? "FILE" : path.contains("/") ? path : "./" + path
        return "hint: settings export \(file) - --json keeps dates and data ({\"$date\": …}, {\"$data\": …})\n"
    }

    /// One file's command; `hintedArray`: whether the hint after an array's `-replace` was
    /// said in this run.
    private static func run(
        _ context: inout Context, _ invocation: PlutilInvocation, _ path: String, hintedArray: inout Bool
    ) throws {
        guard !path.isEmpty else { throw PlutilError.emptyPath }
        switch invocation.command {
        case .help: return
        case .lint:
            try PlutilDocument.lint(try read(&context, path))
            if !invocation.silent { context.output.append(contentsOf: "\(path == "-" ? "<stdin>" : path): OK\n".utf8) }
        case .print:
            let (root, _) = try PlutilDocument.read(try read(&context, path))
            context.output.append(contentsOf: PlutilText.printed(root).utf8)
        case .convert(let format, let header):
            let destination = invocation.destination(of: path, format: format)
            var converted: PlistValue?
            try change(&context, path, to: destination) { bytes throws in
                let (root, _) = try PlutilDocument.read(bytes)
                converted = root
                return (
                    root,
                    try PlutilOutput.encode(
                        root, as: format, readable: invocation.readable, source: path, output: destination)
                )
            }
            if header, let converted, destination != "-" {
                let text = try PlutilOutput.objcHeader(converted, source: path)
                let headerPath = PlutilInvocation.replacingExtension(destination, with: "h")
                try PlistFiles.write(Array(text.utf8), to: headerPath, lockTimeout: context.store.lockTimeout)
            }
        case .insert(let keyPath, let value, let replacing, let appending):
            var intoArray = false
            try edit(&context, invocation, path) { root throws(PlutilError) in
                intoArray = replacing && keyPath.namesArrayElement(in: root)
                return try keyPath.inserting(value, into: root, replacing: replacing, appending: appending)
            }
            // Apple's oddity, kept: -replace on an array's index inserts. Said once.
            if intoArray, !hintedArray {
                hintedArray = true
                let pointer = PlistKeyPath(keyPath.components).pointer
                context.error += Array(
                    ("hint: -replace on an array index inserts, as Apple's plutil does; "
                        + "settings write \(path.contains("/") ? path : "./" + path) -p \(pointer) … replaces the element\n")
                        .utf8)
            }
        case .remove(let keyPath):
            try edit(&context, invocation, path) { root throws(PlutilError) in try keyPath.removing(from: root) }
        case .extract(let keyPath, let chosen, let expect):
            let toOutput = invocation.output == "-" || (invocation.output == nil && chosen == .raw)
            var destination = "-"
            if !toOutput {
                // The file's own format is known once it is read: read it first for the name.
                let (_, kept) = try PlutilDocument.read(try read(&context, path))
                destination = invocation.destination(of: path, format: try chosen ?? writable(kept))
            }
            try change(&context, path, to: destination) { bytes throws in
                let (root, kept) = try PlutilDocument.read(bytes)
                let value = try found(keyPath, in: root, expect: expect)
                let format = try chosen ?? writable(kept)
                var out = try PlutilOutput.encode(
                    value, as: format, readable: invocation.readable, source: path, output: destination,
                    keyPath: keyPath.text)
                if toOutput, format == .raw, invocation.newline { out.append(UInt8(ascii: "\n")) }
                return (value, out)
            }
        case .type(let keyPath, let expect):
            let (root, _) = try PlutilDocument.read(try read(&context, path))
            let name = PlutilText.typeName(try found(keyPath, in: root, expect: expect))
            if let output = invocation.output, output != "-" {
                try PlistFiles.write(Array(name.utf8), to: output, lockTimeout: context.store.lockTimeout)
            } else {
                context.output.append(contentsOf: (name + (invocation.newline ? "\n" : "")).utf8)
            }
        case .create(let format):
            var out = try PlutilOutput.empty(format, readable: invocation.readable)
            if path == "-" {
                if format == .raw, invocation.newline { out.append(UInt8(ascii: "\n")) }
                context.output.append(contentsOf: out)
            } else {
                try change(&context, path, to: path, creating: true) { _ in (.dict([:]), out) }
            }
        }
    }

    /// `-insert`, `-replace` and `-remove`: the file changed where `-o` and `-e` say (in
    /// place by default), in the format it was read in.
    private static func edit(
        _ context: inout Context, _ invocation: PlutilInvocation, _ path: String,
        _ edit: (PlistValue) throws(PlutilError) -> PlistValue
    ) throws {
        var destination = invocation.output ?? path
        if invocation.output == nil, invocation.fileExtension != nil {
            let (_, kept) = try PlutilDocument.read(try read(&context, path))
            destination = invocation.destination(of: path, format: try writable(kept))
        }
        try change(&context, path, to: destination) { bytes throws in
            let (root, kept) = try PlutilDocument.read(bytes)
            let changed = try edit(root)
            return (changed, try PlutilOutput.encode(changed, as: try writable(kept), readable: invocation.readable))
        }
    }

    private static func writable(_ format: PlutilFormat?) throws(PlutilError) -> PlutilFormat {
        guard let format else { throw .cannotWriteOpenStep }
        return format
    }

    private static func found(_ keyPath: PlutilKeyPath, in root: PlistValue, expect: String?) throws(PlutilError)
        -> PlistValue
    {
        guard let value = keyPath.value(in: root) else { throw .noValueAt(keyPath.text) }
        let actual = PlutilText.typeName(value)
        if let expect, expect != actual {
            throw .unexpectedType(keyPath: keyPath.text, expected: expect, actual: actual)
        }
        return value
    }

    /// Runs `produce` on the bytes of `path` and writes what it makes to `destination`:
    /// when that is the file itself, the whole change is made under the file's lock by the
    /// store's one transaction; `-` is standard output; any other path is written as
    /// `export` writes one.
    private static func change(
        _ context: inout Context, _ path: String, to destination: String, creating: Bool = false,
        _ produce: ([UInt8]) throws -> (PlistValue, [UInt8])
    ) throws {
        if destination == path, path != "-" {
            let domain = DomainName.path(absolute(path))
            context.note(
                try context.store.replaceFile(domain, newFileMode: 0o644) { current in
                    guard let current else {
                        if creating { return try produce([]) }
                        throw PlutilError.unreadable("The operation could not be completed. The file doesn’t exist.")
                    }
                    return try produce(current)
                })
            return
        }
        let (_, out) = try produce(try read(&context, path))
        if destination == "-" {
            context.output.append(contentsOf: out)
        } else {
            context.note(try PlistFiles.write(out, to: destination, lockTimeout: context.store.lockTimeout))
        }
    }

    /// A file's bytes, or standard input's for `-` (read once: a second command on it reads
    /// what the first left).
    private static func read(_ context: inout Context, _ path: String) throws -> [UInt8] {
        if path == "-" {
            do throws(Errno) { return try context.streams.input() } catch {
                throw PlutilError.unreadable("Unable to read file from standard input")
            }
        }
        do throws(StoreError) { return try PlistFiles.read(path) } catch {
            if case .unreadable(_, let errno) = error, errno == .noSuchFile {
                throw PlutilError.unreadable("The operation could not be completed. The file doesn’t exist.")
            }
            throw error
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(FileSystem.currentDirectory(), path)
    }
}
