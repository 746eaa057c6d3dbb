import PlistCodecs
import PlistModel
/// String helpers for absolute paths; no file system access.
package enum Path {
    /// Everything before the last `/` ("/" for a file at the root).
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Everything after the last `/`.
    package static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// A file name standing for the whole of `path`, for the tool's own files kept per
    /// domain file (the journal, the key index), so two config folders never share one:
    /// `/` and `%` escaped; a long one shortened with a hash of the whole.
    package static func flatName(of path: String) -> String {
        // Bytes, not Characters: the journal does this three times a write (it cost 4% of one).
        var name: [UInt8] = []
        name.reserveCapacity(path.utf8.count + 16)
        for byte in path.utf8 {
            // Byte by byte: an array literal added per slash was most of the cost.
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "/"):
                name.append(UInt8(ascii: "%"))
                name.append(UInt8(ascii: "2"))
                name.append(byte == UInt8(ascii: "%") ? UInt8(ascii: "5") : UInt8(ascii: "F"))
            default: name.append(byte)
            }
        }
        if name.count > 200 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            // Whole characters only: the cut moves to the start of one.
            var tail = name.suffix(150)
            while let first = tail.first, first & 0xC0 == 0x80 { tail = tail.dropFirst() }
            name = Array(String(hash, radix: 16).utf8) + [UInt8(ascii: "-")] + tail
        }
        return String(decoding: name, as: UTF8.self)
    }
}
