import PlistModel
import PlistCodecs
import SettingsStore
import Synchronization

/// What a run of the command line reads and writes besides its arguments: the process's
/// descriptors and environment (`Streams.process`), or buffers and a table (the test
/// suite runs most commands in process this way). No verb touches a descriptor, `getenv`
/// or a signal except through one of these.
struct Streams: Sendable {
    var environment: Environment
    /// Standard output, a piece at a time, in order; throws what `write(2)` said.
    var output: @Sendable ([UInt8]) throws(Errno) -> Void
    /// Standard error; a failure to write it has nowhere to be reported.
    var error: @Sendable ([UInt8]) -> Void
    /// Standard input, to its end (`import D -`).
    var input: @Sendable () throws(Errno) -> [UInt8]
    /// One line of standard input, a person's answer to a prompt (`edit`); nil at its end.
    var inputLine: @Sendable () -> String?
    /// Whether a person reads the output (JSON is then pretty-printed).
    var outputIsTerminal: Bool
    /// Whether a person types the input (a prompt is then shown).
    var inputIsTerminal = false
    /// For a verb that runs until stopped (`watch`): SIGINT, SIGTERM and SIGHUP end the
    /// process with status 0, as stopping it is how it is meant to end.
    var endQuietlyOnSignals: @Sendable () -> Void
    /// Whether the process ends after this run, so big values can be left for it to free.
    var processEndsAfterRun: Bool

    static let process = Streams(
        environment: .process,
        output: { bytes throws(Errno) in try StandardStreams.write(bytes) },
        error: { bytes in try? StandardStreams.write(bytes, toError: true) },
        input: { () throws(Errno) in try StandardStreams.readAll() },
        inputLine: { StandardStreams.readLine() },
        outputIsTerminal: StandardStreams.outputIsTerminal, inputIsTerminal: StandardStreams.inputIsTerminal,
        endQuietlyOnSignals: StandardStreams.exitQuietlyOnSignals,
        processEndsAfterRun: true)

    /// Streams for a run inside another program: `environment` is the whole environment,
    /// `input` all of standard input, and the output is handed to the two closures.
    static func inProcess(
        environment: [String: String], input: [UInt8] = [],
        output: @escaping @Sendable ([UInt8]) -> Void, error: @escaping @Sendable ([UInt8]) -> Void
    ) -> Streams {
        Streams(
            environment: Environment(environment), output: { bytes throws(Errno) in output(bytes) }, error: error,
            input: { () throws(Errno) in input },
            inputLine: { [lines = LineQueue(input)] in lines.next() }, outputIsTerminal: false, endQuietlyOnSignals: {},
            processEndsAfterRun: false)
    }
}

/// The lines of a buffer, handed out in turn: standard input's answers to prompts, in process.
final class LineQueue: Sendable {
    private let lines: Mutex<[String]>

    init(_ bytes: [UInt8]) {
        var all = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if all.last == "" { all.removeLast() }
        lines = Mutex(all)
    }

    func next() -> String? { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
