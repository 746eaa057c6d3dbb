import PlistCodecs
import PlistModel

// Changing a domain under its lock: the one write every writer goes through.
extension DomainStore {
    /// Reads, changes and writes a domain under its lock. `change` returns whether it
    /// changed anything; when it did not, the file is not touched. A domain left empty
    /// loses its file, as Foundation does. What changed must be storable (`Unstorable`):
    /// else nothing is written. A warning comes back when the change is in place but its
    /// durability is not confirmed.
    ///
    ///     try store.update(.named("com.example.app")) { $0["volume"] = 70; return true }
    ///
    /// - Parameters:
    ///   - domain: the domain; a new file is made in the config folder (mode 0600).
    ///   - host: `.current` for the `ByHost` file of `-currentHost`.
    ///   - change: edits the values; returns whether it changed anything.
    /// - Returns: a warning when the write is in place but not confirmed durable.
    /// - Throws: `StoreError` (a file that does not parse is never overwritten, a
    ///   read-only one is refused, the lock timed out, the disk is full), or what
    ///   `change` threw, with nothing written.
    @discardableResult
    public func update(
        _ domain: DomainName, host: DomainHost = .any,
        _ change: (inout PlistDictionary) throws -> Bool
    ) throws -> StoreWarning? {
        try update(domain, host: host, written: nil, memo: nil, change)
    }

    /// What a change replaced: the stamps of the file read under the lock and of the file
    /// written (nil: none), told while the lock is still held, so a cache of the old
    /// file can become a cache of the new one without reading it.
    package typealias Written = (_ before: FileStamp?, _ after: FileStamp?) -> Void

    /// `update(_:host:_:)`, telling `written` what the change replaced; with a `memo`,
    /// a file this process last read or wrote is not parsed again.
    @discardableResult
    package func update(
        _ domain: DomainName, host: DomainHost = .any, written: Written?, memo: FileMemo? = nil,
        _ change: (inout PlistDictionary) throws -> Bool
    ) throws -> StoreWarning? {
        let managed = managedFile(of: domain, host: host)
        return try withTarget(domain, host: host) { target throws in
            let existing = try read(target.path, memo: memo, opened: target.opened)
            let before = existing?.domain.values ?? PlistDictionary()
            var values = before
            guard try change(&values) else { return nil }
            // Only what changed: a file another writer left such text in stays writable.
            let format = existing?.domain.format ?? .xml
            var binary = false
            let policy = policy(domain, host: host, managed: managed, format: format, at: target.path)
            let journals = Journal(self) != nil
            var changes: [KeyChange] = [], changeCount = 0
            try values.forEachChange(from: before) { changed throws in
                binary = try policy.check(changed.key, changed.new) || binary
                // A journal line keeps a few thousand changes at most: past that, the count.
                if journals {
                    changeCount += 1
                    if changes.count < Journal.keptChanges { changes.append(changed) }
                }
            }
            // Begun once the change has passed the policy: a refused one touches no file.
            let transaction = WriteTransaction(self, target, before: existing.map { FileStamp($0.status) }) { before }
            let warning = try save(
                values, over: existing, to: target, binary: binary, written: written, memo: memo, in: transaction)
            return transaction.finish(
                changes, count: changeCount, written: remains(values, target), warning: warning)
        }
    }

    /// Writes the document `encoded` makes as a domain that has no file, under its lock,
    /// as `update` writes the same keys set in an empty domain (managed keys refused, the
    /// history told), but with the bytes as they are: a big import is not its values
    /// encoded again. `encoded` runs only when there is no file, so a domain that has one
    /// costs nothing; not `created`, with nothing done, when it has one or `encoded` gives
    /// nil: the caller then takes `update`. The warning is `update`'s.
    package func create(_ domain: DomainName, host: DomainHost = .any, _ encoded: () -> EncodedDomain?) throws
        -> (created: Bool, warning: StoreWarning?)
    {
        let managed = managedFile(of: domain, host: host)
        var created = false
        let warning = try withTarget(domain, host: host) { target throws -> StoreWarning? in
            var absent = false
            do throws(Errno) { absent = try FileSystem.linkStatus(target.path) == nil } catch {}
            guard target.opened == nil, absent, let document = encoded() else { return nil }
            let policy = policy(domain, host: host, managed: managed, format: .xml, at: target.path)
            // Every key the document sets, as `update` checks them; its values are built
            // only when a schema asks about them. (The document is XML, storable by making.)
            if policy.managed != nil || policy.schema != nil {
                for index in 0..<document.count {
                    let key = document.key(index)
                    if policy.schema == nil {
                        try policy.checkNamed(key)
                    } else {
                        _ = try policy.check(key, document.value(index))
                    }
                }
            }
            let transaction = WriteTransaction(self, target, before: nil) { PlistDictionary() }
            let kept = transaction.journals ? min(document.count, Journal.keptChanges) : 0
            let changes = (0..<kept).map { KeyChange(key: document.key($0), old: nil, new: document.value($0)) }
            let warning = try transaction.replace(keeping: nil) { write in try write(document.xml[...]) }.warning
            created = true
            return transaction.finish(changes, count: document.count, written: true, warning: warning)
        }
        return (created, warning)
    }

