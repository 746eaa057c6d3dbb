import SettingsStore

/// A key's summary and description, which the compiled file does not hold: GLib reads them
/// from the `.gschema.xml` files beside it, as this does, white space made as GLib makes it.
package struct SchemaTexts: Sendable {
    package var summary: String?
    package var description: String?

    /// The texts of `key` in `schema`, from its folder's XML files (following `extends`).
    package static func of(_ key: String, in schema: DesktopSchema) -> SchemaTexts {
        var files: [[UInt8]] = []
        for name in (try? FileSystem.directoryEntries(schema.folder)) ?? [] where name.hasSuffix(".gschema.xml") {
            if let (bytes, _) = try? FileSystem.readFile(schema.folder + "/" + name) { files.append(bytes) }
        }
        var id = schema.id, seen: Set<String> = []
        while seen.insert(id).inserted {
            for bytes in files {
                guard let body = element(in: bytes[...], named: "schema", attribute: "id", equal: id) else { continue }
                if let keyBody = element(in: body, named: "key", attribute: "name", equal: key) {
                    return SchemaTexts(
                        summary: text(in: keyBody, named: "summary"),
                        description: text(in: keyBody, named: "description"))
                }
                guard let parent = attribute(in: body, "extends") else { return SchemaTexts() }
                id = parent
            }
        }
        return SchemaTexts()
    }

    /// The element `<name … attribute="value" …>` and its body up to `</name>`, its
    /// opening tag included; nil when there is none.
    private static func element(in bytes: ArraySlice<UInt8>, named name: String, attribute: String, equal value: String)
        -> ArraySlice<UInt8>?
    {
        let open = Array("<\(name)".utf8), close = Array("</\(name)>".utf8)
        var i = bytes.startIndex
        while let start = find(open, in: bytes, from: i) {
            guard let tagEnd = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            let tag = bytes[start...tagEnd]
            let after = start + open.count
            guard after < bytes.endIndex, [9, 10, 13, 32].contains(bytes[after]) else {
                i = after
                continue
            }
            if Self.attribute(in: tag, attribute) == value {
                if bytes[tagEnd - 1] == UInt8(ascii: "/") { return tag }
                let end = find(close, in: bytes, from: tagEnd) ?? bytes.endIndex
                return bytes[start..<end]
            }
            i = tagEnd
        }
        return nil
    }

    /// `name="value"` in the first tag of `bytes`.
    private static func attribute(in bytes: ArraySlice<UInt8>, _ name: String) -> String? {
        guard let tagEnd = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let tag = bytes[bytes.startIndex..<tagEnd]
        for space in [" ", "\n", "\t"] {
            let pattern = Array("\(space)\(name)=".utf8)
            guard let at = find(pattern, in: tag, from: tag.startIndex) else { continue }
            let quoteAt = at + pattern.count
            guard quoteAt < tag.endIndex else { return nil }
            let quote = tag[quoteAt]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                let close = tag[(quoteAt + 1)...].firstIndex(of: quote)
            else { return nil }
            return unescaped(tag[(quoteAt + 1)..<close])
        }
        return nil
    }

    /// The text of `<name>…</name>` in `bytes`, white space made single spaces.
    private static func text(in bytes: ArraySlice<UInt8>, named name: String) -> String? {
        let open = Array("<\(name)".utf8), close = Array("</\(name)>".utf8)
        guard let start = find(open, in: bytes, from: bytes.startIndex),
            let bodyStart = bytes[start...].firstIndex(of: UInt8(ascii: ">")),
            let end = find(close, in: bytes, from: bodyStart)
        else { return nil }
        // As GLib (and intltool) do: paragraphs apart at a blank line, each trimmed, with
        // every run of white space inside it one space.
        let paragraphs = unescaped(bytes[(bodyStart + 1)..<end]).split(
            separator: "\n\n", omittingEmptySubsequences: false)
        return paragraphs.map { $0.split(whereSeparator: { " \t\n\r".contains($0) }).joined(separator: " ") }
            .joined(separator: "\n\n")
    }

    /// XML's text: entities decoded, a `<![CDATA[…]]>` section as it stands.
    private static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        var out = "", rest = Substring(String(decoding: bytes, as: UTF8.self))
        while !rest.isEmpty {
            let cdata = rest.firstRange(of: "<![CDATA[")
            var text = String(rest[..<(cdata?.lowerBound ?? rest.endIndex)])
            for (entity, character) in [
                ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&"),
            ] {
                text = text.replacing(entity, with: character)
            }
            out += text
            guard let cdata else { break }
            let end = rest[cdata.upperBound...].firstRange(of: "]]>")
            out += rest[cdata.upperBound..<(end?.lowerBound ?? rest.endIndex)]
            rest = rest[(end?.upperBound ?? rest.endIndex)...]
        }
        return out
    }

    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard !needle.isEmpty, from <= bytes.endIndex - needle.count else { return nil }
        var i = from
        while i <= bytes.endIndex - needle.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
