import SettingsCore

/// The command line: argv in, exit status out. Output is gathered and written with
/// one system call, so a reader of a pipe never sees half a domain.
enum CLI {
    static let version = "0.1.0"

    static func run(_ argv: [String]) -> Int32 {
        let program = argv.first.map(programName) ?? "settings"
        var context = Context(program: program)
        let status: Int32
        do {
            let invocation = try Invocation(arguments: Array(argv.dropFirst()))
            context.host = invocation.host
            try invocation.verb.run(&context, invocation.arguments)
            status = context.status
        } catch {
            let diagnostic = Diagnostic(error, program: program)
            context.error.append(contentsOf: "\(program): \(diagnostic.message)\n".utf8)
            status = diagnostic.status
        }
        if !context.output.isEmpty { StandardStreams.write(context.output) }
        if !context.error.isEmpty { StandardStreams.write(context.error, toError: true) }
        return status
    }

    /// The name the binary was invoked as: `defaults` when linked under that name.
    static func programName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "settings"
    }
}

/// Values kept until the process exits, which frees them all at once: taking apart a
/// 100,000-key tree one node at a time costs a tenth of an `import`.
nonisolated(unsafe) private var keptUntilExit: [PlistDictionary] = []

/// What a verb needs: the store, the host option, and buffers for its output.
struct Context {
    let program: String
    var host: DomainHost = .any
    var store = DomainStore()
    var output: [UInt8] = []
    var error: [UInt8] = []
    /// The exit status of a verb that succeeds in more than one way (`watch --timeout`).
    var status: Int32 = 0

    mutating func print(_ text: String) {
        output.append(contentsOf: text.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// Keeps a big value alive until exit, so it is never freed piece by piece.
    func keepUntilExit(_ values: PlistDictionary) { keptUntilExit.append(values) }

    /// One line on stderr that does not change the exit status.
    mutating func warn(_ text: String) {
        error.append(contentsOf: "\(program): warning: \(text)\n".utf8)
    }
}