    /// Reads, changes and writes one top-level key under the domain's lock: `change` gets
    /// the key's value (nil when it has none), may set it (nil removes it), and returns
    /// whether it changed anything. Otherwise as `update`.
    ///
    /// A binary domain is edited without building its values (see `BinaryEditor`): the
    /// whole file is checked, only this key's value is built, and every other object is
    /// copied as bytes, so a one-key write of a big binary domain costs little more
    /// memory than the file. In a program that lets the store map files (`MappedFile`),
    /// the file, binary or XML, is read where it lies and never held whole (`mappedOneKey`).
    @discardableResult
    public func update(
        _ domain: DomainName, host: DomainHost = .any, key: String,
        _ change: (inout PlistValue?) throws -> Bool
    ) throws -> StoreWarning? {
        try update(domain, host: host, key: key, written: nil, memo: nil, change)
    }

    /// `update(_:host:key:_:)`, telling `written` what the change replaced; with a
    /// `memo`, an XML file this process last read or wrote is not parsed again.
    @discardableResult
    package func update(
        _ domain: DomainName, host: DomainHost = .any, key: String, written: Written?, memo: FileMemo? = nil,
        _ change: (inout PlistValue?) throws -> Bool
    ) throws -> StoreWarning? {
        let managed = managedFile(of: domain, host: host)
        return try withTarget(domain, host: host) { target throws in
            var file = mappedOneKey(target, key: key, memo: memo)
            if file == nil {
                file = try readFile(target.path, opened: target.opened) { bytes, _ throws(PlistError) -> OneKey in
                    // Smaller than 2 GiB, a file cannot hold more objects than the editor numbers.
                    guard PropertyList.sniff(bytes) == .binary, bytes.count < Int(Int32.max) else {
                        if let known = memo?.take(bytes) { return .remembered(known) }
                        return .tree(try Self.parse(bytes, memo: memo, inHalves: false))
                    }
                    let (root, found, layout) = try BinaryReader.lookupWithLayout(bytes.span, key: key)
                    guard case .dict = root else { return .notADictionary(root.type) }
                    guard let editor = BinaryEditor(bytes.span, layout: layout, key: key) else {
                        return .tree(try PropertyList.read(bytes))
                    }
                    return .binary(editor, found, .read(bytes))
                }
            }
            var existing: FileRead?
            // The memo's bytes and values, taken out of it: a change spliced into them
            // copies neither (see `FileMemo.Known.set`).
            var known: FileMemo.Known?
            if let status = file?.status {
                switch file.take()?.parsed {
                case .binary(let editor, let found, let bytes)?:
                    memo?.forget()
                    return try edit(
                        editor, found, bytes, key: key, status: status,
                        policy: policy(domain, host: host, managed: managed, format: .binary, at: target.path),
                        change, at: target, written: written)
                case .notADictionary(let type)?: throw StoreError.notADictionary(path: target.path, type)
                case .remembered(let taken)?:
                    known = taken
                    existing = FileRead(domain: Domain(values: [:], format: .xml), status: status)
                case .tree(let tree)?: existing = try fileRead(tree, status: status, at: target.path)
                case nil: existing = try fileRead(nil, status: status, at: target.path)
                }
            }
            // Taken out of what was read (which `save` asks only for its format and
            // status), so that setting the key changes them in place, not a copy.
            var values = existing?.domain.values ?? PlistDictionary()
            existing?.domain.values = PlistDictionary()
            let old = known.map { $0.value(of: key) } ?? values[key]
            var value = old
            guard try change(&value) else {
                if let known { memo?.remember(known) }
                return nil
            }
            let format = existing?.domain.format ?? .xml
            let binary = try policy(domain, host: host, managed: managed, format: format, at: target.path)
                .check(key, value)
            let transaction = WriteTransaction(self, target, before: existing.map { FileStamp($0.status) }) {
                known?.values ?? values
            }
            var spliced: FileMemo.Known?
            if var taken = known.take() {
                if !binary, taken.set(key, to: value) {
                    (spliced, values) = (taken, taken.values)
                } else {
                    values = taken.values
                }
            }
            if spliced == nil { values[key] = value }
            let warning = try save(
                values, over: existing, to: target, binary: binary, written: written, memo: memo, in: transaction,
                spliced: spliced)
            return transaction.finish(
                old == value ? [] : [KeyChange(key: key, old: old, new: value)], written: remains(values, target),
                warning: warning)
        }
    }

