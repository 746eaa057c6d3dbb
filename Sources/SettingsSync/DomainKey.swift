/// How a round keys its tables of domains: by a name's bytes. Swift's `String` equality and
/// hashing follow canonical equivalence, so "com.app.é" spelled U+00E9 and "e" + U+0301
/// would be one key of a `[String: …]`, where the store keeps two files, two domains. Each
/// byte past ASCII (and `%`) is written `%XX`: an ASCII text is compared byte for byte.
enum DomainKey {
    /// The domain as the round pairs its spellings: in any case (the store finds a domain
    /// in any case), but never across normalizations.
    static func folded(_ name: String) -> String {
        // A schema's id is its bytes: `org.x.EXTRA` is another schema, not another spelling.
        SyncRound.isDesktopName(name) ? exact(name) : exact(name.lowercased())
    }

    /// The name itself, as a key that is its bytes (the state file's prints).
    static func exact(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }) else { return name }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count * 2)
        for byte in name.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "%") {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
