import DesktopSettings
import PlistCodecs
import PlistModel
import SettingsCode
import SettingsStore

/// `history D [K] [--json] [--since TIME]` and `undo D [--steps N | --to TIME]`: the
/// store's journal printed, and its last changes taken back (`Undo`).
enum HistoryCommand {
    static func history(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let json = DiffCommand.take("--json", &words)
        let since = try GitCommand.takeOption("--since", from: &words).map { try time($0, flag: "--since") }
        for word in words where word.text.hasPrefix("--") { throw Verb.named("history")!.unknownOption(word.text) }
        guard let domainToken = words.first else { throw CLIError.usage("history needs a domain") }
        try expectAtMost(2, words)
        let entries = try history(of: domainToken, &context)
        let key = words.count > 1 ? words[1].text : nil
        for entry in entries {
            guard since.map({ entry.time >= $0 }) ?? true else { continue }
            let changes = entry.changes.filter { key == nil || $0.key.utf8.elementsEqual(key!.utf8) }
            // A change too large to keep its values still shows, when no key was asked for.
            guard !changes.isEmpty || (key == nil && !entry.valuesKept) else { continue }
            if json {
                var record: PlistDictionary = ["time": .double(entry.time), "writer": .string(entry.writer)]
                record["date"] = .date(PlistDate(unixSeconds: entry.time))
                record["pid"] = .int(Int64(entry.pid))
                if !entry.valuesKept {
                    record["values"] = false
                    record["count"] = .int(Int64(entry.count))
                }
                record["changes"] = .array(
                    changes.map { change in
                        var item: PlistDictionary = ["key": .string(change.key)]
                        if let old = change.old { item["old"] = old }
                        if let new = change.new { item["new"] = new }
                        return .dict(item)
                    })
                context.output += JSONWriter.encode(.dict(record)) + [UInt8(ascii: "\n")]
                continue
            }
            context.print(heading(of: entry))
            if !entry.valuesKept {
                context.print(
                    entry.isOutside && entry.count == 0
                        ? "  (not compared: the file is over 1 MiB)"
                        : "  (\(entry.count) keys; too large to keep their values)")
                for change in changes { context.print("  \(CanonicalText.escapedLine(change.key))") }
                continue
            }
            for change in changes {
                let path = PlistKeyPath([change.key])
                if let old = change.old { context.output += [UInt8(ascii: "-")] + CanonicalText.line(path, old) }
                if let new = change.new { context.output += [UInt8(ascii: "+")] + CanonicalText.line(path, new) }
            }
        }
    }

    /// Who made a change found at a later write, not journalled when it was made.
    static let outsideLabel = "outside change (not journalled: another program, or settings with the journal off)"

    /// The domain's journal; one planted (a link, a FIFO) is said in one warning and read
    /// as empty, never followed. A desktop domain's (`gsettings:…`) is its changes through
    /// dconf, and what changed outside since the last.
    static func history(of token: Token, _ context: inout Context) throws -> [JournalEntry] {
        var said: [String] = []
        let entries: [JournalEntry]
        if DesktopDomain.isDesktop(token.text) {
            let store = DesktopStore(environment: context.store.environment)
            let current = try store.stateDomain(try store.place(try DesktopDomain(token.text))) ?? [:]
            entries = context.store.desktopHistory(token.text, current: current) { said.append($0) }
        } else {
            entries = context.store.history(of: try context.domainName(token), host: context.host) { said.append($0) }
        }
        for message in said { context.warn("cannot read the history: " + message) }
        return entries
    }

    /// How a plan of changes is made on the domain `token` names, journalled as taking
    /// back `mark`: the keys left alone because they changed since.
    static func taker(_ token: Token, _ context: inout Context) throws -> (
        name: String, take: (inout Context, [KeyChange], JournalEntry.TakenBack) throws -> [String]
    ) {
        guard DesktopDomain.isDesktop(token.text) else {
            let domain = try context.domainName(token)
            return (
                domain.displayName,
                { context, plan, mark in
                    _ = context.layers(for: domain)
                    return try Undo.run(plan, takingBack: mark, on: domain, host: context.host, in: context.store)
                }
            )
        }
        return (
            token.text,
            { context, plan, mark in
                let store = context.desktopStore(takingBack: mark)
                defer { context.note(store) }
                let place = try store.place(try DesktopDomain(token.text))
                let current = try store.stateDomain(place) ?? [:]
                var skipped: [String] = [], made: [(key: String, value: Variant?)] = []
                for change in plan {
                    guard Undo.holds(current[change.key], change.old) else {
                        skipped.append(change.key)
                        continue
                    }
                    let type = try store.key(place, change.key)?.type
                    do throws(VariantParser.Failure) {
                        made.append(
                            (
                                change.key,
                                try change.new.map { v throws(VariantParser.Failure) in try Variant.from(v, as: type) }
                            ))
                    } catch {
                        throw DesktopError.refused(key: change.key, reason: error.message)
                    }
                }
                if !made.isEmpty { try store.write(place, made) }
                return skipped
            }
        )
    }

