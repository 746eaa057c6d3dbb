import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a path holds, from the type bits of its mode: messages name it when a domain,
/// schema or import is anything but a regular file.
public enum FileKind: Sendable, Equatable {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    /// "a FIFO", "a character device": how a message names it.
    public var phrase: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
        case .unknown: "not a regular file"
        }
    }
}

/// Why a whole-file read failed: the system said no, or the path is not a kind of file
/// the read accepts.
package enum FileError: Error, Equatable {
    case system(Errno)
    case notAFile(FileKind)
}

extension FileError {
    /// What went wrong, without the path: the caller names it.
    package var message: String {
        switch self {
        case .system(let errno): errno.message
        case .notAFile(let kind): "it is \(kind.phrase), not a regular file"
        }
    }
}
