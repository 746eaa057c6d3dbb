/// A remote's URL as it may be shown. Hosting services take a token as the URL's whole user
/// part (`https://TOKEN@host/r.git`), as its user (`https://TOKEN:x-oauth-basic@host/r.git`)
/// or as its password, and some as a query value (`?access_token=TOKEN`), and nothing in
/// the URL tells a token from a user's name. So every message, status line and file a sync
/// writes shows the whole user part as `***` and every query value as `***`:
/// `https://***@host/r.git?access_token=***`. Only git's own config, in the sync's private
/// folder, holds the URL as given, and no process's arguments ever do.
package enum RemoteURL {
    /// `url` with its user part and its query values hidden. A local path, a `file://` URL
    /// and git's `user@host:path` form (ssh, whose user is no secret) hold no credentials
    /// and are shown as they are.
    ///
    ///     RemoteURL.redacted("https://tok@example.com/r.git")          //=> "https://***@example.com/r.git"
    ///     RemoteURL.redacted("https://me:pw@example.com/r.git")        //=> "https://***@example.com/r.git"
    ///     RemoteURL.redacted("https://example.com/r.git?token=t&a=1")  //=> "https://example.com/r.git?token=***&a=***"
    package static func redacted(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard let scheme = scheme(in: bytes, from: 0), scheme.start == 0 else { return url }
        return String(decoding: redacted(bytes[...], scheme), as: UTF8.self)
    }

    /// `text` (git's messages) with every URL in it redacted: a URL starts at its scheme
    /// and ends at white space or a quote, as git quotes one (`'https://…/': …`).
    package static func scrubbed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var at = 0
        while let scheme = scheme(in: bytes, from: at) {
            out += bytes[at..<scheme.start]
            var end = scheme.separator + 3
            while end < bytes.count, !isURLEnd(bytes[end]) { end += 1 }
            out += redacted(bytes[scheme.start..<end], scheme)
            at = end
        }
        out += bytes[at...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` names a repository on this machine by its path (git's rule: no `:`, or
    /// a `/` before the first one), which git takes relative to the folder it runs in.
    package static func isLocalPath(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return true }
        return bytes[..<colon].contains(UInt8(ascii: "/"))
    }

    // MARK: Parts of a URL

    /// Where a URL's scheme starts and where its `://` is.
    private struct Scheme {
        let start: Int
        let separator: Int
    }

    /// The URL `url` (from its scheme on) with its user part and query values hidden; a
    /// `file://` URL as it is.
    private static func redacted(_ url: ArraySlice<UInt8>, _ scheme: Scheme) -> [UInt8] {
        let name = String(decoding: url[scheme.start..<scheme.separator], as: UTF8.self)
        guard name.lowercased() != "file" else { return Array(url) }
        var out = Array(url[..<(scheme.separator + 3)])
        var rest = url[(scheme.separator + 3)...]
        // The authority ends at the path; its last `@` ends the user part (an `@` past the
        // first `/` is the path's, as git takes it).
        let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            out += Array("***".utf8)
            rest = rest[at...]
        }
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else { return out + rest }
        out += rest[...question]
        let fragment = rest[question...].firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
        // Each parameter's value hidden, its name kept; one without `=` is all value.
        var parameter = rest[(question + 1)..<(question + 1)]
        for i in (question + 1)...fragment {
            guard i == fragment || rest[i] == UInt8(ascii: "&") || rest[i] == UInt8(ascii: ";") else { continue }
            parameter = rest[parameter.startIndex..<i]
            if let equals = parameter.firstIndex(of: UInt8(ascii: "=")) {
                out += parameter[...equals] + Array("***".utf8)
            } else if !parameter.isEmpty {
                out += Array("***".utf8)
            }
            guard i < fragment else { break }
            out.append(rest[i])
            parameter = rest[(i + 1)..<(i + 1)]
        }
        return out + rest[fragment...]
    }

    /// The first URL scheme from `from` on: a `://` after a letter and then letters, digits,
    /// `+`, `-` or `.` (RFC 3986); nil when there is none.
    private static func scheme(in bytes: [UInt8], from: Int) -> Scheme? {
        var i = from
        while i + 2 < bytes.count {
            defer { i += 1 }
            guard bytes[i] == UInt8(ascii: ":"), bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/")
            else { continue }
            var start = i
            while start > from, isSchemeByte(bytes[start - 1]) { start -= 1 }
            while start < i, !isLetter(bytes[start]) { start += 1 }
            if start < i { return Scheme(start: start, separator: i) }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// What ends a URL in a message: white space, a quote, or a control character.
    private static func isURLEnd(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "`")
    }
}
