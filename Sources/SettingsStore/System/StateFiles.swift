#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one door for the files the tool keeps beside the domains: the journal (`.jsonl`,
/// `.last`), `apply`'s records, key indexes, `edit`'s copies, `snapshot -o`'s default
/// place, sync's state. A domain file goes through `AtomicFile` and `FolderLock`; these go
/// through here, so the same promise holds for them:
///
/// - **No link is followed** below `root`: every folder from `root` down is opened with
///   `O_NOFOLLOW | O_DIRECTORY` and every file with `O_NOFOLLOW`, each relative to the
///   folder above (`openat`), so a link swapped in between two calls is not followed
///   either. `root` itself (`$XDG_STATE_HOME`, `~/.cache`) is laid out as its user likes.
/// - **Nothing is waited on**: a file is opened `O_NONBLOCK` and looked at (`fstat`)
///   before a byte moves; anything but a regular file with one name is refused (a FIFO
///   would hang the writer holding a domain's lock; a hard link would make a write land
///   in another file).
/// - **Nothing is handed to another user** that this process did not create: only a file
///   or folder made here (`O_EXCL`, `mkdirat`) is given, by root, to the owner of the
///   folder it was made in (`sudo` with the user's folders).
/// - **As root in another user's folders**, a file or folder owned by anyone but root and
///   that user is refused: it was planted.
///
/// Failures are `StateFileError`s naming the path, with a message a person can act on; a
/// caller whose file must never fail a write (the journal) turns one into a single warning.
package struct StateFile: Sendable {
    /// The folder whose layout is its user's own; links in it are followed.
    package let root: String
    /// The folders below `root`, then the file's name, joined by single slashes (no empty,
    /// `.` or `..` component): made and opened only as themselves.
    package let relative: String

    /// `relative` (`settings/history/NAME.jsonl`) below `root`. An empty component or `..`
    /// is dropped, so the file is always below `root`.
    package init(root: String, _ relative: String) {
        self.root = root
        // The usual name needs no cleaning: looked at as bytes, not split (a write makes
        // three of these, and `split` on a `String` cost more than the write's own work).
        if Self.isClean(relative) {
            self.relative = relative
        } else {
            self.relative = relative.split(separator: "/").filter { !$0.isEmpty && $0 != "." && $0 != ".." }
                .joined(separator: "/")
        }
    }

    /// Whether `relative` is components joined by single slashes, none empty, `.` or `..`.
    private static func isClean(_ relative: String) -> Bool {
        var length = 0, dots = 0
        for byte in relative.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || length == dots { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: "."), dots == length - 1 { dots += 1 }
            }
        }
        return length > 0 && !(length == dots && dots <= 2)
    }

    /// The folders below `root`, then the file's name.
    private var components: [String] { relative.split(separator: "/").map(String.init) }

    /// The file's path, for messages.
    package var path: String { relative.isEmpty ? root : Path.join(root, relative) }

    /// The file's name in its folder.
    var name: String { Path.lastComponent(of: relative) }

    // MARK: Folders

    /// An open folder of this door: its descriptor and its owner, who gets what is made in it.
    package final class Folder {
        package let fd: CInt
        let owner: uid_t, group: gid_t
        init(fd: CInt, owner: uid_t, group: gid_t) { (self.fd, self.owner, self.group) = (fd, owner, group) }
        deinit { FileSystem.close(fd) }
    }

    /// The folder holding the file, opened from `root` down without following a link;
    /// made (0700, given to its parent's owner by root) where missing when `creating`, else
    /// nil when missing.
    package func openFolder(creating: Bool) throws(StateFileError) -> Folder? {
        if FileSystem.isRoot, let (link, owner) = Self.linkOfAnotherUser(above: root) {
            throw StateFileError(link, .untrusted(.linkOfUser(owner)))
        }
        var fd: CInt
        do throws(Errno) { fd = try FileSystem.open(root, O_RDONLY | O_DIRECTORY) } catch {
            if error == .noSuchFile, creating {
                do throws(Errno) {
                    try FileSystem.makeDirectories(root)
                    fd = try FileSystem.open(root, O_RDONLY | O_DIRECTORY)
                } catch {
                    throw StateFileError(root, .failed(error, writing: true))
                }
            } else if error == .noSuchFile {
                return nil
            } else {
                throw StateFileError(root, .failed(error, writing: false))
            }
        }
        var status: FileSystem.Status
        do throws(Errno) { status = try FileSystem.status(fd: fd) } catch {
            FileSystem.close(fd)
            throw StateFileError(root, .failed(error, writing: false))
        }
        // Whose folders these are: the owner of `root`, when root works in them.
        let user = status.uid
        var walked = root
        for name in components.dropLast() {
            walked += "/" + name
            var next: CInt = -1
            var made = false
            do throws(Errno) {
                next = try FileSystem.openAt(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            } catch  where error == .noSuchFile && creating {
                do throws(Errno) {
                    made = try FileSystem.makeDirectoryAt(fd, name)
                    next = try FileSystem.openAt(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
                } catch {
                    FileSystem.close(fd)
                    throw Self.refusal(walked, error, writing: true)
                }
            } catch  where error == .noSuchFile {
                FileSystem.close(fd)
                return nil
            } catch {
                FileSystem.close(fd)
                throw Self.refusal(walked, error, writing: creating)
            }
            let parent = status
            FileSystem.close(fd)
            fd = next
            do throws(Errno) {
                if made { try Self.give(fd, owner: parent.uid, group: parent.gid) }
                status = try FileSystem.status(fd: fd)
            } catch {
                FileSystem.close(fd)
                throw StateFileError(walked, .failed(error, writing: false))
            }
            if let problem = Self.problem(status, user: user, isFolder: true) {
                FileSystem.close(fd)
                throw StateFileError(walked, .untrusted(problem))
            }
        }
        return Folder(fd: fd, owner: status.uid, group: status.gid)
    }

    // MARK: Files

    /// How a file is opened.
    package enum Access {
        /// To read; nil when missing.
        case read
        /// To read and write, made empty (0600) when missing.
        case readWrite
        /// To append, made empty (0600) when missing.
        case append

        /// The `open(2)` flags of the access itself.
        var flags: CInt {
            switch self {
            case .read: O_RDONLY
            case .readWrite: O_RDWR
            case .append: O_WRONLY | O_APPEND
            }
        }
    }

    /// An open file of this door, checked: a regular file with one name, not planted.
    package struct Opened: ~Copyable {
        package let fd: CInt
        package let status: FileSystem.Status
        deinit { FileSystem.close(fd) }

        /// The descriptor, now the caller's to close.
        package consuming func take() -> CInt {
            let fd = self.fd
            discard self
            return fd
        }
    }

    /// The file opened as `access` says, without following a link or waiting; nil when
    /// it (or its folder) is missing and `access` is `.read`.
    package func open(_ access: Access) throws(StateFileError) -> Opened? {
        try open(access, under: openRoot())
    }

    /// `open(_:)` with `root` already open (`openRoot`), as for a journal's two files.
    package func open(_ access: Access, under root: Root?) throws(StateFileError) -> Opened? {
        if let root, let opened = openExisting(access, under: root) { return opened }
        guard let folder = try openFolder(creating: access != .read) else { return nil }
        return try open(access, in: folder)
    }

    /// `root`, open, and whose folders these are: the start of `open(_:under:)`.
    package final class Root {
        let fd: CInt
        /// The folder's owner as root, to whom root gives what it makes; else this user.
        let user: uid_t
        /// This process's effective user when it was opened (asked once, not per file).
        let me: uid_t
        init(fd: CInt, user: uid_t, me: uid_t) { (self.fd, self.user, self.me) = (fd, user, me) }
        deinit { FileSystem.close(fd) }
    }

    /// `root` opened for `open(_:under:)`; nil when it cannot be (then the walk says why),
    /// or, as root, when a link another user owns leads to it.
    package func openRoot() -> Root? {
        let me = geteuid()
        if me == 0, Self.linkOfAnotherUser(above: root) != nil { return nil }
        guard let fd = try? FileSystem.open(root, O_RDONLY | O_DIRECTORY) else { return nil }
        guard me == 0 else { return Root(fd: fd, user: me, me: me) }
        guard let status = try? FileSystem.status(fd: fd) else {
            FileSystem.close(fd)
            return nil
        }
        return Root(fd: fd, user: status.uid, me: me)
    }

    /// The common case in one `openat2(2)` from `root`, which refuses a link anywhere on
    /// the way (`RESOLVE_NO_SYMLINKS`), instead of a walk of one `openat` and `fstat` per
    /// folder: a write opens two journal files. Only a file found and passing the checks
    /// comes back; anything else (missing, a link, a kernel without `openat2`) is left to
    /// the walk, which makes what is missing and says precisely what is wrong.
    private func openExisting(_ access: Access, under root: Root) -> Opened? {
        guard relative.utf8.contains(UInt8(ascii: "/")) else { return nil }
        guard
            let fd = FileSystem.openBeneath(
                root.fd, relative, access.flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        else { return nil }
        guard let status = try? FileSystem.status(fd: fd),
            Self.problem(status, user: root.user, isFolder: false, me: root.me) == nil
        else {
            FileSystem.close(fd)
            return nil
        }
        return Opened(fd: fd, status: status)
    }

    /// `open(_:)` in a folder already open.
    package func open(_ access: Access, in folder: Folder) throws(StateFileError) -> Opened? {
        let flags = access.flags
        var fd: CInt = -1, created = false
        // Made here (O_EXCL) or found: only what this call made is given away.
        for _ in 0..<3 where fd < 0 {
            do throws(Errno) {
                if access != .read {
                    do throws(Errno) {
                        fd = try FileSystem.openAt(
                            folder.fd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o600)
                        created = true
                        continue
                    } catch  where error == .exists {}
                }
                fd = try FileSystem.openAt(folder.fd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
            } catch  where error == .noSuchFile {
                if access == .read { return nil }
            } catch {
                throw Self.refusal(path, error, writing: access != .read)
            }
        }
        guard fd >= 0 else { throw StateFileError(path, .failed(.noSuchFile, writing: true)) }
        let status: FileSystem.Status
        do throws(Errno) {
            status = try FileSystem.status(fd: fd)
            if created { try Self.give(fd, owner: folder.owner, group: folder.group) }
        } catch {
            FileSystem.close(fd)
            throw StateFileError(path, .failed(error, writing: false))
        }
        if !created, let problem = Self.problem(status, user: folder.owner, isFolder: false) {
            FileSystem.close(fd)
            throw StateFileError(path, .untrusted(problem))
        }
        return Opened(fd: fd, status: status)
    }

    /// The whole file; nil when it is missing.
    package func read() throws(StateFileError) -> [UInt8]? {
        guard let file = try open(.read) else { return nil }
        do throws(FileError) { return try FileSystem.readOpened(file.fd, file.status) } catch {
            switch error {
            case .system(let errno): throw StateFileError(path, .failed(errno, writing: false))
            case .notAFile(let kind): throw StateFileError(path, .untrusted(.kind(kind)))
            }
        }
    }

    /// The last `count` bytes (all of it when it is shorter), and whether that is all of
    /// it; nil when it is missing.
    package func readSuffix(count: Int) throws(StateFileError) -> (bytes: [UInt8], whole: Bool)? {
        guard let file = try open(.read) else { return nil }
        let size = file.status.size
        return (FileSystem.readBytes(file.fd, count: min(count, size), at: max(size - count, 0)), size <= count)
    }

    /// The first `count` bytes (fewer when it is shorter); nil when missing or refused.
    package func readPrefix(count: Int) -> [UInt8]? {
        guard let file = try? open(.read) else { return nil }
        return FileSystem.readBytes(file.fd, count: count, at: 0)
    }

    /// Appends `bytes`, making the file if missing; the file's size after. (A caller that
    /// must survive a torn last line starts each record with a newline of its own.) Under
    /// `root`, when the caller has it open already.
    @discardableResult
    package func append(_ bytes: [UInt8], under root: Root? = nil) throws(StateFileError) -> Int {
        let opened = try open(.append, under: root ?? openRoot())
        guard let file = opened else { throw StateFileError(path, .failed(.noSuchFile, writing: true)) }
        do throws(Errno) {
            try FileSystem.writeBytes(bytes, to: file.fd)
        } catch {
            throw StateFileError(path, .failed(error, writing: true))
        }
        return file.status.size + bytes.count
    }

    /// Replaces the file with `bytes`: a new file made beside it (`O_EXCL`), written, and
    /// renamed over the name, which replaces a link or FIFO there rather than follow it.
    /// With `durable`, the file and then its folder are fsynced (a record a later run
    /// depends on); the journal's files are not, as losing them loses history, never a
    /// setting. A new file is `mode` (0600), whatever was there before.
    package func replace(with bytes: [UInt8], durable: Bool = false, mode: FileSystem.Mode = 0o600)
        throws(StateFileError)
    {
        guard let folder = try openFolder(creating: true) else {
            throw StateFileError(path, .failed(.noSuchFile, writing: true))
        }
        // What the name holds now is refused as `open` would refuse it: a planted link or
        // FIFO is said, not silently replaced. (Swapped in after this look, it is replaced
        // by the rename, never followed.)
        let existing: FileSystem.Status?
        do throws(Errno) { existing = try FileSystem.statusAt(folder.fd, name) } catch {
            throw StateFileError(path, .failed(error, writing: false))
        }
        if let existing, let problem = Self.problem(existing, user: folder.owner, isFolder: false) {
            throw StateFileError(path, .untrusted(problem))
        }
        var temporary = ""
        var fd: CInt = -1
        for _ in 0..<100 where fd < 0 {
            temporary = ".settings-tmp." + Self.randomSuffix()
            do throws(Errno) {
                fd = try FileSystem.openAt(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
            } catch  where error == .exists {
            } catch {
                throw StateFileError(path, .failed(error, writing: true))
            }
        }
        guard fd >= 0 else { throw StateFileError(path, .failed(.exists, writing: true)) }
        var renamed = false
        defer {
            FileSystem.close(fd)
            if !renamed { FileSystem.unlinkAt(folder.fd, temporary) }
        }
        do throws(Errno) {
            try Self.give(fd, owner: folder.owner, group: folder.group)
            if mode != 0o600 { try FileSystem.fchmod(fd, mode) }
            try FileSystem.writeBytes(bytes, to: fd)
            if durable { try FileSystem.fsync(fd) }
            try FileSystem.renameAt(folder.fd, temporary, folder.fd, name)
            renamed = true
            if durable { try FileSystem.fsync(folder.fd) }
        } catch {
            throw StateFileError(path, .failed(error, writing: true))
        }
    }

    /// Removes the file (never what a link names); false when there was none.
    @discardableResult
    package func remove() -> Bool {
        guard let folder = try? openFolder(creating: false) else { return false }
        return FileSystem.unlinkAt(folder.fd, name)
    }

    // MARK: Checks

    /// What is wrong with a folder or file found (not made) below `root`, whose owner is
    /// `user`: nil when it could be one this tool made.
    static func problem(_ status: FileSystem.Status, user: uid_t, isFolder: Bool, me: uid_t = geteuid())
        -> UntrustedFile?
    {
        if isFolder {
            if !status.isDirectory { return status.isSymlink ? .kind(.symbolicLink) : .notAFolder(status.kind) }
        } else {
            if !status.isRegular { return .kind(status.kind) }
            if status.links > 1 { return .hardLinked(Int(status.links)) }
        }
        // Ours, or (as root) the user's whose folders these are, to whom root gives what it makes.
        if status.uid == me || (me == 0 && status.uid == user) { return nil }
        return .owner(UInt32(status.uid))
    }

    /// The first folder of `path` that is a link another user than root owns: root lays
    /// out no user's folders through their links (a user who links `~/.local/state` to
    /// `/etc` would have root make files there).
    static func linkOfAnotherUser(above path: String) -> (String, UInt32)? {
        // Each prefix that ends before a slash, and the whole: looked at as bytes.
        let bytes = Array(path.utf8)
        var ends = bytes.indices.filter { $0 > 0 && bytes[$0] == UInt8(ascii: "/") && bytes[$0 - 1] != bytes[$0] }
        ends.append(bytes.count)
        for end in ends {
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            guard let status = (try? FileSystem.linkStatus(prefix)) ?? nil else { return nil }
            if status.isSymlink, status.uid != 0 { return (prefix, UInt32(status.uid)) }
        }
        return nil
    }

    /// An `openat` failure as a message: a link (`ELOOP`, or `ENOTDIR` for a folder's
    /// place) is a refusal; anything else the system's error.
    static func refusal(_ path: String, _ error: Errno, writing: Bool) -> StateFileError {
        if error == Errno(ELOOP) || error == .notADirectory {
            let kind = (try? FileSystem.linkStatus(path))??.kind ?? .symbolicLink
            // ENOTDIR: a file, FIFO or device stands where a folder belongs.
            if kind != .symbolicLink, error == .notADirectory {
                return StateFileError(path, .untrusted(.notAFolder(kind)))
            }
            return StateFileError(path, .untrusted(.kind(kind)))
        }
        if error == Errno(ENXIO) { return StateFileError(path, .untrusted(.kind(.fifo))) }
        return StateFileError(path, .failed(error, writing: writing))
    }

    /// Run as root, what this process just made is given to the owner of the folder it
    /// was made in, so the user can still write it.
    static func give(_ fd: CInt, owner: uid_t, group: gid_t) throws(Errno) {
        guard FileSystem.isRoot, owner != 0 else { return }
        try FileSystem.fchown(fd, owner, group)
    }

    /// Six characters for a temporary name, as `mkstemp` takes them.
    static func randomSuffix() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        return String(decoding: (0..<6).map { _ in letters.randomElement()! }, as: UTF8.self)
    }
}

/// A state file that could not be used, and which.
package struct StateFileError: Error, Equatable, CustomStringConvertible {
    /// The file or folder.
    package let path: String
    package let reason: Reason

    /// The system's error (`writing`: while making or changing it), or a refusal.
    package enum Reason: Equatable {
        case failed(Errno, writing: Bool)
        case untrusted(UntrustedFile)
    }

    package init(_ path: String, _ reason: Reason) { (self.path, self.reason) = (path, reason) }

    /// One line naming the file and what is wrong.
    package var description: String { message }

    /// One line naming the file and what is wrong.
    package var message: String {
        switch reason {
        case let .failed(errno, writing): "cannot \(writing ? "write" : "read") \(path): \(errno.message)"
        case let .untrusted(problem): "cannot use \(path): \(problem.reason)"
        }
    }

    /// Whether it was refused as something the tool could not have made (a link, a FIFO,
    /// another user's file), rather than failed.
    package var isRefusal: Bool {
        if case .untrusted = reason { return true }
        return false
    }
}

/// Why a file or folder beside the domains was not used: it cannot be one the tool made.
package enum UntrustedFile: Sendable, Equatable {
    /// A link, a FIFO, a device, a folder where a file belongs (or a file where a folder does).
    case kind(FileKind)
    /// A file, FIFO or device where a folder belongs.
    case notAFolder(FileKind)
    /// A regular file with more than one name: a write would land in the other too.
    case hardLinked(Int)
    /// Owned by another user (the id): planted, when root works in a user's folders.
    case owner(UInt32)
    /// A folder above, a link another user (the id) owns, which root does not follow.
    case linkOfUser(UInt32)

    /// Why, for a message after the path.
    package var reason: String {
        switch self {
        case .kind(.symbolicLink): "it is a symbolic link, and the tool never follows one to its own files"
        case .notAFolder(let kind): "it is \(kind.phrase), not a folder"
        case .kind(.directory): "it is a directory, not a regular file"
        case .kind(let kind): "it is \(kind.phrase), not a regular file or folder the tool made"
        case .hardLinked(let n): "it has \(n) names (hard links), so a write would change another file"
        case .owner(let uid): "it belongs to user \(uid), not to this user or the owner of its folder"
        case .linkOfUser(let uid): "it is a symbolic link of user \(uid)'s, which root does not follow"
        }
    }
}

@_extern(c, "syscall") private func syscallOpenat2(
    _ number: Int, _ folder: CInt, _ path: UnsafePointer<CChar>, _ how: UnsafeRawPointer, _ size: Int
) -> Int

extension FileSystem {
    /// `openat2(2)` of `path` below the folder open as `folder`, following no symbolic
    /// link on the way and never leaving the folder (`RESOLVE_NO_SYMLINKS`,
    /// `RESOLVE_NO_MAGICLINKS`, `RESOLVE_BENEATH`); nil when it fails for any reason, a
    /// kernel older than 5.6 (`ENOSYS`) included. glibc 2.36 has no wrapper; `syscall(2)`
    /// is its assembly entry, which takes its arguments as registers, as declared here.
    static func openBeneath(_ folder: CInt, _ path: String, _ flags: CInt) -> CInt? {
        // struct open_how { u64 flags; u64 mode; u64 resolve; }
        var how: (UInt64, UInt64, UInt64) = (UInt64(UInt32(bitPattern: flags | O_CLOEXEC)), 0, 0x02 | 0x04 | 0x08)
        let number = 437  // SYS_openat2, the same on every architecture (the unified table)
        while true {
            let fd = withUnsafeBytes(of: &how) { how in
                path.withCString { syscallOpenat2(number, folder, $0, how.baseAddress!, how.count) }
            }
            note("openat2", path: path, fd: folder, result: fd)
            if fd >= 0 { return CInt(fd) }
            if errno != EINTR { return nil }
        }
    }

    /// `openat(2)` relative to the folder open as `folder`.
    static func openAt(_ folder: CInt, _ name: String, _ flags: CInt, _ mode: mode_t = 0) throws(Errno) -> CInt {
        try retrying {
            let fd = Glibc.openat(folder, name, flags | O_CLOEXEC, mode)
            note("openat", path: name, fd: folder, result: Int(fd))
            return fd
        }
    }

    /// `fstatat(2)` of a name in an open folder, not following a link there; nil when
    /// nothing is there.
    static func statusAt(_ folder: CInt, _ name: String) throws(Errno) -> Status? {
        var s = stat()
        do {
            _ = try retrying {
                let r = fstatat(folder, name, &s, AT_SYMLINK_NOFOLLOW)
                note("fstatat", path: name, fd: folder, result: Int(r))
                return r
            }
        } catch  where error == .noSuchFile {
            return nil
        }
        return Status(s)
    }

    /// `mkdirat(2)`, mode 0700; false when something is already there.
    static func makeDirectoryAt(_ folder: CInt, _ name: String) throws(Errno) -> Bool {
        do { _ = try retrying { mkdirat(folder, name, 0o700) } } catch  where error == .exists { return false }
        return true
    }

    /// `renameat(2)` within or between open folders.
    static func renameAt(_ from: CInt, _ old: String, _ to: CInt, _ new: String) throws(Errno) {
        _ = try retrying { Glibc.renameat(from, old, to, new) }
    }

    /// `unlinkat(2)` of a file (a link itself, never what it names); false when there was none.
    @discardableResult
    static func unlinkAt(_ folder: CInt, _ name: String) -> Bool {
        (try? retrying { Glibc.unlinkat(folder, name, 0) }) != nil
    }

    /// Writes all of `bytes` at `fd`'s offset.
    static func writeBytes(_ bytes: [UInt8], to fd: CInt) throws(Errno) {
        try writeAll(fd, bytes[...])
    }
}
