import PlistCodecs
import PlistModel
import SettingsStore

/// Verbs on property-list files as files: `create` one, `lint` many.
enum FileCommand {
    /// `create FILE [--binary]`: an empty dictionary, XML or binary, made atomically under
    /// the folder's lock; a file that is there is left alone.
    static func create(_ context: inout Context, _ arguments: [Token]) throws {
        let binary = arguments.contains { $0.text == "--binary" }
        let files = arguments.filter { $0.text != "--binary" }
        guard let file = files.first else { throw CLIError.usage("create needs a file") }
        try expectAtMost(1, files)
        let path = PlutilCommand.absolute(file.text)
        context.note(
            try context.store.replaceFile(.path(path), newFileMode: 0o644) { bytes in
                guard bytes == nil else { throw CLIError.fileExists(file.text) }
                return (.dict([:]), try PropertyList.encode(.dict([:]), as: binary ? .binary : .xml))
            })
    }

    /// `lint FILE… [-v]`: each file that is not a property list is one line on standard
    /// error, `FILE: WHY` (the line, where the format has lines); `-v` says `FILE: OK` of
    /// the others. Exit 1 when any is bad: for pre-commit hooks and CI.
    static func lint(_ context: inout Context, _ arguments: [Token]) throws {
        let verbose = arguments.contains { $0.text == "-v" }
        let files = arguments.filter { $0.text != "-v" }.map(\.text)
        guard !files.isEmpty else { throw CLIError.usage("lint needs a file") }
        var bad = false
        for file in files {
            do {
                // An empty file is no property list (`plutil -lint` agrees), though the store
                // reads it as an empty domain.
                _ = try PropertyList.read(try PlistFiles.read(file))
                if verbose { context.print("\(file): OK") }
            } catch {
                bad = true
                let why =
                    switch error {
                    case let error as PlistError: error.message
                    case let error as StoreError: error.message
                    default: "\(error)"
                    }
                context.error += Array("\(file): \(CLI.oneLine(why))\n".utf8)
            }
        }
        if bad { context.status = 1 }
    }
}
