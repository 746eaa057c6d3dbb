import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A C `errno` value with a name, so errors carry meaning rather than a bare `CInt`.
public struct Errno: Error, Sendable, Equatable {
    /// The `errno` value.
    public let rawValue: CInt
    /// The error with this `errno` value.
    public init(_ rawValue: CInt) { self.rawValue = rawValue }

    static var current: Errno { Errno(errno) }

    package static let noSuchFile = Errno(ENOENT)
    static let exists = Errno(EEXIST)
    static let notPermitted = Errno(EPERM)
    static let notADirectory = Errno(ENOTDIR)
    package static let accessDenied = Errno(EACCES)
    static let fileTooLarge = Errno(EFBIG)
    static let tooManyOpenFiles = Errno(EMFILE)
    static let noSpace = Errno(ENOSPC)
    /// A mapped file another program changed in place while its bytes were copied: EAGAIN's
    /// number, with a message of its own (`StoreError.message`).
    static let changedInPlace = Errno(EAGAIN)
    package static let ioError = Errno(EIO)

    /// `strerror(3)`'s text, lower-cased first letter as in git's messages.
    public var message: String {
        guard let text = strerror(rawValue) else { return "error \(rawValue)" }
        return String(cString: text)
    }
}
