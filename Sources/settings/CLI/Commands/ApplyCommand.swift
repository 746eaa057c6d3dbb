import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `apply FILE [--dry-run | --check] [--as NAME]`: a desired state made true
/// (`DesiredState`); here the words are parsed and the changes printed.
enum ApplyCommand {
    static func apply(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let dryRun = DiffCommand.take("--dry-run", &words), check = DiffCommand.take("--check", &words)
        let name = try GitCommand.takeOption("--as", from: &words) ?? "default"
        guard !(dryRun && check) else { throw CLIError.usage("give one of --dry-run and --check") }
        guard isRecordName(name) else {
            throw CLIError.badValue(flag: "--as", text: name, expected: "letters, digits, '.', '_' or '-'")
        }
        guard let file = words.first else { throw CLIError.usage("apply needs a file (or - for standard input)") }
        try expectAtMost(1, words)
        let bytes: [UInt8]
        if file.text == "-" {
            do throws(Errno) { bytes = try context.streams.input() } catch {
                throw StoreError.unreadable(path: "standard input", error)
            }
        } else {
            bytes = try PlistFiles.read(file.text)
        }
        let desired = try SettingsState.desired(bytes, name: file.text == "-" ? "standard input" : file.text)
        let engine = DesiredState(store: context.store, name: name)
        let plan: DesiredState.Plan
        do { plan = try engine.plan(desired) } catch ApplyError.refused(let problems) {
            for problem in problems where problems.count > 1 {
                context.error += Array("\(context.program): \(CLI.oneLine(problem.message))\n".utf8)
            }
            throw ApplyError.refused(problems)
        }
        let difference = plan.difference
        context.output += difference.text(headings: true)
        if check {
            if !difference.isEmpty { context.status = 1 }
            return
        }
        if dryRun { return }
        try engine.run(plan)
    }

    /// A record's name is a file's name in the state folder: nothing that could leave it.
    private static func isRecordName(_ name: String) -> Bool {
        !name.isEmpty && name.first != "." && name.utf8.count <= 200
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }
}
