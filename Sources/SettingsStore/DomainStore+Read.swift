import PlistCodecs
import PlistModel

// Reading a domain: whole, one key, as output, and its history.
extension DomainStore {
    /// The domain's values, or nil when it has no file.
    ///
    ///     try DomainStore().load(.named("com.example.app"))?.values["volume"]   //=> .int(70)
    ///
    /// - Parameters:
    ///   - domain: the domain; its file is found in any case (see `path(of:host:)`).
    ///   - host: `.current` for the `ByHost` file of `-currentHost`.
    /// - Throws: `StoreError`: a file that does not parse (`.corrupt`, never read as
    ///   empty), is no dictionary, is not a regular file, or cannot be read.
    public func load(_ domain: DomainName, host: DomainHost = .any) throws(StoreError) -> Domain? {
        _ = try located(domain, host: host)
        return try read(path(of: domain, host: host))?.domain
    }

    /// The domain's whole text as `form`, for a caller about to write it: a file that can
    /// be written so without building its values is handed over to be written from its
    /// bytes (XML from a binary file; JSON, `read D`'s text or a binary plist from an XML
    /// one), so a big domain is never built as a tree; any other file is read as `load`
    /// reads it, with its checks and errors, and its values (empty for a domain with no
    /// file) shown to `checking` before they are written, for the caller's own refusals.
    package func output(
        of domain: DomainName, host: DomainHost = .any, as form: DomainText.Form,
        checking: (PlistDictionary) throws -> Void = { _ in }
    ) throws -> DomainText {
        _ = try located(domain, host: host)
        let path = path(of: domain, host: host)
        if form == .xml, let mapped = MappedFile(path), BinaryReader.hasHeader(mapped.bytes),
            let layout = try? BinaryReader.checkedForXML(mapped.bytes, progress: mapped.dropPages)
        {
            mapped.dropPages()
            return DomainText(form, .binary(mapped, layout))
        }
        // An XML file to write as a binary one is read where it lies, its pages given back
        // as they are read: a big domain is never held whole. Any other, or one the direct
        // way refuses, is read below, for its error or values.
        if form == .binary, let mapped = MappedFile(path), !BinaryReader.hasHeader(mapped.bytes),
            TextDecoding.isUTF8AsIs(Array(mapped.bytes.prefix(512))),
            let plist = try? XMLReader.binaryPlist(
                mapped: mapped.bytes, owner: mapped, dropPages: { mapped.dropPages() },
                inParallel: { Self.inParallel($0) }, halvesFrom: halvesFrom)
        {
            return DomainText(form, .binaryPlist(plist))
        }
        enum Parsed {
            case text([UInt8])
            case values((PlistValue, PlistFormat))
        }
        let file = try readFile(path) { bytes, _ throws(PlistError) -> Parsed in
            // A file the direct way refuses is parsed as `load` parses it, for its error.
            if !BinaryReader.hasHeader(bytes) {
                let inParallel = { Self.inParallel($0) }
                switch form {
                case .json, .defaults:
                    if let text = try? XMLReader.text(
                        bytes, as: form == .json ? .json : .defaults, inParallel: inParallel, halvesFrom: halvesFrom)
                    {
                        return .text(text)
                    }
                case .binary:
                    if let encoded = try? XMLReader.binary(bytes, inParallel: inParallel, halvesFrom: halvesFrom) {
                        return .text(encoded)
                    }
                case .xml:
                    // An XML file is written from its values, checked and sorted.
                    break
                }
            }
            return .values(try Self.parse(bytes, memo: nil))
        }
        if case .text(let text)? = file?.parsed { return DomainText(form, .text(text)) }
        var values = PlistDictionary()
        if let file {
            var parsed: (PlistValue, PlistFormat)?
            if case .values(let read)? = file.parsed { parsed = read }
            values = try fileRead(parsed, status: file.status, at: path).domain.values
        }
        try checking(values)
        return DomainText(form, .values(values))
    }

