import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `capture [D…] [--timeout S] [--ignore PATTERN]… [--all] [-- CMD…]`: records the
/// domains (every one when none is named), waits for Ctrl-C, the timeout or the end of
/// CMD, and prints what changed as replayable commands. Keys that change by themselves
/// are hidden (`NoiseFilter`), and how many is said.
enum CaptureCommand {
    static func capture(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        var command: [String] = []
        if let dashes = words.firstIndex(where: { $0.text == "--" }) {
            command = words[(dashes + 1)...].map(\.text)
            words.removeSubrange(dashes...)
            guard !command.isEmpty else { throw CLIError.usage("-- needs a command to run") }
        }
        var patterns = NoiseFilter.defaultPatterns
        var ignored: [String] = []
        if DiffCommand.take("--all", &words) { patterns = [] }
        while let pattern = try GitCommand.takeOption("--ignore", from: &words) { ignored.append(pattern) }
        var timeout: Double?
        if let text = try GitCommand.takeOption("--timeout", from: &words) {
            guard let seconds = Seconds.parse(text, from: 0, upTo: WatchCommand.maximumTimeout) else {
                throw CLIError.badValue(
                    flag: "--timeout", text: text, expected: "a number from 0 to \(Int(WatchCommand.maximumTimeout))")
            }
            timeout = seconds
        }
        for word in words where word.text.hasPrefix("-") { throw Verb.named("capture")!.unknownOption(word.text) }
        guard timeout != nil || !command.isEmpty || context.streams.processEndsAfterRun else {
            throw CLIError.usage("capture in process needs --timeout or a command")
        }
        let named = try words.map { token throws in try context.domainName(token).displayName }
        let store = context.store
        // A domain that cannot be read is said once, and left out of the comparison.
        var skipped: [StoreError] = []
        let before = try SettingsState.live(named, in: store) { skipped.append($0) }

        var status: Int32 = 0
        let stop = try? CancelSignal()
        if context.streams.processEndsAfterRun { stop?.raisedOnTerminationSignals() }
        if !command.isEmpty {
            do throws(Errno) {
                status = try Subprocess.runAttached(command, environment: context.streams.environment)
            } catch {
                throw CLIError.cannotRun(command[0], error)
            }
        } else {
            let what = named.isEmpty ? "every domain" : named.count == 1 ? named[0] : "\(named.count) domains"
            let until = timeout.map { "for \(CLI.seconds($0)) s" } ?? "until Ctrl-C"
            context.streams.error(Array("\(context.program): recording \(what) \(until)\n".utf8))
            _ = stop?.wait(seconds: timeout ?? WatchCommand.maximumTimeout)
        }

        // With no domain named, both states hold every domain: one made meanwhile was
        // absent before, one removed is absent now.
        var after = try SettingsState.live(named, in: store) { _ in }
        after.unreadable += before.unreadable
        for error in skipped { context.warn(Diagnostic(error, verbWrites: false).message) }
        let filter = NoiseFilter(patterns + ignored)
        let (difference, hidden) = filter.apply(to: StateDiff(from: before, to: after))
        for line in difference.commands(program: context.program) { context.print(line) }
        if hidden > 0 {
            let keys = hidden == 1 ? "1 change" : "\(hidden) changes"
            context.error += Array(
                "\(context.program): hid \(keys) to keys that change by themselves (--all shows them)\n".utf8)
        }
        context.status = status
    }
}
