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
        do throws(Errno) {
            let old = try FileSystem.status(path)
            let directoryFD = try FileSystem.open(Path.directory(of: path), O_RDONLY | O_DIRECTORY)
            defer { FileSystem.close(directoryFD) }
            try AtomicFile.replace(path, directoryFD: directoryFD, with: bytes, keeping: old, newFileMode: 0o644)
        } catch {
            throw StoreError.writeFailed(path: path, error)
        }
    }
}
