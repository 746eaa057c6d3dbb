/// A remote's URL as it may be shown: `https://user:secret@host/repo` is
/// `https://user:***@host/repo` in every message, status line and file a sync writes,
/// as git itself hides it. Only git's own config holds the password.
package enum RemoteURL {
    /// `url` with the password of its user part hidden.
    ///
    ///     RemoteURL.redacted("https://me:pw@example.com/r.git")   //=> "https://me:***@example.com/r.git"
    package static func redacted(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        let user = authority[..<at]
        guard let colon = user.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    /// Any URL with a password in `text` (git's messages), hidden.
    package static func scrubbed(_ text: String) -> String {
        guard text.contains("://") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains("://") ? redacted(String(word)) : String(word)
        }.joined(separator: " ")
    }
}