    /// An entry's line: when, and who.
    static func heading(of entry: JournalEntry) -> String {
        // Found at a later write, made by whoever wrote without the journal: another
        // program, or settings with it off (a claim of "not through settings" was false then).
        let who = entry.isOutside ? HistoryCommand.outsideLabel : "\(entry.writer) (pid \(entry.pid))"
        return "\(FileSystem.localTime(Int64(entry.time.rounded(.down)))) \(CLI.oneLine(who))"
    }

    static func undo(_ context: inout Context, _ arguments: [Token]) throws {
        var words = arguments
        let steps = try GitCommand.takeOption("--steps", from: &words)
        let to = try GitCommand.takeOption("--to", from: &words)
        guard steps == nil || to == nil else { throw CLIError.usage("give one of --steps and --to") }
        for word in words where word.text.hasPrefix("--") { throw Verb.named("undo")!.unknownOption(word.text) }
        guard let domainToken = words.first else { throw CLIError.usage("undo needs a domain") }
        try expectAtMost(1, words)
        var extent = Undo.Extent.steps(1)
        if let steps {
            guard let n = Int(steps), n >= 1, steps.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw CLIError.badValue(flag: "--steps", text: steps, expected: "a whole number from 1")
            }
            extent = .steps(n)
        }
        if let to { extent = .after(try time(to, flag: "--to")) }
        let targets = Undo.undoTargets(try history(of: domainToken, &context), extent)
        try takeBack(targets, as: .undid(targets.map(\.id)), said: "undid", named: targets, domainToken, &context)
    }

    /// `redo D`: the newest undo still in effect taken back, itself, key by key.
    static func redo(_ context: inout Context, _ arguments: [Token]) throws {
        for word in arguments where word.text.hasPrefix("--") { throw Verb.named("redo")!.unknownOption(word.text) }
        guard let domainToken = arguments.first else { throw CLIError.usage("redo needs a domain") }
        try expectAtMost(1, arguments)
        let entries = try history(of: domainToken, &context)
        let undo = Undo.redoTarget(entries)
        // Named by the changes it makes again: the ones the undo took back.
        let again = Set(undo?.takenBack?.entries ?? [])
        try takeBack(
            undo.map { [$0] } ?? [], as: .redid(undo.map { [$0.id] } ?? []), said: "redid",
            named: entries.filter { again.contains($0.id) }, domainToken, &context, nothing: "redo")
    }

    /// Takes back `entries` as one change marked `mark`; prints a line per change of
    /// `named` (`said`, when, who, its keys), then the change made, key by key.
    private static func takeBack(
        _ entries: [JournalEntry], as mark: JournalEntry.TakenBack, said: String, named: [JournalEntry],
        _ token: Token, _ context: inout Context, nothing: String = "undo"
    ) throws {
        let (name, take) = try taker(token, &context)
        guard let plan = Undo.plan(of: entries) else {
            throw CLIError.usage(
                "cannot \(nothing) \(name) that far: a change there was too large for the journal to "
                    + "keep its values (see history)")
        }
        guard !plan.isEmpty else {
            context.error += Array("\(context.program): nothing to \(nothing) in \(name)\n".utf8)
            context.status = 1
            return
        }
        let skipped = try take(&context, plan, mark)
        guard skipped.count < plan.count else {
            // Every key changed since: nothing was taken back, and nothing journalled.
            for key in skipped { context.warn("\(key) changed since; left as it is") }
            context.error += Array(
                "\(context.program): nothing to \(nothing) in \(name): every key changed since\n".utf8)
            context.status = 1
            return
        }
        for entry in named {
            let keys = entry.changes.prefix(10).map { CanonicalText.escapedLine($0.key) }.joined(separator: ", ")
            let more = entry.changes.count > 10 ? " and \(entry.changes.count - 10) more" : ""
            context.print("\(said) \(heading(of: entry)): \(keys)\(more)")
        }
        let left = Set(skipped.map(ExactKey.init))
        for change in plan where !left.contains(ExactKey(change.key)) {
            let path = PlistKeyPath([change.key])
            if let old = change.old { context.output += [UInt8(ascii: "-")] + CanonicalText.line(path, old) }
            if let new = change.new { context.output += [UInt8(ascii: "+")] + CanonicalText.line(path, new) }
        }
        for key in skipped {
            context.warn("\(key) changed since; left as it is")
        }
    }

    /// A moment: `30m`, `2h`, `7d` (ago), RFC 3339 (`2024-01-02T03:04:05Z`) or a
    /// `-date` value; seconds since 1970.
    static func time(_ text: String, flag: String) throws(CLIError) -> Double {
        let units: [UInt8: Double] = [
            UInt8(ascii: "s"): 1, UInt8(ascii: "m"): 60, UInt8(ascii: "h"): 3600, UInt8(ascii: "d"): 86400,
            UInt8(ascii: "w"): 604_800,
        ]
        if let last = text.utf8.last, let unit = units[last], let n = Int(text.dropLast()), n >= 0,
            n < 100_000_000
        {
            return Double(FileSystem.wallClockNanoseconds()) / 1e9 - Double(n) * unit
        }
        if let date = RFC3339.parse(text.utf8) ?? CommandLineText.date(text) { return date.unixSeconds }
        throw CLIError.badValue(
            flag: flag, text: text, expected: "a time ago (30m, 2h, 7d) or a date (2024-01-02T03:04:05Z)")
    }
}
