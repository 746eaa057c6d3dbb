/// What one word after a verb is: the verb table declares each positional and each option's
/// argument as one of these; completion offers candidates by kind (`Completion`), help
/// names it by its placeholder, and `Verb.checkWords` lets a `--` word stand where a key,
/// text or a word does.
enum ArgumentKind: String, Sendable, CaseIterable {
    /// A domain: a name, `-g`, or a path to a file.
    case domain
    /// A domain or a file (`diff`'s sides): the domains and the files here.
    case side
    /// A form of text to edit in (`edit --format`): one of `words`.
    case format
    /// A command to run (`capture --`): the shell's commands, then its arguments' files.
    case command
    /// A key of the domain named before it.
    case key
    /// An RFC 6901 pointer into the domain named before it.
    case pointer
    /// A jq path into the domain (`--path-json`).
    case jqPath
    /// A `write` value: a schema's choice, a literal, or a type flag and what follows it.
    case value
    /// JSON text (`--json <json>`).
    case json
    /// A file on disk.
    case file
    /// A property-list file, or `-` for standard input or output.
    case plistFile
    /// A folder on disk.
    case directory
    /// A number of seconds, as `Seconds.parse` reads it.
    case seconds
    /// A number of milliseconds, read the same way.
    case milliseconds
    /// A whole number from 1.
    case count
    /// A shell pattern over domain names (`sync carry 'com.example.*'`).
    case pattern
    /// A git remote.
    case url
    /// Free text (`find`'s word, `merge-file --path`'s name).
    case text
    /// A verb's name (`help VERB`).
    case verb
    /// A shell's name (`completion SHELL`).
    case shell
    /// A place where options stand (`complete options VERB PLACE`).
    case place
    /// A word of the command line being completed (`complete line`).
    case word
    /// A format of `plutil -convert` and `-extract`.
    case plistFormat

    /// How help shows it: `<domain>`, `S`.
    var placeholder: String {
        switch self {
        case .domain, .key, .pointer, .value, .json, .file, .pattern, .url, .verb, .shell, .place, .word, .format,
            .command:
            "<\(rawValue)>"
        case .side: "<domain|file>"
        case .jqPath: "<path>"
        case .plistFile: "<path to plist>"
        case .directory: "DIR"
        case .seconds: "S"
        case .milliseconds: "MS"
        case .count: "N"
        case .text: "<text>"
        case .plistFormat: "<fmt>"
        }
    }

    /// The fixed words of a kind that has them, for completion: the table says which
    /// words an option takes by the kind it gives its argument.
    var words: [String]? {
        switch self {
        case .shell: CompletionScripts.shells
        case .place: VerbOption.Place.allCases.map(\.rawValue)
        case .format: ["json", "xml"]
        case .plistFormat: ["xml1", "binary1", "json", "swift", "objc", "raw"]
        default: nil
        }
    }
}
