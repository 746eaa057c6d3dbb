#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Property-list files outside the store: what `import` reads and `export` writes.
public enum PlistFiles {
    /// The bytes at `path`, or standard input for `-`.
    public static func read(_ path: String) throws(StoreError) -> [UInt8] {
        do throws(Errno) {
            if path == "-" { return try StandardStreams.readAll() }
            guard let (bytes, _) = try FileSystem.readFile(path) else { throw Errno.noSuchFile }
            return bytes
        } catch {
            throw StoreError.unreadable(path: path == "-" ? "standard input" : path, error)
        }
    }

    /// A dictionary from any of the three formats; `name` is used in errors.
    public static func dictionary(from bytes: [UInt8], name: String) throws(StoreError) -> PlistDictionary {
        let value: PlistValue
        do { value = try PropertyList.read(bytes).0 } catch { throw StoreError.corrupt(path: name, error) }
        guard case .dict(let dict) = value else { throw StoreError.notADictionary(path: name, value.type) }
        return dict
    }

    /// Replaces `path` atomically (see `AtomicFile`); a new file is mode 0644, an
    /// existing one keeps its mode.
    public static func write(_ bytes: [UInt8], to path: String) throws(StoreError) {
        try write(to: path) { write in try write(bytes[...]) }
    }

    /// As `write`, with the bytes handed over in pieces by `contents`.
    public static func write(to path: String,
                             contents: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws(StoreError) {
        do throws(Errno) {
            let old = try FileSystem.status(path)
            let directoryFD = try FileSystem.open(Path.directory(of: path), O_RDONLY | O_DIRECTORY)
            defer { FileSystem.close(directoryFD) }
            try AtomicFile.replace(path, directoryFD: directoryFD, keeping: old, newFileMode: 0o644, contents: contents)
        } catch {
            throw StoreError.writeFailed(path: path, error)
        }
    }
}
