import DesktopSettings
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
        let given = try GitCommand.takeOption("--as", from: &words)
        guard !(dryRun && check) else { throw CLIError.usage("give one of --dry-run and --check") }
        if let given, !isRecordName(given) {
            throw CLIError.badValue(flag: "--as", text: given, expected: "letters, digits, '.', '_' or '-'")
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
        var desired = try DesiredFile.read(bytes, name: file.text == "-" ? "standard input" : file.text)
        // The desktop's domains (`gsettings:…`, `dconf:…`) are applied through dconf beside
        // the plist ones (`DesktopApply`), under the same record name.
        let desktopDomains = desired.state.domains.filter { DesktopDomain.isDesktop($0.name) }
        let desktopAbsent = desired.absentKeys.filter { DesktopDomain.isDesktop($0.domain) }
        desired.state.domains.removeAll { DesktopDomain.isDesktop($0.name) }
        desired.absentKeys.removeAll { DesktopDomain.isDesktop($0.domain) }
        // A snapshot names each domain with its host; a host given too would make its plain
        // domains another's, and its restore remove them.
        if desired.isSnapshot, context.host != .any {
            throw CLIError.usage("a snapshot names its ByHost domains itself: apply it without -currentHost or -host")
        }
        // `-currentHost apply`: the file's plain domain names are this host's ByHost files.
        let recordName = given ?? recordName(of: file.text)
        let engine = DesiredState(store: context.store, name: recordName, host: context.host)
        let desktop = DesktopApply(store: context.desktopStore(), stateStore: context.store, name: recordName)
        defer { context.note(desktop.store) }
        try engine.holdingLock {
            // Worked out first, so a desktop value refused stops the run before any write.
            let desktopPlan = try desktop.plan(desktopDomains, absent: desktopAbsent, exact: desired.isSnapshot)
            for note in desktopPlan.notes { context.warn(note) }
            let desktopDifference = StateDiff(
                domains: desktopPlan.domains.compactMap { StateDiff.domain($0.name, $0.current, $0.planned) })
            let plan: DesiredState.Plan
            do { plan = try engine.plan(desired) } catch ApplyError.refused(let problems) {
                for problem in problems where problems.count > 1 {
                    context.error += Array("\(context.program): \(CLI.oneLine(problem.message))\n".utf8)
                }
                throw ApplyError.refused(problems)
            }
            for note in plan.notes { context.warn(note) }
            if check || dryRun {
                let difference = plan.difference
                context.output += difference.text(headings: true) + desktopDifference.text(headings: true)
                if check, !difference.isEmpty || !desktopDifference.isEmpty { context.status = 1 }
                return
            }
            // A change that cannot be made through dconf stops the run here, before any
            // domain, plist ones included, is written (`--check` and `--dry-run` only read).
            if desktopPlan.writes { try desktop.store.checkWriter() }
            // What was done, not what was meant: a domain that failed, and those after it,
            // are not printed as changed.
            do {
                let (done, _) = try engine.runReporting(plan)
                context.output += plan.difference(of: done).text(headings: true)
                let desktopDone = Set(try desktop.run(desktopPlan))
                context.output += StateDiff(domains: desktopDifference.domains.filter { desktopDone.contains($0.name) })
                    .text(headings: true)
            } catch ApplyError.partial(let done, let written, let failed, let error) {
                context.output += plan.difference(of: done).text(headings: true)
                throw ApplyError.partial(applied: done, written: written, failed: failed, error)
            }
        }
    }

    /// The record a file is applied under when no `--as` is given: its name without its
    /// last extension (`~/dotfiles/editor.json` is `editor`), each byte a record name may
    /// not hold made `_`; standard input's is `stdin`. One file per app each keep their
    /// own record, so applying one never gives back what another set. A Nix store path
    /// (`/nix/store/<32 letters of hash>-settings.json`, as nix-darwin and home-manager
    /// make one each build) is named without its hash, so every build keeps one record.
    static func recordName(of file: String) -> String {
        guard file != "-" else { return "stdin" }
        var base = Array(file.utf8.split(separator: UInt8(ascii: "/")).last ?? [])
        if file.hasPrefix("/nix/store/"), base.count > 33, base[32] == UInt8(ascii: "-"),
            base[..<32].allSatisfy({ (48...57).contains($0) || (97...122).contains($0) })
        {
            base.removeFirst(33)
        }
        if let dot = base.lastIndex(of: UInt8(ascii: ".")), dot > 0 { base = Array(base[..<dot]) }
        var name = String(
            decoding: base.prefix(200).map { isRecordByte($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        if name.first == "." { name = "_" + name.dropFirst() }
        return name.isEmpty ? "default" : name
    }

    /// A record's name is a file's name in the state folder: nothing that could leave it.
    private static func isRecordName(_ name: String) -> Bool {
        !name.isEmpty && name.first != "." && name.utf8.count <= 200 && name.utf8.allSatisfy(isRecordByte)
    }

    /// Letters, digits, `.`, `_` and `-`.
    private static func isRecordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
