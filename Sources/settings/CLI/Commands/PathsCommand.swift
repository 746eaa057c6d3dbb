import PlistModel
import SettingsStore

enum PathsCommand {
    /// `paths D`: a JSON Pointer for every scalar and empty collection, one per line.
    static func paths(_ context: inout Context, _ arguments: [Token]) throws {
        let values = try onlyDomainValues(&context, arguments, verb: "paths")
        for path in PlistKeyPath.all(in: values, leavesOnly: true) { context.print(path.pointer) }
    }
}
