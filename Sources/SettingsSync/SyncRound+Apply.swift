import PlistCodecs
import PlistModel
import SettingsStore

/// Applying a round's merge to the live domains, through the store's locked update.
extension SyncRound {
    /// Applies one domain's merge to its live file; the base entries it agreed to.
    func apply(_ domain: Plan.Domain, _ report: inout SyncReport) -> [TreeEntry] {
        guard domain.liveBefore != domain.liveAfter else {
            return domain.agreed.map { [$0] } ?? []
        }
        var refused: [(key: String, kept: PlistValue?)] = []
        var refusals: [String] = []
        defer { report.notes += refusals }
        if Self.isDesktopName(domain.name) {
            do throws(DesktopProblem) { refused = try applyDesktop(domain, &report, refusals: &refusals) } catch {
                report.notes.append("\(error.message): the next sync looks at \(domain.name) again")
                report.unsettled = true
                return domain.previous
            }
            return agreed(domain, keeping: refused, &report)
        }
        let schema = schema(domain.name)
        do {
            var emptied = false
            var changed = false
            try store.update(.named(domain.name)) { current in
                (refused, refusals) = ([], [])
                var next: [PlistDictionary.Entry] = []
                changed = false
                PlistDictionary.walk([current, domain.liveBefore, domain.liveAfter]) { key, values in
                    let (now, before, after) = (values[0], values[1], values[2])
                    var value = now
                    // A key this round did not change, or one written since it read the
                    // file (the next round carries that write), stays as it is now.
                    if before != after, now == before {
                        if let after, let problem = schema?.key(key)?.violation(after) {
                            // Looked at again when the schema, the value or the live file changes.
                            report.refused.insert(domain.name)
                            refusals.append(Self.refusalNote(domain.name, key, after, problem.message))
                            refused.append((key, before))
                        } else {
                            value = after
                            changed = true
                        }
                    }
                    if let value { next.append(.init(key: key, value: value)) }
                }
                guard changed else { return false }
                current = PlistDictionary(entries: next)
                emptied = next.isEmpty
                return true
            }
            if changed {
                report.imported.append(domain.name)
                if emptied { _ = try store.remove(.named(domain.name), onlyIfEmpty: true) }
            }
        } catch {
            let message = (error as? StoreError)?.message ?? "\(error)"
            report.notes.append("\(message): \(domain.name) is as it was; the next sync tries again")
            report.unsettled = true
            return domain.previous
        }
        return agreed(domain, keeping: refused, &report)
    }

    /// The note of a key kept as it is here: this machine's schema refuses the repository's value.
    static func refusalNote(_ name: String, _ key: String, _ value: PlistValue, _ problem: String) -> String {
        "\(name): kept \(CanonicalText.escapedLine(key)) as it is here; the repository's "
            + "\(CanonicalText.json(value)) is not allowed by its schema (\(problem))"
    }

    /// The base entries a domain's apply agreed to: what was pushed, with the value here
    /// of each key this machine's schema refused.
    private func agreed(
        _ domain: Plan.Domain, keeping refused: [(key: String, kept: PlistValue?)],
        _ report: inout SyncReport
    ) -> [TreeEntry] {
        guard !refused.isEmpty, var agreed = domain.agreedValues else { return domain.agreed.map { [$0] } ?? [] }
        // The base keeps this machine's value of a refused key, so it is not sent back as
        // a change, and the repository's is looked at again next round.
        for (key, kept) in refused { agreed[key] = kept }
        do { return try Plan.entry(domain.name, agreed, git).map { [$0] } ?? [] } catch {
            report.unsettled = true
            return domain.previous
        }
    }
}
