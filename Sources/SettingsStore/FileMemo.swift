import PlistCodecs
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
///
/// Bytes this process wrote also keep where each entry lies, so that a one-key update
/// splices the new entry into them (`Known.set`) instead of encoding every entry again:
/// a burst of sets into a 1,000-key domain spent most of its time doing that.
package final class FileMemo: Sendable {
    /// A file's bytes and values (sorted, each key once, when `bounds` is known).
    struct Known {
        var bytes: [UInt8]
        var values: PlistDictionary
        /// Where entry `i` lies in `bytes`: `bounds[i]..<bounds[i + 1]`, as `XMLWriter`
        /// wrote them; nil for bytes read, not written here, whose layout is unknown.
        var bounds: [Int]?

        /// These with `key` set to `value` (nil: removed), `XMLWriter.writeEntry`'s bytes
        /// spliced in place of the old entry: byte for byte what encoding the whole
        /// dictionary writes. False, with nothing changed, when the layout is unknown or
        /// no entry would be left (the file is removed, not written).
        mutating func set(_ key: String, to value: PlistValue?) -> Bool {
            guard bounds?.count == values.entries.count + 1 else { return false }
            let (index, found) = values.sortedPlace(of: key)
            if value == nil, !found { return true }
            if value == nil, values.entries.count == 1 { return false }
            // Taken, not copied: changing a shared array would copy it.
            var bounds = self.bounds.take()!
            let start = bounds[index], end = found ? bounds[index + 1] : start
            var entry: [UInt8] = []
            if let value { XMLWriter.writeEntry(key: key, value: value, level: 1, into: &entry) }
            var spliced: [UInt8] = []
            spliced.reserveCapacity(bytes.count - (end - start) + entry.count)
            spliced.append(contentsOf: bytes[..<start])
            spliced.append(contentsOf: entry)
            spliced.append(contentsOf: bytes[end...])
            let shift = entry.count - (end - start)
            // Every bound past the entry moves by the change in its length.
            do {
                var all = bounds.mutableSpan
                for i in (index + 1)..<all.count { all[i] += shift }
            }
            switch (found, value != nil) {
            case (true, false): bounds.remove(at: index + 1)
            case (false, true): bounds.insert(start + entry.count, at: index + 1)
            default: break
            }
            values.setEntry(at: index, found: found, key: key, value: value)
            (bytes, self.bounds) = (spliced, bounds)
            return true
        }

        /// The value of `key`: a binary search when the entries are known sorted.
        func value(of key: String) -> PlistValue? {
            guard bounds != nil else { return values[key] }
            let (index, found) = values.sortedPlace(of: key)
            return found ? values.entries[index].value : nil
        }
    }
    private let known = Mutex<Known?>(nil)

    package init() {}

    /// The values of `bytes`, when they are the bytes remembered.
    func values(of bytes: [UInt8]) -> PlistDictionary? {
        known.withLock { known in
            guard let known, FileSystem.sameBytes(known.bytes, bytes) else { return nil }
            return known.values
        }
    }

    /// What is remembered of `bytes`, taken out of the memo (so that changing it copies
    /// nothing), when they are the bytes remembered; put it back with `remember(_:)`.
    func take(_ bytes: [UInt8]) -> Known? {
        known.withLock { known in
            guard let remembered = known?.bytes, FileSystem.sameBytes(remembered, bytes) else { return nil }
            return known.take()
        }
    }

    /// Remembers that `bytes` hold `values` (an XML dictionary); with `bounds`, that this
    /// process wrote them with `XMLWriter`, its entries there (see `Known.bounds`).
    func remember(_ bytes: [UInt8], _ values: PlistDictionary, bounds: [Int]? = nil) {
        known.withLock { $0 = bytes.isEmpty ? nil : Known(bytes: bytes, values: values, bounds: bounds) }
    }

    /// Remembers what `take` took, changed or not.
    func remember(_ taken: consuming Known) {
        known.withLock { $0 = taken }
    }

    /// Forgets: the file was removed, or written in a format this does not remember.
    func forget() { known.withLock { $0 = nil } }
}