    /// One value of a domain, without building the rest: nil when the domain or the key
    /// does not exist. The whole file is checked, as `load` checks it, or, for a big file,
    /// was checked whole when its key index was made and has not changed since (`KeyIndex`).
    public func value(forKey key: String, in domain: DomainName, host: DomainHost = .any) throws(StoreError)
        -> PlistValue?
    {
        _ = try located(domain, host: host)
        let path = path(of: domain, host: host)
        let index = keyIndexFile(for: path)
        let found = try readFile(
            path,
            shortcut: { fd, status -> PropertyList.Lookup? in
                guard status.size >= KeyIndex.minimumFileSize else { return nil }
                switch KeyIndex.lookup(key, index: index, file: fd, status: status) {
                case .value(let value)?: return .dictionary(value)
                case .absent?: return .dictionary(nil)
                case nil: return nil
                }
            },
            parse: { bytes, status throws(PlistError) in
                guard KeyIndex.worthMaking(for: status) else { return try PropertyList.lookup(bytes, key: key).0 }
                // A seed of the index's own, kept in it: see `KeyIndex`.
                let seed = SipHash13.Seed.random()
                let (found, format, places) = try PropertyList.lookupPlaces(bytes, key: key, seed: seed)
                if let places { saveKeyIndex(places, seed: seed, format: format, of: status, for: path, at: index) }
                return found
            })
        switch found?.parsed {
        case nil, .dictionary(nil)?: return nil
        case .dictionary(let value)?: return value
        case .notADictionary(let type)?: throw StoreError.notADictionary(path: path, type)
        }
    }

    /// The domain's journal, oldest change first: every change made through the store
    /// (any program, the command line, SettingsKit, `apply`, `sync`), with changes made
    /// without it found at the next write as `outside` ones. Empty when there is none or
    /// the journal is off (`SETTINGS_HISTORY_SIZE=0`).
    /// A change made without the store since its last write, not journalled yet, is the
    /// last entry, found now.
    public func history(of domain: DomainName, host: DomainHost = .any) -> [JournalEntry] {
        history(of: domain, host: host) { _ in }
    }

    /// `history`, a journal file refused as planted (a link, a FIFO, another user's) told
    /// to `refused` in one line: read as empty, never followed or waited on.
    package func history(of domain: DomainName, host: DomainHost = .any, refused: (String) -> Void)
        -> [JournalEntry]
    {
        guard let journal = Journal(self) else { return [] }
        // By the file a write replaces: a link's target (`WriteTransaction`).
        let named = (try? writeTarget(path(of: domain, host: host))) ?? path(of: domain, host: host)
        var entries = journal.entries(at: named) { refused($0.message) }
        let stamp = (try? FileSystem.status(named)).flatMap { $0.map(FileStamp.init) }
        let found = Journal.Write(journal, at: named, before: stamp, creating: false) {
            try? load(domain, host: host)?.values
        }
        if !found.outside.isEmpty || found.outsideUncompared {
            entries.append(.foundOutside(found.outside, valuesKept: !found.outsideUncompared))
        }
        return entries
    }

