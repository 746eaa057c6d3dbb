import PlistModel

/// A `plutil` command line, read as Apple's plutil reads one: the first word is the
/// command (`-lint` when it is none of them), then the command's own words, then options
/// and files in any order. One difference: `--` makes every later word a file, as
/// plutil(1) says (Apple's Linux port reads on for options after it).
package struct PlutilInvocation: Sendable {
    package enum Command: Sendable {
        case help, lint, print
        case convert(PlutilFormat, header: Bool)
        case insert(PlutilKeyPath, PlistValue, replacing: Bool, appending: Bool)
        case remove(PlutilKeyPath)
        /// `-extract`: nil keeps the file's format; `expect` is a type name.
        case extract(PlutilKeyPath, PlutilFormat?, expect: String?)
        case type(PlutilKeyPath, expect: String?)
        case create(PlutilFormat)
    }

    package var command: Command
    package var paths: [String] = []
    /// `-r`: JSON indented, keys sorted.
    package var readable = false
    /// Not `-n`: a newline after `raw` and `-type` output.
    package var newline = true
    /// `-o PATH`; `-` is standard output.
    package var output: String?
    /// `-e EXT`: the converted file's extension.
    package var fileExtension: String?
    /// `-s`: nothing printed on success.
    package var silent = false

    package init(_ arguments: [String]) throws(PlutilError) {
        var words = arguments[...]
        let first = words.first ?? ""
        switch first {
        case "-help": command = .help
        case "-lint": command = .lint
        case "-p": command = .print
        case "-convert", "-create":
            words.removeFirst()
            guard let word = words.popFirst() else {
                throw first == "-create" ? .createNeedsFormat : .missingFormat
            }
            let format = try PlutilFormat(word)
            if first == "-create" {
                command = .create(format)
            } else {
                let header = words.first == "-header"
                if header {
                    guard format == .objc else { throw .headerNeedsObjC }
                    words.removeFirst()
                }
                command = .convert(format, header: header)
            }
        case "-insert", "-replace":
            words.removeFirst()
            guard let path = words.popFirst() else { throw .insertNeedsArguments }
            let (value, taken) = try PlutilValue.parse(words)
            words.removeFirst(taken)
            let appending = words.first == "-append"
            if appending { words.removeFirst() }
            command = .insert(
                PlutilKeyPath(path), value, replacing: first == "-replace", appending: appending && first == "-insert")
        case "-remove":
            words.removeFirst()
            guard let path = words.popFirst() else { throw .removeNeedsKeyPath }
            command = .remove(PlutilKeyPath(path))
        case "-extract", "-type":
            words.removeFirst()
            guard let path = words.popFirst() else { throw .extractNeedsKeyPathAndFormat }
            var format: PlutilFormat?
            if first == "-extract" {
                guard let word = words.popFirst() else { throw .extractNeedsKeyPathAndFormat }
                format = try PlutilFormat(word)
            }
            var expect: String?
            if words.first == "-expect" {
                words.removeFirst()
                guard let type = words.popFirst() else { throw .expectNeedsType }
                guard PlutilText.typeNames.contains(type) else { throw .unknownExpectType(type) }
                expect = type
            }
            command =
                first == "-extract"
                ? .extract(PlutilKeyPath(path), format, expect: expect) : .type(PlutilKeyPath(path), expect: expect)
        default: command = .lint
        }
        if case .help = command { return }
        if ["-help", "-lint", "-p"].contains(first) { words.removeFirst() }
        try readOptions(words)
    }

    private mutating func readOptions(_ arguments: ArraySlice<String>) throws(PlutilError) {
        var words = arguments
        while let word = words.popFirst() {
            switch word {
            case "--":
                paths += words
                words = []
            case "-n": newline = false
            case "-s": silent = true
            case "-r": readable = true
            case "-o", "-e":
                guard let value = words.popFirst() else { throw .missingArgument(word) }
                if word == "-o" { output = value } else { fileExtension = value }
            default:
                if word.hasPrefix("-"), word.count > 1 { throw .unrecognizedOption(word) }
                paths.append(word)
            }
        }
        guard !paths.isEmpty else { throw .noFiles }
        switch command {
        case .lint, .print:
            let name = if case .lint = command { "-lint" } else { "-p" }
            if output != nil { throw .optionNotUsed("-o", with: name) }
            if fileExtension != nil { throw .optionNotUsed("-e", with: name) }
        default: break
        }
    }

    /// Where a file's result goes: `-o`'s path, else the file itself, its extension
    /// replaced by `-e`'s, then by `.m` or `.swift` for source code (so a file forgotten
    /// without `-o` is never overwritten with it).
    package func destination(of path: String, format: PlutilFormat) -> String {
        if let output { return output }
        var result = path
        if let fileExtension { result = Self.replacingExtension(result, with: fileExtension) }
        switch format {
        case .objc: result = Self.replacingExtension(result, with: "m")
        case .swift: result = Self.replacingExtension(result, with: "swift")
        default: break
        }
        return result
    }

    /// `a/b.plist` with `json` is `a/b.json`; a name without a dot (or only a leading one,
    /// as `.profile`, or the dot of a folder) keeps its name.
    package static func replacingExtension(_ path: String, with ext: String) -> String {
        let bytes = Array(path.utf8)
        guard path != ".", path != "..", let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return path }
        return String(decoding: bytes[...dot], as: UTF8.self) + ext
    }
}
