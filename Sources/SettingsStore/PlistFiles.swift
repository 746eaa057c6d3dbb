import PlistCodecs
import PlistModel
/// Property-list files outside the store: what `import` reads and `export` writes.
package enum PlistFiles {
    /// The bytes at `path`: a regular file, or a pipe or FIFO read to its end
    /// (`import D <(command)`); at most `FileSystem.maximumReadSize`. Standard input (`-`)
    /// is the caller's to read, from the streams it runs with.
    package static func read(_ path: String) throws(StoreError) -> [UInt8] {
        do throws(FileError) {
            guard let (bytes, _) = try FileSystem.readFile(path, accepting: .streams) else {
                throw .system(.noSuchFile)
            }
            return bytes
        } catch {
            throw StoreError(reading: path, error)
        }
    }

    /// A dictionary from any of the three formats; `name` is used in errors.
    package static func dictionary(from bytes: [UInt8], name: String) throws(StoreError) -> PlistDictionary {
        let value: PlistValue
        do { value = try PropertyList.read(bytes).0 } catch { throw StoreError.corrupt(path: name, error) }
        guard case .dict(let dict) = value else { throw StoreError.notADictionary(path: name, value.type) }
        return dict
    }

    /// Writes `bytes` to `path` (see `write(to:contents:)`).
    @discardableResult
    package static func write(
        _ bytes: [UInt8], to path: String, lockTimeout: Double, newFileMode: FileSystem.Mode = 0o644
    ) throws(StoreError) -> StoreWarning? {
        try write(to: path, lockTimeout: lockTimeout, newFileMode: newFileMode) { write in try write(bytes[...]) }
    }

    /// Writes the bytes `contents` hands over in pieces to `path`, as `cp` would:
    /// - nothing there, a regular file, or a link to one: replaced atomically under the
    ///   folder's lock (see `AtomicFile`); a new file is `newFileMode` (0644), an existing one keeps
    ///   its mode, owner and attributes, and a link stays a link (a sync's state is
    ///   0600);
    /// - a FIFO or a character device (`/dev/null`, `/dev/stdout` at a terminal or a
    ///   pipe): the bytes are written into it, which is never replaced;
    /// - anything else (a folder, a socket): refused.
    /// A path under `/dev/` or `/proc/` (`/dev/stdout`, `/dev/fd/3`) always names a
    /// stream the caller holds open, whatever it leads to: it is written into, never
    /// replaced.
    @discardableResult
    package static func write(
        to path: String, lockTimeout: Double, newFileMode: FileSystem.Mode = 0o644,
        contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(StoreError) -> StoreWarning? {
        let stream = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
        let status: FileSystem.Status?
        do throws(Errno) { status = try FileSystem.status(path) } catch {
            throw StoreError.writeFailed(path: path, error)
        }
        if let status, stream || !status.isRegular {
            switch status.kind {
            case .regular, .fifo, .characterDevice:
                try writeInto(path, truncating: status.isRegular, contents)
                return nil
            case let kind:
                throw StoreError.notAFile(path: path, kind)
            }
        }
        // A link is written through: its target is the file replaced.
        let target = FileSystem.resolvedPath(path) ?? path
        do {
            return try FolderLock.holding(Path.directory(of: target), for: path, timeout: lockTimeout) {
                directoryFD throws in
                // Looked at again under the lock: only a regular file is ever replaced.
                let old: FileSystem.Status?
                do throws(Errno) { old = try FileSystem.status(target) } catch {
                    throw StoreError.writeFailed(path: path, error)
                }
                if let old, !old.isRegular { throw StoreError.notAFile(path: path, old.kind) }
                do throws(Errno) {
                    let durability = try AtomicFile.replace(
                        target, directoryFD: directoryFD, keeping: old,
                        newFileMode: newFileMode, contents: contents
                    ).durability
                    return StoreWarning(durability, path: target)
                } catch {
                    throw StoreError.writeFailed(path: path, error)
                }
            }
        } catch {
            throw error as? StoreError ?? .writeFailed(path: path, .ioError)
        }
    }

    /// Writes into a file that is not replaced: a stream, a device, a regular file behind
    /// `/dev/stdout` (then truncated first, as `cp` does).
    private static func writeInto(
        _ path: String, truncating: Bool,
        _ contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(StoreError) {
        do throws(Errno) {
            let fd = try FileSystem.openForWriting(path, truncating: truncating)
            defer { FileSystem.close(fd) }
            try FileSystem.writeAll(fd, from: contents)
        } catch {
            throw StoreError.writeFailed(path: path, error)
        }
    }
}
