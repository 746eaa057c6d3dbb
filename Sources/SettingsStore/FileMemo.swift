import PlistModel
import Synchronization

/// The bytes of the XML domain file a writer last read or wrote, and the values they
/// hold. A program that writes one domain again and again (SettingsKit's durable `set`)
/// hands it to each update: when the file read under the lock has exactly these bytes,
/// their values are used instead of parsing them again.
///
/// Bytes, not a `FileStamp`, are compared: a stamp cannot tell apart two rewrites in
/// place within one tick of the file system's clock, and an update built on stale
/// values would silently drop the other writer's change. Comparing costs one pass
/// over a file just read; parsing it costs a tree of values.
package final class FileMemo: Sendable {
    private struct Known {
        let bytes: [UInt8]
        let values: PlistDictionary
    }
    private let known = Mutex<Known?>(nil)

    package init() {}

    /// The values of `bytes`, when they are the bytes remembered.
    func values(of bytes: [UInt8]) -> PlistDictionary? {
        known.withLock { known in
            guard let known, known.bytes == bytes else { return nil }
            return known.values
        }
    }

    /// Remembers that `bytes` hold `values` (an XML dictionary).
    func remember(_ bytes: [UInt8], _ values: PlistDictionary) {
        known.withLock { $0 = bytes.isEmpty ? nil : Known(bytes: bytes, values: values) }
    }

    /// Forgets: the file was removed, or written in a format this does not remember.
    func forget() { known.withLock { $0 = nil } }
}
