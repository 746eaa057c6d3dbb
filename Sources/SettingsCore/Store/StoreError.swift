/// Why the store could not do what was asked. Each case names the file or domain.
public enum StoreError: Error, Sendable, Equatable {
    /// A domain or host name that would leave the config folder, or is empty.
    case invalidDomain(String, String)
    /// The file exists but cannot be read.
    case unreadable(path: String, Errno)
    /// The file is not a property list; it is left as it was.
    case corrupt(path: String, PlistError)
    /// The file is a property list whose root is not a dictionary.
    case notADictionary(path: String, ValueType)
    /// Another writer held the domain's lock for too long.
    case lockTimeout(path: String, seconds: Double)
    /// Writing, renaming or removing failed; the old file is intact.
    case writeFailed(path: String, Errno)
    /// A value an XML file cannot hold (a control character): nothing was written.
    case notRepresentable(path: String, character: UInt8)

    public var message: String {
        switch self {
        case let .invalidDomain(name, reason): "invalid domain '\(name)': \(reason)"
        case let .unreadable(path, errno): "cannot read \(path): \(errno.message)"
        case let .corrupt(path, error): "cannot parse \(path): \(error.message)"
        case let .notADictionary(path, type):
            "cannot use \(path): its root is \(TypeTable.row(for: type).word == "dictionary" ? "a dictionary" : "of type " + TypeTable.row(for: type).word), not a dictionary"
        case let .lockTimeout(path, seconds): "timed out after \(RealText.shortest(seconds)) s waiting for another writer of \(path)"
        case let .writeFailed(path, errno): "cannot write \(path): \(errno.message)"
        case let .notRepresentable(path, character):
            "cannot store text with the control character U+\(String(format4: character)) in \(path): an XML property list cannot hold it (store it with -data, or keep the domain binary)"
        }
    }
}

private extension String {
    /// Four upper-case hex digits.
    init(format4 byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
