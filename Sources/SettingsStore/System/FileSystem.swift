import PlistCodecs
import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// <sys/xattr.h> is not in Glibc's module map; these are its C declarations.
@_extern(c, "listxattr") private func listxattr(
    _ path: UnsafePointer<CChar>, _ list: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int
@_extern(c, "getxattr") private func getxattr(
    _ path: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int
) -> Int
@_extern(c, "fsetxattr") private func fsetxattr(
    _ fd: CInt, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer, _ size: Int, _ flags: CInt
) -> CInt
// <stdlib.h>'s mkostemp is a GNU extension, which Glibc's module leaves out too.
@_extern(c, "mkostemp") private func mkostemp(_ template: UnsafeMutablePointer<CChar>, _ flags: CInt) -> CInt

/// Every libc call the engine makes goes through here: one small function a call,
/// EINTR retried in one place, failures as `Errno`.
package enum FileSystem {
    /// Retries `body` while it fails with EINTR; returns its result or throws errno.
    @inline(__always)
    static func retrying<T: FixedWidthInteger>(_ body: () -> T) throws(Errno) -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            if errno != EINTR { throw Errno.current }
        }
    }

    /// A file's permission bits.
    package typealias Mode = mode_t

    package struct Status: Equatable {
        var mode: mode_t, gid: gid_t, size: Int, inode: UInt64, device: UInt64
        /// The owner's user id.
        package var uid: uid_t
        var modifiedNanoseconds: Int64
        var changedNanoseconds: Int64
        /// How many names (hard links) the file has.
        var links: UInt64
        package var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
        package var isRegular: Bool { mode & S_IFMT == S_IFREG }
        package var isSymlink: Bool { mode & S_IFMT == S_IFLNK }
        package var kind: FileKind { FileKind(mode: mode) }
        package var permissions: Mode { mode & 0o7777 }
        /// Whether the owner may write it (mode 0444 may not).
        var isOwnerWritable: Bool { mode & S_IWUSR != 0 }
        /// Whether this process's effective user and group own it.
        var isOwnedByThisProcess: Bool { uid == geteuid() && gid == getegid() }
        /// Whether this process's effective user owns it.
        var isOwnedByThisUser: Bool { uid == geteuid() }

        init(_ s: stat) {
            (mode, uid, gid, size) = (s.st_mode, s.st_uid, s.st_gid, Int(s.st_size))
            (inode, device) = (UInt64(s.st_ino), UInt64(s.st_dev))
            modifiedNanoseconds = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
            changedNanoseconds = Int64(s.st_ctim.tv_sec) * 1_000_000_000 + Int64(s.st_ctim.tv_nsec)
            links = UInt64(s.st_nlink)
        }
    }

    /// `lstat(2)`; nil when nothing is there.
    package static func linkStatus(_ path: String) throws(Errno) -> Status? {
        var s = stat()
        do {
            _ = try retrying {
                let r = lstat(path, &s)
                note("lstat", path: path, result: Int(r))
                return r
            }
        } catch  where error == .noSuchFile { return nil }
        return Status(s)
    }

    /// Why `path` cannot be told absent, for a caller that must fail closed on a rule file
    /// (sync's schemas and ignore file): nil when nothing is there and its folder is a
    /// folder or nothing, or when a file can be reached there. Else the error: a link to
    /// nothing or a loop (at the file or its folder), a folder that cannot be searched
    /// (EACCES), a file where the folder should be (ENOTDIR). `stat` alone reads all of
    /// these as "no file".
    /// (`folder: false`: the folder was checked already, by `unusableFolder`.)
    package static func unusableEntry(_ path: String, folder: Bool = true) -> Errno? {
        if folder, let error = unusableFolder(Path.directory(of: path)) { return error }
        do {
            guard try linkStatus(path) != nil else { return nil }
            return try status(path) == nil ? .noSuchFile : nil
        } catch {
            return error
        }
    }

    /// A folder that is a link to nothing or a loop: nil when it is a folder, absent, or
    /// another kind (which the entries' own checks find).
    package static func unusableFolder(_ folder: String) -> Errno? {
        do {
            if let link = try linkStatus(folder), link.isSymlink, try status(folder) == nil { return .noSuchFile }
            return nil
        } catch {
            return error
        }
    }

    /// Whether anything is at `path` (a dangling link counts), as `lstat(2)` sees it.
    package static func exists(_ path: String) -> Bool { ((try? linkStatus(path)) ?? nil) != nil }

    /// `stat(2)`, following links; nil when nothing is there.
    package static func status(_ path: String) throws(Errno) -> Status? {
        var s = stat()
        do {
            _ = try retrying {
                let r = stat(path, &s)
                note("stat", path: path, result: Int(r))
                return r
            }
        } catch  where error == .noSuchFile { return nil }
        return Status(s)
    }

    package static func status(fd: CInt) throws(Errno) -> Status {
        var s = stat()
        _ = try retrying {
            let r = fstat(fd, &s)
            note("fstat", fd: fd, result: Int(r))
            return r
        }
        return Status(s)
    }

    static func open(_ path: String, _ flags: CInt, _ mode: mode_t = 0) throws(Errno) -> CInt {
        try retrying {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            note("open", path: path, result: Int(fd))
            return fd
        }
    }

    /// A folder, for `fsync(2)` and `flock(2)`.
    static func openFolder(_ path: String) throws(Errno) -> CInt {
        try open(path, O_RDONLY | O_DIRECTORY)
    }

    /// An existing file to write into (a FIFO or a device, which is not replaced).
    static func openForWriting(_ path: String, truncating: Bool) throws(Errno) -> CInt {
        try open(path, O_WRONLY | (truncating ? O_TRUNC : 0))
    }

    package static func close(_ fd: CInt) {
        let r = Glibc.close(fd)
        note("close", fd: fd, result: Int(r))
    }

    /// The most bytes a whole-file read takes: a bigger domain, schema or import is
    /// refused (EFBIG) instead of read until memory runs out, as `/dev/zero` would be.
    static let maximumReadSize = 1 << 30

    /// `maximumReadSize`, or a quarter of the address space the process may have when
    /// `ulimit -v` sets less: past it, growing the buffer would fail, and an allocation
    /// that fails ends a Swift program instead of giving back an error.
    static let readLimit: Int = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return maximumReadSize
        }
        return min(maximumReadSize, Int(clamping: limit.rlim_cur / 4))
    }()

    /// What a whole-file read accepts besides regular files.
    package enum Accepting {
        /// Regular files only: domains and schemas. Anything else would hang (a FIFO),
        /// never end (`/dev/zero`) or make no sense.
        case regularFiles
        /// Also pipes and FIFOs, read to their end: an import from `<(command)`.
        case streams
    }

    /// Reads a whole file with as few `read(2)` calls as its size allows; nil if missing.
    ///
    /// It opens without blocking (`O_NONBLOCK`, so a FIFO with no writer cannot hang
    /// the open), then checks the descriptor's kind with `fstat`: what `accepting` does
    /// not allow throws `.notAFile` before a byte is read. A regular file is read up to
    /// the size `fstat` gave (a file growing meanwhile is read again by the caller's
    /// retry); a stream to its end. Either way at most `maximumReadSize` bytes.
    package static func readFile(_ path: String, accepting: Accepting = .regularFiles) throws(FileError) -> (
        bytes: [UInt8], status: Status
    )? {
        guard let (fd, status) = try openToRead(path, accepting: accepting) else { return nil }
        defer { close(fd) }
        return (try readOpened(fd, status, accepting: accepting), status)
    }

    /// The first half of `readFile`: the file open (without blocking) and its status,
    /// what `accepting` does not allow refused; nil if missing. The caller closes it.
    package static func openToRead(_ path: String, accepting: Accepting = .regularFiles) throws(FileError) -> (
        fd: CInt, status: Status
    )? {
        let fd: CInt
        do { fd = try open(path, O_RDONLY | O_NONBLOCK) } catch  where error == .noSuchFile { return nil } catch {
            // A socket cannot be opened at all: say what it is.
            if error.rawValue == ENXIO, let s = try? self.status(path), !s.isRegular { throw .notAFile(s.kind) }
            throw .system(error)
        }
        let status: Status
        do { status = try self.status(fd: fd) } catch {
            close(fd)
            throw .system(error)
        }
        switch (status.kind, accepting) {
        case (.regular, _), (.fifo, .streams): return (fd, status)
        case (let kind, _):
            close(fd)
            throw .notAFile(kind)
        }
    }

    /// A file to lock and then read, opened as `openToRead` opens it but not looked at:
    /// the locker looks once it holds the lock.
    static func openToLock(_ path: String) throws(Errno) -> CInt {
        try open(path, O_RDONLY | O_NONBLOCK)
    }

    /// The second half of `readFile`: all of a file `openToRead` opened.
    package static func readOpened(_ fd: CInt, _ status: Status, accepting: Accepting = .regularFiles) throws(FileError)
        -> [UInt8]
    {
        switch (status.kind, accepting) {
        case (.regular, _):
            guard status.size <= readLimit else { throw .system(Errno(EFBIG)) }
            do { return try readAll(fd, expected: status.size, isStream: false) } catch { throw .system(error) }
        case (.fifo, .streams):
            // Block from here on: the writer is there, or the read ends at once.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            do { return try readAll(fd, expected: 0, isStream: true) } catch { throw .system(error) }
        case (let kind, _):
            throw .notAFile(kind)
        }
    }

    /// Standard input to its end, whatever it is (a terminal, `/dev/null`, a pipe), at
    /// most `maximumReadSize` bytes.
    static func readStandardInput() throws(Errno) -> [UInt8] {
        try readAll(0, expected: 0, isStream: true)
    }

    /// Reads `fd` to its end: a file of `expected` bytes in one buffer of that size
    /// (filled in place, no zero-fill), stopping there; a stream in doubling steps.
    /// More than `readLimit` bytes throws EFBIG.
    private static func readAll(_ fd: CInt, expected: Int, isStream: Bool) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var capacity = isStream ? 64 * 1024 : expected
        while true {
            var readError: Errno?
            var atEnd = false
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity - bytes.count) { buffer, count in
                count = 0
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                while count < buffer.count {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                    note("read", fd: fd, result: n)
                    if n > 0 { count += n; continue }
                    if n == 0 { atEnd = true; return }
                    if errno != EINTR { readError = .current; return }
                }
            }
            if let readError { throw readError }
            if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
            if atEnd || !isStream { return bytes }
            guard capacity < readLimit else { throw Errno(EFBIG) }
            capacity = min(capacity * 2, readLimit + 1)
        }
    }

    /// Asks for 2 MB pages for a big buffer about to be filled (where the system gives
    /// them on request, as Debian's does): a 100,000-key domain read into 4 KB pages cost
    /// two thousand page faults, a fifth of a whole-domain read.
    static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        let huge = 2 << 20
        guard buffer.count >= 2 * huge, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + huge - 1) / huge * huge
        let end = (Int(bitPattern: base) + buffer.count) / huge * huge
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }

    /// Writes every byte of `bytes` to `fd`, however many calls that takes.
    static func writeAll(_ fd: CInt, _ bytes: ArraySlice<UInt8>) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try retrying {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                note("write", fd: fd, result: n)
                return n
            }
            offset += n
        }
    }

    /// Writes every piece `contents` hands over to `fd`, showing each to `written` once
    /// it is, and at most `limit` bytes. An encoder's own error (there are none today) is
    /// reported as EIO.
    static func writeAll(
        _ fd: CInt, from contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void, limit: Int = .max,
        written: ((ArraySlice<UInt8>) -> Void)? = nil
    ) throws(Errno) {
        var total = 0
        do {
            try contents { piece in
                // Past `limit` bytes, EFBIG: the write stops, and its file is not put in place.
                total += piece.count
                guard total <= limit else { throw Errno.fileTooLarge }
                try writeAll(fd, piece)
                written?(piece)
            }
        } catch let error as Errno {
            throw error
        } catch {
            throw Errno(EIO)
        }
    }

    /// The folders above `folder`, each with the name of the next one down, up to `/`:
    /// along the path as named and, when links lead elsewhere, along where they resolve.
    /// What a watch must follow to see `folder` appear, go, or be swapped for another.
    package static func foldersAbove(_ folder: String) -> [(folder: String, next: String)] {
        var starts = [folder]
        if let resolved = resolvedPath(folder), resolved != folder { starts.append(resolved) }
        var chain: [(folder: String, next: String)] = []
        for start in starts {
            var child = start
            while child != "/" {
                let parent = Path.directory(of: child)
                chain.append((parent, Path.lastComponent(of: child)))
                child = parent
            }
        }
        return chain
    }

    static func fsync(_ fd: CInt) throws(Errno) {
        _ = try retrying {
            let r = Glibc.fsync(fd)
            note("fsync", fd: fd, result: Int(r))
            return r
        }
    }

    static func fchmod(_ fd: CInt, _ mode: mode_t) throws(Errno) { _ = try retrying { Glibc.fchmod(fd, mode) } }

    /// `fchown(2)`; only root may give a file away, so callers ignore EPERM.
    static func fchown(_ fd: CInt, _ uid: uid_t, _ gid: gid_t) throws(Errno) {
        _ = try retrying { Glibc.fchown(fd, uid, gid) }
    }

    static func rename(_ from: String, _ to: String) throws(Errno) {
        _ = try retrying {
            let r = Glibc.rename(from, to)
            note("rename", path: to, result: Int(r))
            return r
        }
    }

    /// `unlink(2)`; false when nothing was there.
    package static func unlink(_ path: String) throws(Errno) -> Bool {
        do {
            _ = try retrying {
                let r = Glibc.unlink(path)
                note("unlink", path: path, result: Int(r))
                return r
            }
        } catch  where error == .noSuchFile { return false }
        return true
    }

    /// `mkostemp(3)` with the template `<directory>/<prefix>XXXXXX` and `O_CLOEXEC`, as
    /// every other descriptor here is opened: a program SettingsKit's host starts meanwhile
    /// inherits no half-written file. The file is mode 0600.
    package static func makeTemporaryFile(in directory: String, prefix: String) throws(Errno) -> (
        fd: CInt, path: String
    ) {
        var template = Array(Path.join(directory, prefix + "XXXXXX").utf8CString)
        let fd = try template.withUnsafeMutableBufferPointer { buffer throws(Errno) in
            try retrying { mkostemp(buffer.baseAddress!, O_CLOEXEC) }
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        note("mkostemp", path: path, result: Int(fd))
        return (fd, path)
    }

    /// True when this process runs as root: then what it creates is given to the owner
    /// of the folder it is created in (`makeDirectories`, `AtomicFile`).
    package static var isRoot: Bool { geteuid() == 0 }
    /// The user this process acts as (its effective uid), as the kernel tells a peer.
    package static var userID: UInt32 { geteuid() }

    /// `mkdir -p` with mode 0700 for each folder it creates. Run as root (`sudo`), each
    /// new folder takes the owner and group of the folder it is made in, so the user
    /// whose config it is can still write there afterwards.
    package static func makeDirectories(_ path: String) throws(Errno) {
        if let s = try status(path) {
            if s.isDirectory { return }
            throw Errno(ENOTDIR)
        }
        let parent = Path.directory(of: path)
        if parent != path { try makeDirectories(parent) }
        do { _ = try retrying { mkdir(path, 0o700) } } catch  where error == .exists { return }
        if isRoot, let owner = try status(parent) {
            _ = try retrying { chown(path, owner.uid, owner.gid) }
        }
    }

    /// Copies to `fd` the extended attributes of `path` that a replacement must keep:
    /// the user's own (`user.*`) and the access ACL, whose mask is what keeps a group's
    /// access narrow. Other namespaces (`trusted.*`, `security.*`) are the system's.
    static func copyMetadata(from path: String, to fd: CInt) throws(Errno) {
        // The size first: the usual file has none, and costs one call and no buffer.
        var names: [CChar] = []
        var length = 0
        while true {
            let needed = listxattr(path, nil, 0)
            if needed == 0 { return }
            if needed > 0 {
                names = [CChar](repeating: 0, count: needed)
                length = listxattr(path, &names, needed)
                if length >= 0 { break }
            }
            // Grown since it was sized: sized again.
            if errno == ERANGE { continue }
            if errno == ENOTSUP || errno == ENODATA { return }
            throw Errno.current
        }
        var start = 0
        for end in 0..<length where names[end] == 0 {
            let name = String(decoding: names[start..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            start = end + 1
            guard name.hasPrefix("user.") || name == "system.posix_acl_access" else { continue }
            let size = getxattr(path, name, nil, 0)
            guard size >= 0 else { if errno == ENODATA { continue }; throw Errno.current }
            var value = [UInt8](repeating: 0, count: size)
            let got = getxattr(path, name, &value, size)
            guard got >= 0 else { throw Errno.current }
            _ = try retrying { fsetxattr(fd, name, value, got, 0) }
        }
    }

    /// The names in a folder, without `.` and `..`; empty when the folder is missing.
    package static func directoryEntries(_ path: String) throws(Errno) -> [String] {
        let opened = opendir(path)
        note("opendir", path: path, result: opened == nil ? -1 : 0)
        guard let dir = opened else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw Errno.current
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `realpath(3)`: the file a chain of links ends at.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `readlink(2)`.
    static func linkTarget(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try retrying { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `flock(2)` exclusive (or `shared`), polled until `timeoutSeconds`: a process that
    /// dies holding it releases it with its file descriptor, so no lock can go stale.
    /// `waiting` is called once, when the lock has been waited for `noticeAfter` seconds.
    /// The pause between tries grows from 0.1 ms to 5 ms: a writer waits out another's
    /// write (a few ms) without sleeping long past its end.
    static func lockExclusive(
        _ fd: CInt, shared: Bool = false, timeoutSeconds: Double, noticeAfter: Double = 1,
        waiting: () -> Void = {}
    ) throws(Errno) -> Bool {
        let start = monotonicSeconds()
        let deadline = start + timeoutSeconds
        var pause = 0.0001
        var noticed = false
        while true {
            if tryLock(fd, shared: shared) { return true }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw Errno.current }
            let now = monotonicSeconds()
            if now >= deadline { return false }
            if !noticed, now - start >= noticeAfter {
                noticed = true
                waiting()
            }
            sleep(seconds: pause)
            pause = min(pause * 2, 0.005)
        }
    }

    /// One try at `flock(2)`, without waiting; false (errno set) when another holds it.
    static func tryLock(_ fd: CInt, shared: Bool = false) -> Bool {
        flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0
    }

    package static func sleep(seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    package static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    package static func wallClockNanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// `getcwd(3)`: the folder relative paths start from ("/" if it is gone).
    package static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// The home folder `/etc/passwd` gives this user ("/" if none), for when `$HOME` is
    /// unset (see `Environment.home`). The file is read directly, as static Go programs do,
    /// rather than through `getpwuid(3)`: in a fully static binary that call needs the
    /// shared libraries of the very glibc it was linked against at run time (glibc warns so
    /// at link time).
    static func passwdHomeDirectory() -> String {
        guard let passwd = try? readFile("/etc/passwd")?.bytes else { return "/" }
        return passwdHome(of: getuid(), in: passwd) ?? "/"
    }

    /// The home folder (sixth field) of the first `/etc/passwd` line whose user id (third
    /// field) is `uid`, skipping `#` comments as glibc does.
    package static func passwdHome(of uid: uid_t, in passwd: [UInt8]) -> String? {
        let id = Array(String(uid).utf8)
        for line in passwd.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard fields.count >= 6, fields[2].elementsEqual(id), !fields[5].isEmpty else { continue }
            return String(decoding: fields[5], as: UTF8.self)
        }
        return nil
    }
}

/// Text to standard output and error, one `write(2)` per call where the kernel allows.
package enum StandardStreams {
    /// Throws what `write(2)` said: output to a full disk or a closed descriptor is a
    /// failure the caller reports, never a silent success. (A closed pipe ends the
    /// process with SIGPIPE first, as any Unix filter ends.)
    package static func write(_ bytes: [UInt8], toError: Bool = false) throws(Errno) {
        try FileSystem.writeAll(toError ? 2 : 1, bytes[...])
    }

    package static func write(_ text: String, toError: Bool = false) throws(Errno) {
        try write(Array(text.utf8), toError: toError)
    }

    /// Makes SIGINT, SIGTERM and SIGHUP end the process with status 0, for commands that
    /// run until stopped (`watch`): stopping them is how they are meant to end. A command
    /// it runs then (`Subprocess.runCommand`) gets the signal too, with everything it
    /// started, and is waited for (`Subprocess.endRunningCommand`): none outlives it.
    package static func exitQuietlyOnSignals() {
        for sig in Subprocess.endingSignals {
            signal(sig) { sig in
                // One ending at a time: a second signal waits for the process to end.
                var ending = sigset_t()
                sigemptyset(&ending)
                sigaddset(&ending, SIGINT)
                sigaddset(&ending, SIGTERM)
                sigaddset(&ending, SIGHUP)
                pthread_sigmask(SIG_BLOCK, &ending, nil)
                Subprocess.endRunningCommand(sig)
                _exit(0)
            }
        }
    }

    /// True when standard output is a terminal (JSON is then pretty-printed).
    package static var outputIsTerminal: Bool { isatty(1) == 1 }

    /// Whether a person types standard input (PlistBuddy then prompts).
    package static var inputIsTerminal: Bool { isatty(0) == 1 }

    /// One line of standard input, without its newline (a person's answer to a prompt);
    /// nil at its end. Read a byte at a time, so nothing after the line is taken.
    package static func readLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(0, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            if line.count < 4096 { line.append(byte) }
        }
    }

    /// Reads standard input to its end (at most `FileSystem.maximumReadSize` bytes).
    package static func readAll() throws(Errno) -> [UInt8] { try FileSystem.readStandardInput() }
}

extension FileSystem {
    /// `rm -rf path` without following a link anywhere: a link inside is removed, never
    /// what it points to (`sync leave` removes its own folder and nothing else).
    package static func removeTree(_ path: String) throws(Errno) {
        guard let status = try linkStatus(path) else { return }
        if status.isDirectory {
            for name in try directoryEntries(path) { try removeTree(Path.join(path, name)) }
            _ = try retrying { rmdir(path) }
        } else {
            _ = try unlink(path)
        }
    }

    /// Whether two byte arrays are equal, by `memcmp`: `==` on arrays compares byte by
    /// byte, and a memo's comparison of a file just read took a sixth of a durable set.
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// `chmod(2)` on a path (the sync's folder, made private again each round).
    package static func changeMode(_ path: String, _ mode: Mode) throws(Errno) {
        _ = try retrying { chmod(path, mode) }
    }
}

extension FileSystem {
    /// Hands `body` the bytes of the regular file at `path` a megabyte at a time, in one
    /// reused buffer (a sync hashing an 8 MB domain at every idle round needs no 8 MB of
    /// fresh memory); false when there is no file. Anything but a regular file throws
    /// `.notAFile`, as `readFile` does. A file another writer rewrites in place meanwhile
    /// is read as it comes: the caller only looks for a change.
    package static func forEachChunk(_ path: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(FileError)
        -> Bool
    {
        let fd: CInt
        do { fd = try open(path, O_RDONLY | O_NONBLOCK) } catch  where error == .noSuchFile { return false } catch {
            throw .system(error)
        }
        defer { close(fd) }
        let status: Status
        do { status = try self.status(fd: fd) } catch { throw .system(error) }
        guard status.isRegular else { throw .notAFile(status.kind) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let size = buffer.count
            let count = read(fd, &buffer, size)
            note("read", fd: fd, result: count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(Errno.current)
            }
            if count == 0 { return true }
            total += count
            guard total <= maximumReadSize else { throw .system(Errno(EFBIG)) }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
