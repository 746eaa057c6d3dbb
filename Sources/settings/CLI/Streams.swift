import PlistModel
import PlistCodecs
import SettingsStore

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
    /// Whether a person reads the output (JSON is then pretty-printed).
    var outputIsTerminal: Bool
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
        outputIsTerminal: StandardStreams.outputIsTerminal,
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
            input: { () throws(Errno) in input }, outputIsTerminal: false, endQuietlyOnSignals: {},
            processEndsAfterRun: false)
    }
}