    /// Every rule of the `WritePolicy` that `changes` to `domain` (a `format` file) would
    /// break, key by key, without writing anything: the one policy a write is held to, for
    /// the verbs that check a whole plan before writing (`apply`, `edit`). `name` is what
    /// a message calls the file.
    package func refusals(
        of changes: [KeyChange], in domain: DomainName, host: DomainHost = .any, format: PlistFormat, named name: String
    ) -> [any Error] {
        let policy = policy(domain, host: host, managed: managedFile(of: domain, host: host), format: format, at: name)
        var refusals: [any Error] = []
        for change in changes {
            do { _ = try policy.check(change.key, change.new) } catch { refusals.append(error) }
        }
        return refusals
    }

    /// The rules a change of `domain` is held to (`WritePolicy`): its managed file, its
    /// schema unless `checksSchema` is off, and what a `format` file at `path` can hold.
    func policy(
        _ domain: DomainName, host: DomainHost, managed: AdminFile?, format: PlistFormat, at path: String
    ) -> WritePolicy {
        var schema: Schema?
        // A named domain has a schema, as the command line looks one up; one that cannot
        // be used checks nothing (readers say why).
        if checksSchema, case .named(let name) = domain {
            schema = try? SchemaFiles.load(for: name, in: schemaFolders).get()
        }
        return WritePolicy(
            managed: managed, schema: schema, domain: domain.displayName, path: path, format: format,
            binaryForAnyText: binaryForAnyText)
    }

    /// The domain's managed file, for a writer. One that cannot be used locks nothing;
    /// saying so is the readers' part (`adminLayers(of:host:)`), so it is said once.
    func managedFile(of domain: DomainName, host: DomainHost) -> AdminFile? {
        var unused: [LayerWarning] = []
        return adminFile(of: domain, host: host, .managed, &unused)
    }

    /// `update(key:)`'s read of a file the program lets the store map (`MappedFile`): the
    /// file the lock opened, where it lies, its pages given back as it is checked (and,
    /// binary, as it is copied), so that a big domain is never held whole. Nil, for the
    /// file to be read whole, when it is under `mapOneKeyFrom`, when it cannot be mapped,
    /// when `memo` wants its bytes, or when it is not a binary dictionary or a UTF-8 XML
    /// one that reads without fault: the whole read then says why, or tries again, as for
    /// any file.
    func mappedOneKey(_ target: Target, key: String, memo: FileMemo?) -> (parsed: OneKey?, status: FileSystem.Status)? {
        guard memo == nil, let opened = target.opened, opened.status.size >= mapOneKeyFrom,
            let mapped = MappedFile(opened.fd, opened.status, path: target.path)
        else { return nil }
        defer { mapped.dropPages() }
        let bytes = mapped.bytes
        do throws(PlistError) {
            if BinaryReader.hasHeader(bytes) {
                guard bytes.count < Int(Int32.max) else { return nil }
                let (root, found, layout) = try BinaryReader.lookupWithLayout(
                    bytes.span, key: key, progress: mapped.dropPages)
                guard case .dict = root, let editor = BinaryEditor(bytes.span, layout: layout, key: key) else {
                    return nil
                }
                return (.binary(editor, found, .mapped(mapped)), opened.status)
            }
            let head = Array(bytes.prefix(512))
            guard TextDecoding.isUTF8AsIs(head), PropertyList.sniff(head) == .xml else { return nil }
            let root = try XMLReader.read(utf8: bytes.span, progress: mapped.dropPages)
            guard case .dict = root else { return nil }
            return (.tree((root, .xml)), opened.status)
        } catch {
            return nil
        }
    }

