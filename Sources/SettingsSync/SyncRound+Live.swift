import PlistCodecs
import PlistModel
import SettingsStore

/// The live side of a round: the carried domains as the round reads them.
extension SyncRound {
    /// A carried live domain as the round read it.
    struct Live {
        let name: String
        /// Of its bytes and its local-key rules, the bytes read a piece at a time (an idle
        /// round holds no copy of a big domain); nil when it could not be read.
        let print: String?
        let local: LocalKeys
        /// Its file ("" for a desktop domain, which has none).
        let path: String
        /// A desktop domain's values as read, encoded as the repository keeps them.
        var held: [UInt8]? = nil

        /// Its file's bytes, read again (nil: no file); a desktop domain's as read.
        func read() throws(StoreError) -> [UInt8]? {
            if path.isEmpty { return held }
            do throws(FileError) { return try FileSystem.readFile(path)?.bytes } catch {
                throw StoreError(reading: path, error)
            }
        }

        /// Its values, read again, and the print of the bytes they were parsed from (what
        /// the round merged is what its state may say it saw); nil when there is no file.
        func values() throws(StoreError) -> Prepared? {
            try read().map(prepared)
        }

        /// `bytes` of its file as the merge takes them: parsed (or why not), and printed.
        func prepared(_ bytes: [UInt8]) -> Prepared {
            Prepared(
                values: Result { () throws(StoreError) in try PlistFiles.dictionary(from: bytes, name: path) },
                print: SyncState.print(bytes, local.text))
        }
    }

    /// A live domain as the merge takes it: its values (or why it has none), the print of
    /// the bytes they came from, and those bytes' blob when git stored them meanwhile.
    struct Prepared {
        let values: Result<PlistDictionary, StoreError>
        let print: String
        var blob: String? = nil
    }

    /// The carried live domains, by folded name (the store finds a domain in any case).
    func readLive(_ rules: SyncRules, _ report: inout SyncReport) throws(SyncError) -> [String: Live] {
        let names: [String]
        do { names = try store.domainNames() } catch { throw .store(error) }
        var live: [String: Live] = [:]
        // A plist file named as a desktop domain is neither: the desktop's are read below.
        for name in names where !DomainName.hasDesktopPrefix(name) && Self.isDomainName(name) && rules.carries(name) {
            let key = DomainKey.folded(name)
            if let other = live[key] {
                report.notes.append("\(name).plist is another spelling of \(other.name): left out of the sync")
                continue
            }
            let path = store.path(of: .named(name))
            let local: LocalKeys
            switch localKeys(name, rules) {
            case .success(let keys): local = keys
            case .failure(let problem):
                // Its rules cannot be read: no key of it may travel, nor be taken for removed.
                report.notes.append("\(problem.message): \(name) left out of this round")
                live[key] = Live(name: name, print: nil, local: LocalKeys(patterns: ["*"], names: []), path: path)
                continue
            }
            do throws(StoreError) {
                var print = Print()
                let found: Bool
                do throws(FileError) { found = try FileSystem.forEachChunk(path) { print.add($0) } } catch {
                    throw StoreError(reading: path, error)
                }
                guard found else { continue }
                print.endPart()
                live[key] = Live(name: name, print: print.finish(local.text), local: local, path: path)
            } catch {
                report.notes.append("\(error.message): \(name) left out of this round")
                live[key] = Live(name: name, print: nil, local: local, path: path)
            }
        }
        readDesktop(rules, into: &live, &report)
        return live
    }

    /// The keys of the domain that stay here: by the ignore file, its schema's
    /// `"sync": false` keys and an administrator's managed file. A schema or an
    /// administrator's file that exists but cannot be used fails closed: read as none, it
    /// would let a key meant to stay here (a token) travel, for good, in the repository's history.
    func localKeys(_ name: String, _ rules: SyncRules) -> Result<LocalKeys, RuleProblem> {
        if Self.isDesktopName(name) { return desktopLocalKeys(name, rules) }
        // A candidate there but out of reach (a link to nothing, a loop, a folder that
        // cannot be searched) is a schema that cannot be used, not "no schema".
        var found: String? = nil
        for (folder, problem) in schemaFolders {
            let path = Path.join(folder, name + ".json")
            if let error = problem ?? FileSystem.unusableEntry(path, folder: false) {
                return .failure(RuleProblem(message: "its schema \(path) cannot be used (\(error.message))"))
            }
            if FileSystem.exists(path) {
                found = folder
                break
            }
        }
        // Loaded from the folder just found: the folders are not searched a second time.
        let schema: Schema?
        switch found.map({ SchemaFiles.load(for: name, in: [$0]) }) ?? .success(nil) {
        case .success(let loaded): schema = loaded
        case .failure(let error):
            let at = error.pointer.isEmpty ? "" : " at \(error.pointer)"
            return .failure(
                RuleProblem(message: "its schema \(error.path) cannot be used\(at) (\(error.code.message))"))
        }
        let layers = store.adminLayers(of: .named(name))
        for warning in layers.warnings {
            if case .unusable(let error) = warning {
                return .failure(RuleProblem(message: "an administrator's file cannot be used (\(error.message))"))
            }
        }
        return .success(rules.localKeys(name, schema: schema, managed: layers.managed))
    }

    /// A rule file of a domain's that cannot be used, in one line.
    struct RuleProblem: Error {
        let message: String
    }

    /// The domain's schema; none when it has none or its file cannot be used (the
    /// commands that read it say why).
    func schema(_ name: String) -> Schema? {
        try? SchemaFiles.load(for: name, configDirectory: store.directory, environment: store.environment).get()
    }

    /// A name the store takes as a domain of the config folder (not the global domain,
    /// not a dotfile, no `/`, no control character), or a desktop domain a round carries.
    static func isDomainName(_ name: String) -> Bool {
        // A desktop prefix in any case is a desktop name or none: never a plist file's.
        if DomainName.hasDesktopPrefix(name) { return isDesktopName(name) }
        guard let domain = try? DomainName(name), case .named(let named) = domain else { return false }
        return sameKey(named, name)
    }
}
