import PlistCodecs
import PlistModel
/// Why the store could not do what was asked. Each case names the file or domain.
public enum StoreError: Error, Sendable, Equatable {
    /// A domain or host name that would leave the config folder, or is empty.
    case invalidDomain(String, String)
    /// The file exists but cannot be read.
    case unreadable(path: String, Errno)
    /// The path holds something other than a regular file (a FIFO, a device, a folder):
    /// it is neither read nor replaced.
    case notAFile(path: String, FileKind)
    /// The file is not a property list; it is left as it was.
    case corrupt(path: String, PlistError)
    /// The file is a property list whose root is not a dictionary.
    case notADictionary(path: String, ValueType)
    /// Another writer held the domain's lock for too long.
    case lockTimeout(path: String, seconds: Double)
    /// Writing, renaming or removing failed; the old file is intact.
    case writeFailed(path: String, Errno)
    /// The file's owner may not write it (mode 0444): it is left alone.
    case readOnly(path: String)
    /// A value no reader could read back from the file: nothing was written.
    case unstorable(path: String, Unstorable)
    /// The kernel would watch no more folders (an inotify limit), so a change cannot be seen.
    case cannotWatch(path: String, Errno)
    /// An environment variable the store reads holds text it does not take.
    case badEnvironment(name: String, value: String, expected: String)
    /// A JSON file (an administrator's layer) that does not parse.
    case notJSON(path: String, JSONError)
    /// The change would set or remove a key an administrator's managed file locks
    /// (`AdminLayers`): nothing was written.
    case managed(key: String, path: String)

    /// A failed whole-file read of `path`.
    package init(reading path: String, _ error: FileError) {
        switch error {
        case .system(let errno): self = .unreadable(path: path, errno)
        case .notAFile(let kind): self = .notAFile(path: path, kind)
        }
    }

    /// A state file's failure (`StateFile`) as the public API's cases say it, for a library
    /// caller (SettingsKit's published schema); the command line says `StateFileError`'s
    /// own, more precise, message.
    package init(_ error: StateFileError) {
        switch error.reason {
        case .failed(let errno, writing: true): self = .writeFailed(path: error.path, errno)
        case .failed(let errno, writing: false): self = .unreadable(path: error.path, errno)
        case .untrusted(.kind(let kind)), .untrusted(.notAFolder(let kind)): self = .notAFile(path: error.path, kind)
        case .untrusted(.hardLinked): self = .writeFailed(path: error.path, Errno(31))  // EMLINK
        case .untrusted(.owner), .untrusted(.linkOfUser): self = .writeFailed(path: error.path, .notPermitted)
        }
    }

    /// How a text with a control character can be stored, in words any caller can use; the
    /// command line names its flag instead.
    package static let dataAdvice = " (store it as data, or keep the domain binary)"

    /// One line for a user, naming the file and what to do.
    public var message: String {
        switch self {
        case let .invalidDomain(name, reason): "invalid domain '\(name)': \(reason)"
        case let .unreadable(path, errno) where errno == .fileTooLarge:
            FileSystem.readLimit < FileSystem.maximumReadSize
                ? "cannot read \(path): it is larger than \(FileSystem.readLimit >> 20) MiB, "
                    + "a quarter of the memory this process may have (ulimit -v)"
                : "cannot read \(path): it is larger than "
                    + "\(FileSystem.maximumReadSize >> 30) GiB, the most a property list may be"
        case let .unreadable(path, errno): "cannot read \(path): \(errno.message)"
        case let .notAFile(path, kind): "cannot use \(path): it is \(kind.phrase), not a regular file"
        case let .corrupt(path, error): "cannot parse \(path): \(error.message)"
        case let .notADictionary(path, type):
            "cannot use \(path): its root is \(TypeTable.row(for: type).phrase), not a dictionary"
        case let .lockTimeout(path, seconds):
            "timed out after \(RealText.shortest(seconds)) s waiting for another writer of \(path)"
        case let .writeFailed(path, errno) where errno == .changedInPlace:
            "cannot write \(path): another program changed it in place while it was read; try again"
        case let .writeFailed(path, errno): "cannot write \(path): \(errno.message)"
        case let .readOnly(path): "cannot write \(path): the file is read-only"
        case let .unstorable(path, .controlCharacter(character)):
            "cannot store text with the control character U+\(String(format4: character)) "
                + "in \(path): an XML property list cannot hold it"
                + Self.dataAdvice
        case let .unstorable(path, .tooDeep(limit)):
            "cannot store a value nested deeper than \(limit) levels in \(path): no reader could open the file again"
        case let .unstorable(path, .dateOutOfRange(date)):
            "cannot store the date \(RealText.shortest(date.secondsSince2001)) "
                + "s from 2001 in \(path): only dates from 0000-12-30 to 9999-12-31 can be read back"
        case let .cannotWatch(path, errno) where errno == .tooManyOpenFiles:
            "cannot watch \(path): too many inotify instances (the limit is the sysctl "
                + "fs.inotify.max_user_instances; raise it, e.g. sysctl fs.inotify.max_user_instances=1024)"
        case let .cannotWatch(path, errno) where errno == .noSpace:
            "cannot watch \(path): the inotify watch limit is reached (the sysctl "
                + "fs.inotify.max_user_watches; raise it, e.g. sysctl fs.inotify.max_user_watches=524288)"
        case let .cannotWatch(path, errno): "cannot watch \(path): \(errno.message)"
        case let .badEnvironment(name, value, expected): "invalid \(name) '\(value)': expected \(expected)"
        case let .notJSON(path, error): "cannot parse \(path): \(error.message)"
        case let .managed(key, path): "cannot change \(key): it is managed by the administrator's \(path)"
        }
    }
}

/// Something to say about a change that succeeded.
public enum StoreWarning: Sendable, Equatable {
    /// The new file is in place, but the folder's fsync failed: a crash before the
    /// kernel writes the folder back could still lose the change.
    case notDurable(path: String, Errno)

    init?(_ durability: AtomicFile.Durability, path: String) {
        guard case .unconfirmed(let errno) = durability else { return nil }
        self = .notDurable(path: path, errno)
    }

    /// One line for a user.
    public var message: String {
        switch self {
        case let .notDurable(path, errno):
            "\(path) was written, but syncing its folder failed (\(errno.message)): "
                + "the change is in place; its durability is not confirmed"
        }
    }
}

extension String {
    /// Four upper-case hex digits.
    package init(format4 byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
