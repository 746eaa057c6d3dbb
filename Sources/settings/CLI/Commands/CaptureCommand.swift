import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `capture [D…] [--timeout S] [--ignore PATTERN]… [--all] [--state] [-o FILE] [-- CMD…]`:
/// records the domains (every one when none is named, ByHost files included), waits for
/// Ctrl-C, the timeout or the end of CMD, and prints what changed as replayable commands,
/// or with `--state` as a desired state `apply` takes. Keys that change by themselves are
/// hidden (`NoiseFilter`), and which are said.
enum CaptureCommand {
    static func capture(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        var command: [String] = []
        if let dashes = words.firstIndex(where: { $0.text == "--" }) {
            command = words[(dashes + 1)...].map(\.text)
            words.removeSubrange(dashes...)
            guard !command.isEmpty else { throw CLIError.usage("-- needs a command to run") }
        }
        var ignored: [String] = []
        let all = DiffCommand.take("--all", &words), asState = DiffCommand.take("--state", &words)
        while let pattern = try GitCommand.takeOption("--ignore", from: &words) { ignored.append(pattern) }
        let file = try GitCommand.takeOption("-o", from: &words)
        var timeout: Double?
        if let text = try GitCommand.takeOption("--timeout", from: &words) {
            guard let seconds = Seconds.parse(text, from: 0, upTo: WatchCommand.maximumTimeout) else {
                throw CLIError.badValue(
                    flag: "--timeout", text: text, expected: "a number from 0 to \(Int(WatchCommand.maximumTimeout))")
            }
            timeout = seconds
        }
        try DiffCommand.refuseOptions(words, of: "capture")
        guard timeout != nil || !command.isEmpty || context.streams.processEndsAfterRun else {
            throw CLIError.usage("capture in process needs --timeout or a command")
        }
        // The desktop's domains (`gsettings:…`, `dconf:…`) beside the plist ones: those named,
        // or, with none named, every one the user set a value in.
        let desktop = words.filter { DesktopDomain.isDesktop($0.text) }
        words.removeAll { DesktopDomain.isDesktop($0.text) }
        let named = try DiffCommand.stateNames(words, &context)
        let store = context.store
        // A domain that cannot be read is said once, and left out of the comparison.
        var skipped: [StoreError] = []
        func live(_ skipped: (StoreError) -> Void) throws -> SettingsState {
            var state =
                named.isEmpty && !desktop.isEmpty
                ? SettingsState() : try SettingsState.live(named, in: store, skipped: skipped)
            state.domains += try DesktopCommand.state(desktop, every: named.isEmpty && desktop.isEmpty, &context)
            return state
        }
        let before = try live { skipped.append($0) }

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
            let count = named.count + desktop.count
            let what = count == 0 ? "every domain" : count == 1 ? (named + desktop.map(\.text))[0] : "\(count) domains"
            let until = timeout.map { "for \(CLI.seconds($0)) s" } ?? "until Ctrl-C"
            context.streams.error(Array("\(context.program): recording \(what) \(until)\n".utf8))
            _ = stop?.wait(seconds: timeout ?? WatchCommand.maximumTimeout)
        }

        // With no domain named, both states hold every domain: one made meanwhile was
        // absent before, one removed is absent now.
        var after = try live { _ in }
        after.unreadable += before.unreadable
        for error in skipped { context.warn(Diagnostic(error, verbWrites: false).message) }
        let filter = NoiseFilter(ignored, builtIn: !all)
        let (difference, hidden) = filter.filter(StateDiff(from: before, to: after))
        if asState {
            try DiffCommand.write(difference.desiredState(), to: file, &context)
        } else {
            var text: [UInt8] = []
            for line in difference.commands(program: context.program) { text += Array(line.utf8) + [0x0A] }
            try DiffCommand.write(text, to: file, &context)
        }
        if !hidden.isEmpty {
            let keys = hidden.count == 1 ? "1 change" : "\(hidden.count) changes"
            context.error += Array(
                ("\(context.program): hid \(keys) to keys that change by themselves (--all shows them): "
                    + Self.list(hidden) + "\n").utf8)
        }
        context.status = status
    }

    /// The most places a message names; the rest are counted.
    static let listed = 10

    /// `DOMAIN /POINTER, …` of the first few places, and how many more, escaped for a
    /// terminal.
    static func list(_ places: [StateDiff.Place]) -> String {
        var names = places.prefix(listed).map { place in
            let pointer = place.path.segments.isEmpty ? "(the whole domain)" : place.path.pointer
            return CanonicalText.escapedLine(place.domain) + " " + CanonicalText.escapedLine(pointer)
        }
        if places.count > listed { names.append("and \(places.count - listed) more") }
        return names.joined(separator: ", ")
    }
}
