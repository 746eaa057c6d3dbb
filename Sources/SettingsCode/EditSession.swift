import PlistCodecs
import PlistModel
import SettingsStore

/// `edit`: a domain as typed text for a person's editor, the text read back and checked,
/// and the edit merged key by key into the domain as it is when it is saved.
public struct EditSession: Sendable {
    /// The text a domain is edited as.
    public enum Format: String, Sendable, CaseIterable {
        /// The lossless JSON mapping (the default).
        case json
        /// An XML property list, as Foundation writes it.
        case xml
    }

    /// The store written to.
    public let store: DomainStore
    /// The domain edited.
    public let domain: DomainName
    /// Its host (`-currentHost`).
    public let host: DomainHost
    /// The text's format.
    public let format: Format
    /// The values the text was made from, or last merged against.
    public private(set) var base: PlistDictionary
    /// The domain file's format, which decides what a value must be storable in.
    let fileFormat: PlistFormat

    /// A session on `domain` as it is now (empty when it does not exist).
    public init(store: DomainStore, domain: DomainName, host: DomainHost = .any, format: Format) throws {
        (self.store, self.domain, self.host, self.format) = (store, domain, host, format)
        let loaded = try store.load(domain, host: host)
        (base, fileFormat) = (loaded?.values ?? [:], loaded?.format ?? .xml)
    }

    /// The text of `values`, keys in order.
    public func text(_ values: PlistDictionary) -> [UInt8] {
        let sorted = PlistValue.dict(PlistDictionary(entries: values.sortedEntries))
        switch format {
        case .json: return JSONWriter.encode(sorted, pretty: true) + [10]
        case .xml: return XMLWriter.encode(sorted)
        }
    }

    /// `text` under `notes`, one `#` line each: what was wrong with it last time.
    public static func noted(_ text: some Collection<UInt8>, _ notes: [String]) -> [UInt8] {
        notes.flatMap { Array("# \(CanonicalText.escapedLine($0))\n".utf8) } + body(of: text)
    }

    /// `text` without its leading `#` lines.
    public static func body<Text: Collection<UInt8>>(of text: Text) -> Text.SubSequence {
        var body = text[...]
        while body.first == UInt8(ascii: "#") {
            guard let newline = body.firstIndex(of: 10) else { return body[body.endIndex...] }
            body = body[body.index(after: newline)...]
        }
        return body
    }

    /// What the edited text says, its leading `#` lines left out; throws a message.
    public func parse(_ bytes: [UInt8]) throws(EditError) -> PlistDictionary {
        let body = Self.body(of: bytes)
        let value: PlistValue
        switch format {
        case .json:
            do throws(JSONError) { value = try JSONReader.read(Array(body)) } catch {
                throw EditError(error.message)
            }
        case .xml:
            do throws(PlistError) { value = try PropertyList.read(Array(body)).0 } catch {
                throw EditError(error.message)
            }
        }
        guard case .dict(let values) = value else {
            throw EditError("the text must be one dictionary (\(value.type)), not another value")
        }
        return values
    }

    /// The problems that refuse `edited` before anything is written: a managed key, a
    /// value the schema refuses, a value a property list cannot hold.
    public func problems(_ edited: PlistDictionary) -> [String] {
        ApplyError.Problem.refusals(
            of: domain, named: domain.displayName, in: store, base, edited, format: fileFormat
        ).map(\.message)
    }

    /// Merges the keys `edited` changes from `base` into the domain as it is now, in one
    /// locked update: a key changed meanwhile by someone else is kept. When the edit and
    /// a change made meanwhile both changed a key differently, nothing is written: the
    /// keys come back, and `base` becomes the domain as it now is, so the person can
    /// decide and save again. Returns those keys (empty: merged, or nothing to do).
    public mutating func merge(_ edited: PlistDictionary) throws -> [String] {
        let changes = edited.changes(from: base)
        guard !changes.isEmpty else { return [] }
        var conflicts: [String] = []
        var now = PlistDictionary()
        try store.update(domain, host: host) { values in
            now = values
            conflicts = changes.filter { values[$0.key] != $0.old && values[$0.key] != $0.new }.map(\.key)
            guard conflicts.isEmpty else { return false }
            // In one pass: removing keys one at a time moves the entries after each.
            let made = changes.filter { values[$0.key] != $0.new }.map { (key: $0.key, value: $0.new) }
            if !made.isEmpty { values = values.updating(made) }
            return !made.isEmpty
        }
        if !conflicts.isEmpty { base = now }
        return conflicts
    }
}

/// Why an edited text cannot be used: one line for the person.
public struct EditError: Error, Sendable, Equatable {
    /// What is wrong.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}