    /// Where the key index of the domain file at `path` is kept: `$XDG_CACHE_HOME/settings/index`
    /// (an absolute `XDG_CACHE_HOME`, else `~/.cache`), by the file's path.
    func keyIndexFile(for path: String) -> StateFile {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = Path.join(environment.home, ".cache")
        }
        return StateFile(root: base, "settings/index/" + Path.flatName(of: path))
    }

    /// Writes the key index of a file just read whole, if it is still as it was when its
    /// read began. Nothing here fails a read: an index that cannot be made is not made.
    func saveKeyIndex(
        _ places: [KeyPlace], seed: SipHash13.Seed, format: PlistFormat, of status: FileSystem.Status,
        for path: String, at index: StateFile
    ) {
        guard let now = try? FileSystem.status(path), FileStamp(now) == FileStamp(status),
            let bytes = KeyIndex.encode(places, seed: seed, format: format, of: status)
        else { return }
        try? index.replace(with: bytes)
    }

    struct FileRead {
        var domain: Domain
        var status: FileSystem.Status
    }

    /// Reads and parses a domain file (through `memo`, when given).
    func read(_ path: String, memo: FileMemo? = nil, opened: LockedFile? = nil) throws(StoreError) -> FileRead? {
        guard
            let file = try readFile(
                path, opened: opened, parse: { bytes, _ throws(PlistError) in try Self.parse(bytes, memo: memo) })
        else {
            memo?.forget()
            return nil
        }
        return try fileRead(file.parsed, status: file.status, at: path)
    }

    /// Parses a file's bytes, or takes their values from `memo` when it holds these bytes;
    /// an XML dictionary parsed is remembered there.
    /// `inHalves`: a big XML file may be read on two threads. A one-key write says no: the
    /// second thread's half lives in a malloc heap of its own, which keeps it resident after
    /// it is joined, and the write needs the memory more than the milliseconds.
    static func parse(_ bytes: [UInt8], memo: FileMemo?, inHalves: Bool = true) throws(PlistError)
        -> (PlistValue, PlistFormat)
    {
        if let values = memo?.values(of: bytes) { return (.dict(values), .xml) }
        let parsed = try PropertyList.read(bytes, inParallel: inHalves ? { Self.inParallel($0) } : nil)
        if let memo, parsed.1 == .xml, case .dict(let values) = parsed.0 { memo.remember(bytes, values) }
        return parsed
    }

    /// Another thread for the second half of a big XML file (`XMLReader`).
    static func inParallel(_ work: @escaping () -> Result<XMLReader.SecondHalf, PlistError>)
        -> () -> Result<XMLReader.SecondHalf, PlistError>
    {
        let thread = Background(work)
        return { thread.join() }
    }

    /// A parsed file as a domain; an empty file (nothing parsed) is an empty XML domain.
    func fileRead(_ parsed: (PlistValue, PlistFormat)?, status: FileSystem.Status, at path: String)
        throws(StoreError) -> FileRead
    {
        guard let (value, format) = parsed else {
            return FileRead(domain: Domain(values: PlistDictionary(), format: .xml), status: status)
        }
        guard case .dict(let values) = value else { throw StoreError.notADictionary(path: path, value.type) }
        return FileRead(domain: Domain(values: values, format: format), status: status)
    }

    /// Reads a domain file and parses it with `parse`; `parsed` is nil for an empty file.
    /// Only a regular file is read (a FIFO, a device or a folder is refused at once).
    /// `shortcut`, when given, is first shown the open file and its status: what it returns,
    /// when not nil, is the answer, and the file is not read.
    /// A parse failure of a file changed in the last two seconds is retried for `readRetry`
    /// seconds: Foundation rewrites its files in place, so a reader can catch one
    /// half-written (or just truncated, hence empty).
    func readFile<T>(
        _ path: String, opened: LockedFile? = nil, shortcut: ((CInt, FileSystem.Status) -> T?)? = nil,
        parse: ([UInt8], FileSystem.Status) throws(PlistError) -> T
    ) throws(StoreError) -> (parsed: T?, status: FileSystem.Status)? {
        let deadline = FileSystem.monotonicSeconds() + min(max(readRetry, 0), 2)
        // The file the lock opened is read first; a retry opens the name again.
        var given = opened
        while true {
            let file: (bytes: [UInt8], status: FileSystem.Status)
            do throws(FileError) {
                let fd: CInt, status: FileSystem.Status, owned: Bool
                if let locked = given {
                    given = nil
                    // Its status is the lock's, looked at a moment ago under the lock.
                    (fd, status, owned) = (locked.fd, locked.status, false)
                    // A second read of the same descriptor (see `edit`) starts again.
                    do throws(Errno) { try FileSystem.rewind(fd) } catch { throw FileError.system(error) }
                } else {
                    guard let (own, ownStatus) = try FileSystem.openToRead(path) else { return nil }
                    (fd, status, owned) = (own, ownStatus, true)
                }
                defer { if owned { FileSystem.close(fd) } }
                if let shortcut, let answer = shortcut(fd, status) { return (answer, status) }
                file = (try FileSystem.readOpened(fd, status), status)
            } catch {
                throw StoreError(reading: path, error)
            }
            let age = FileSystem.wallClockNanoseconds() - file.status.modifiedNanoseconds
            let fresh = age < 2_000_000_000 && FileSystem.monotonicSeconds() < deadline
            if file.bytes.isEmpty {
                if fresh { FileSystem.sleep(seconds: 0.05); continue }
                return (nil, file.status)
            }
            do throws(PlistError) {
                return (try parse(file.bytes, file.status), file.status)
            } catch {
                if fresh {
                    FileSystem.sleep(seconds: 0.05)
                    continue
                }
                throw StoreError.corrupt(path: path, error)
            }
        }
    }
}
