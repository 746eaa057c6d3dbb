import PlistCodecs
import PlistModel
import SettingsStore

/// Which domains and keys travel. A domain travels when it matches a pattern given to
/// `sync init` or `sync carry` (every domain when none) and no whole-domain line of this
/// machine's ignore file (`$XDG_CONFIG_HOME/settings/syncignore`). A key stays on this
/// machine when a `domain:key` line of that file matches it, its schema marks it
/// `"sync": false`, or an administrator's managed file locks it here. What stays local is
/// neither exported, nor imported, nor removed from the repository: the repository keeps
/// what other machines gave it.
package struct SyncRules: Sendable {
    package let patterns: [String]
    let ignored: [(domain: String, key: String?)]

    /// The ignore file's place.
    package static func ignoreFile(configDirectory: String) -> String {
        Path.join(configDirectory, "settings/syncignore")
    }

    /// `patterns` and the lines of an ignore file: `domain` or `domain:key`, shell
    /// patterns, `#` to the end of a line a comment.
    package init(patterns: [String], ignore text: [UInt8]) {
        self.patterns = patterns
        ignored = String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            let line = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(separator: ":", maxSplits: 1).map { String($0.trimmingBlanks()) }
            guard let domain = words.first, !domain.isEmpty else { return nil }
            return (domain, words.count > 1 ? words[1] : nil)
        }
    }

    /// Whether the domain travels.
    package func carries(_ name: String) -> Bool {
        // A desktop domain only when a pattern that starts `gsettings:` names it: "every
        // domain", `*` or `*:*` is every plist one.
        let desktop = SyncRound.isDesktopName(name)
        let everything = patterns.isEmpty && !desktop
        guard
            everything
                || patterns.contains(where: {
                    (!desktop || $0.hasPrefix(SyncRound.desktopPrefix)) && FileSystem.matches(name, pattern: $0)
                })
        else {
            return false
        }
        return !ignored.contains { $0.key == nil && FileSystem.matches(name, pattern: $0.domain) }
    }

    /// The keys of `domain` that stay on this machine.
    func localKeys(_ domain: String, schema: Schema?, managed: AdminFile?) -> LocalKeys {
        LocalKeys(
            patterns: ignored.compactMap { rule in
                guard let key = rule.key, FileSystem.matches(domain, pattern: rule.domain) else { return nil }
                return key
            },
            names: Set(
                ((schema?.keys.filter { !$0.syncs }.map(\.name) ?? []) + (managed?.values.keys ?? [])).map(
                    ExactKey.init)
            ))
    }
}

/// The keys of one domain that stay on this machine.
struct LocalKeys {
    let patterns: [String]
    /// Compared as bytes: a local "é" keeps that key here, not "e\u{301}" too.
    var names: Set<ExactKey>
    /// A desktop domain's keys as this machine's schema has them: any other stays here.
    var known: Set<ExactKey>? = nil

    var isEmpty: Bool { patterns.isEmpty && names.isEmpty && known == nil }

    func contains(_ key: String) -> Bool {
        names.contains(ExactKey(key)) || known.map { !$0.contains(ExactKey(key)) } == true
            || patterns.contains { FileSystem.matches(key, pattern: $0) }
    }

    /// The values that travel, and those that stay.
    func split(_ values: PlistDictionary?) -> (shared: PlistDictionary, local: PlistDictionary) {
        guard let values else { return ([:], [:]) }
        if isEmpty { return (values, [:]) }
        var shared: [PlistDictionary.Entry] = [], local: [PlistDictionary.Entry] = []
        for entry in values.sortedEntries {
            if contains(entry.key) { local.append(entry) } else { shared.append(entry) }
        }
        return (PlistDictionary(entries: shared), PlistDictionary(entries: local))
    }

    /// The keys that were local under `previous` rules and are not under these: they
    /// rejoin as a machine joining does (the base says nothing of them).
    func rejoined(since previous: LocalKeys?) -> ((String) -> Bool)? {
        guard let previous, previous.text != text else { return nil }
        return { key in previous.contains(key) && !self.contains(key) }
    }

    /// What decides them, as bytes, for a domain's fingerprint.
    var text: [UInt8] {
        var text = patterns.joined(separator: "\n") + "\u{0}" + names.sorted().map(\.text).joined(separator: "\n")
        if let known { text += "\u{0}known\u{0}" + known.sorted().map(\.text).joined(separator: "\n") }
        return Array(text.utf8)
    }
}

extension StringProtocol where SubSequence == Substring {
    /// Without the blanks (and a CR) at either end: a line of a text file people edit.
    package func trimmingBlanks() -> Substring {
        var text = self[...]
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" || text.last == "\r" { text = text.dropLast() }
        return text
    }
}

/// The local-key rules each domain was last merged under (`local` in the sync folder), so
/// a rule deleted since is seen: the base holds, for a key that stayed here, the
/// repository's value, and without this record the key's old local value would read as
/// a change of this machine's and be pushed over a newer one. A missing record (an
/// earlier version's folder) only means no key is taken to have rejoined.
struct LocalRecord: Equatable {
    var domains: [String: LocalKeys] = [:]

    init() {}

    init(_ bytes: [UInt8]) {
        guard case .dict(let root)? = try? PropertyList.read(bytes, as: .binary) else { return }
        for entry in root.sortedEntries {
            guard case .dict(let fields) = entry.value, case .array(let patterns)? = fields["patterns"],
                case .array(let names)? = fields["names"]
            else { continue }
            func strings(_ values: [PlistValue]) -> [String] {
                values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            }
            var keys = LocalKeys(patterns: strings(patterns), names: Set(strings(names).map(ExactKey.init)))
            if case .array(let known)? = fields["known"] { keys.known = Set(strings(known).map(ExactKey.init)) }
            domains[entry.key] = keys
        }
    }

    var bytes: [UInt8] {
        var root: [PlistDictionary.Entry] = []
        for name in domains.keys.sorted(by: byteOrderPrecedes) {
            let keys = domains[name]!
            var fields: PlistDictionary = [
                "patterns": .array(keys.patterns.map(PlistValue.string)),
                "names": .array(keys.names.sorted().map { .string($0.text) }),
            ]
            if let known = keys.known { fields["known"] = .array(known.sorted().map { .string($0.text) }) }
            root.append(.init(key: name, value: .dict(fields)))
        }
        return BinaryWriter.encode(.dict(PlistDictionary(entries: root)))
    }
}

extension LocalKeys: Equatable {
    static func == (a: LocalKeys, b: LocalKeys) -> Bool { a.text == b.text }
}
