import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `edit D [--format json|xml]`: the domain in `$VISUAL` or `$EDITOR` (`EditSession`), a
/// plist domain or a desktop one; here the editor is run, the person asked, and the
/// outcome said.
enum EditCommand {
    static func edit(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let formatWord = try GitCommand.takeOption("--format", from: &words) ?? "json"
        guard let format = EditSession.Format(rawValue: formatWord) else {
            throw CLIError.badValue(flag: "--format", text: formatWord, expected: "json or xml")
        }
        for word in words where word.text.hasPrefix("--") { throw Verb.named("edit")!.unknownOption(word.text) }
        guard let domainToken = words.first else { throw CLIError.usage("edit needs a domain") }
        try expectAtMost(1, words)
        let target: EditSession.Target
        var desktop: DesktopStore? = nil
        if DesktopDomain.isDesktop(domainToken.text) {
            let store = try context.desktopStoreToWrite()
            target = try DesktopCommand.editTarget(domainToken.text, store)
            desktop = store
        } else {
            let domain = try context.domainName(domainToken)
            target = try .domain(domain, host: context.host, in: context.store)
            _ = context.layers(for: domain)
        }
        defer { if let desktop { context.note(desktop) } }
        var session = EditSession(target: target, format: format)

        // The text lives in the state folder, private, named so an editor knows its syntax,
        // written and read through the door for the tool's own files (no link followed).
        let copy = context.store.stateFile(
            "edit/\(FileSystem.processID)-\(safeName(target.name)).\(format.rawValue)")
        let file = copy.path
        defer { copy.remove() }
        let environment = context.streams.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        var text = session.written
        let original = text
        while true {
            try copy.replace(with: text)
            let status: Int32
            do throws(Errno) {
                status = try Subprocess.runAttached(
                    ["/bin/sh", "-c", editor + " \"$1\"", "sh", file], environment: environment)
            } catch {
                throw CLIError.cannotRun("/bin/sh", error)
            }
            guard status == 0 else { throw CLIError.editAbandoned("the editor exited with status \(status)") }
            let saved = try copy.read() ?? []
            if saved == text && text == original { return }
            var notes: [String] = []
            let edited: PlistDictionary?
            do throws(EditError) { edited = try session.parse(saved) } catch {
                edited = nil
                notes = [error.message]
            }
            if let edited {
                notes = session.problems(edited)
                if notes.isEmpty {
                    let conflicts = try session.merge(edited)
                    if conflicts.isEmpty { return }
                    notes = conflicts.map { conflict in
                        // A top-level key by its name, a place inside by its pointer.
                        let place = conflict.place.segments
                        let name = place.count == 1 && !place[0].hasPrefix("/") ? place[0] : conflict.place.pointer
                        let now = conflict.now.map(CanonicalText.json) ?? "(none)"
                        return "\(name) was changed meanwhile to \(now); save again to keep the value below"
                    }
                }
            }
            for note in notes { context.streams.error(Array("\(context.program): \(CLI.oneLine(note))\n".utf8)) }
            context.streams.error(Array("What now? (e)dit again, or (q)uit changing nothing: ".utf8))
            guard let answer = context.streams.inputLine(), answer.isEmpty || answer.lowercased().hasPrefix("e") else {
                context.streams.error([10])
                throw CLIError.editAbandoned("the edit was abandoned")
            }
            // The person's own text again, under what is wrong with it.
            text = EditSession.noted(saved, notes)
        }
    }

    /// A domain's name as part of a file name: no `/`.
    private static func safeName(_ name: String) -> String {
        String(name.map { $0 == "/" ? "_" : $0 }.prefix(100))
    }
}