    /// The binary branch of the one-key update: `editor` copies from `file`.
    func edit(
        _ editor: BinaryEditor, _ found: PlistValue?, _ file: EditedFile, key: String, status: FileSystem.Status,
        policy: WritePolicy, _ change: (inout PlistValue?) throws -> Bool, at target: Target, written: Written?
    ) throws -> StoreWarning? {
        var value = found
        guard try change(&value) else { return nil }
        _ = try policy.check(key, value)
        let transaction = WriteTransaction(self, target, before: FileStamp(status)) {
            try? read(target.path, opened: target.opened)?.domain.values
        }
        let changes = found == value ? [] : [KeyChange(key: key, old: found, new: value)]
        if value == nil, editor.otherEntryCount == 0 {
            let warning = try save(
                PlistDictionary(), over: FileRead(domain: Domain(values: [:], format: .binary), status: status),
                to: target, written: written, in: transaction)
            return transaction.finish(changes, written: target.keepsEmptyFile, warning: warning)
        }
        try checkWritable(status, at: target.path)
        let (warning, stamp) = try transaction.replace(keeping: status) { write in
            switch file {
            case .read(let bytes): try editor.write(value, from: bytes.span, chunk: 1 << 20, to: write)
            case .mapped(let mapped):
                try editor.write(value, from: mapped.bytes.span, chunk: 1 << 20, dropPages: mapped.dropPages, to: write)
                // Copied where it lies: a file another program changed in place meanwhile (a
                // writer of ours renames) may have been copied half old, so it is not put in
                // place (nor is one cut short: that one ends the program, see `MappedFile`).
                let now = target.opened.flatMap { try? FileSystem.status(fd: $0.fd) }
                guard now.map(FileStamp.init) == FileStamp(status) else { throw Errno.changedInPlace }
            }
        }
        written?(FileStamp(status), stamp)
        return transaction.finish(changes, written: true, warning: warning)
    }

    /// Whether a save of `values` leaves a file: not for an emptied domain, unless it is a
    /// link or a path.
    func remains(_ values: PlistDictionary, _ target: Target) -> Bool {
        !values.isEmpty || target.keepsEmptyFile
    }

    /// What `update(_:host:key:_:)` read: a binary dictionary ready to edit with the
    /// key's value, any other document whole, or a root of another type.
    enum OneKey {
        case binary(BinaryEditor, PlistValue?, EditedFile)
        /// The bytes `memo` remembers, taken out of it.
        case remembered(FileMemo.Known)
        case tree((PlistValue, PlistFormat))
        case notADictionary(ValueType)
    }

    /// The bytes a binary one-key edit copies from: the file read whole, or mapped.
    enum EditedFile {
        case read([UInt8])
        case mapped(MappedFile)
    }

    /// Refuses to replace or remove a file its owner may not write (mode 0444), unless
    /// `overwriteReadOnly`: a read-only file is how a user says "leave this alone".
    func checkWritable(_ status: FileSystem.Status?, at path: String) throws(StoreError) {
        guard let status, status.isRegular, !status.isOwnerWritable, !overwriteReadOnly else { return }
        throw StoreError.readOnly(path: path)
    }

    /// Writes `values` over what was read, in its format: a domain left empty loses its
    /// file (unless it was named through a link), and an empty new domain makes none.
    /// A change that stores a date with a fraction of a second, or text XML cannot hold
    /// (`binary`, see `needsBinary`), makes the file binary, the one format that keeps it:
    /// `Date()` set is the `Date()` read, here and in Foundation. (An XML file read back
    /// holds neither, so only what changed is looked at.)
    ///
    /// With a `memo`, an XML file's bytes are remembered with its values, sorted as
    /// written, and where each entry lies, so the next update of this file neither parses
    /// nor sorts it, and a one-key one writes `spliced`: those bytes with its entry
    /// spliced in (`values` are its values), not every entry encoded again.
    func save(
        _ values: PlistDictionary, over existing: FileRead?, to target: Target, binary needsBinary: Bool = false,
        written: Written? = nil, memo: FileMemo? = nil, in transaction: WriteTransaction,
        spliced: FileMemo.Known? = nil
    ) throws(StoreError) -> StoreWarning? {
        let path = target.path
        if values.isEmpty && existing == nil { return nil }
        try checkWritable(existing?.status, at: path)
        memo?.forget()
        let before = existing.map { FileStamp($0.status) }
        if values.isEmpty, existing != nil, !target.keepsEmptyFile {
            _ = try transaction.remove()
            written?(before, nil)
            return nil
        }
        let binary = existing?.domain.format == .binary || needsBinary
        var kept: [UInt8]? = memo != nil && !binary && spliced == nil ? [] : nil
        var bounds: [Int] = []
        let values = kept != nil ? PlistDictionary(entries: values.sortedEntries) : values
        let (warning, stamp) = try transaction.replace(keeping: existing?.status) { write in
            if let spliced {
                try write(spliced.bytes[...])
            } else if binary {
                try write(BinaryWriter.encode(.dict(values), capacity: (existing?.status.size ?? 0) + 4096)[...])
            } else {
                try XMLWriter.encode(
                    .dict(values), chunk: 1 << 20, entryBounds: kept == nil ? nil : { bounds.append($0) }
                ) { chunk in
                    kept?.append(contentsOf: chunk)
                    try write(chunk)
                }
            }
        }
        if let spliced {
            memo?.remember(spliced)
        } else if let kept {
            memo?.remember(kept, values, bounds: bounds)
        }
        written?(before, stamp)
        return warning
    }
}
