import PlistModel
import SettingsStore

/// The desktop's settings as domains: reads from the files dconf's own clients read (the
/// user's database and the profile's system ones, typed by the compiled schemas), writes
/// through dconf's service on the session's bus (`DconfWriter`), so every running
/// application sees the change at once.
package final class DesktopStore {
    package let environment: Environment
    package let schemas: SchemaSource
    package let profile: DconfProfile
    private var databases: [String: DconfDatabase] = [:]
    /// Told each change made, for the journal: the domain's name and its values before and
    /// after; returns what it could not keep, in a line.
    package var journal: ((String, PlistDictionary, PlistDictionary) -> String?)?
    /// What the journal could not keep, one line each (a journal file refused as planted).
    package private(set) var journalWarnings: [String] = []
    /// Runs a change of the named domain holding its journal's lock (none: not held).
    package var holding: ((String, () -> Void) -> Void)?
    /// The system databases passed over, and why.
    package private(set) var skippedDatabases: [DesktopError] = []

    package init(environment: Environment) {
        self.environment = environment
        schemas = SchemaSource(environment: environment)
        profile = DconfProfile(environment: environment)
    }

    /// A domain, resolved: its schema (none for a dconf folder) and its folder.
    package struct Place: Sendable {
        package let domain: DesktopDomain
        package let schema: DesktopSchema?
        /// The dconf folder, ending in `/`.
        package let folder: String

        /// A key's full dconf path.
        package func path(of key: String) -> String { folder + key }
    }

    /// Where a value came from, as `read --source` says it for any domain.
    package enum Source: String, Sendable {
        case user, system, managed
        case schemaDefault = "default"
    }

    package func place(_ domain: DesktopDomain) throws(DesktopError) -> Place {
        switch domain.kind {
        case .folder(let folder): return Place(domain: domain, schema: nil, folder: folder)
        case .schema(let id, let path):
            let schema = try schemas.schema(id)
            switch (schema.path, path) {
            case (let own?, nil): return Place(domain: domain, schema: schema, folder: own)
            case (nil, let given?): return Place(domain: domain, schema: schema, folder: given)
            case (nil, nil): throw .needsPath(id)
            case (_?, _?): throw .pathNotTaken(id)
            }
        }
    }

    /// Reads every database again from here on: a watch after a change.
    package func forgetDatabases() { databases = [:] }

    private func database(_ path: String) throws(DesktopError) -> DconfDatabase {
        if let known = databases[path] { return known }
        let database: DconfDatabase
        do throws(DesktopError) { database = try DconfDatabase(path) } catch {
            // A system database that cannot be read is passed over, as dconf passes over
            // it; the user's, which every change is written to, is not.
            guard path != profile.userDatabase else { throw error }
            if !skippedDatabases.contains(error) { skippedDatabases.append(error) }
            database = DconfDatabase(nothingAt: path)
        }
        databases[path] = database
        return database
    }

    /// The schema's key, or why there is none.
    package func key(_ place: Place, _ name: String) throws(DesktopError) -> DesktopKey? {
        guard let schema = place.schema else {
            guard DesktopDomain.isRelativeKey(name) else { throw .badKey(name) }
            return nil
        }
        guard let key = try schema.key(name) else { throw .noSuchKey(schema: schema.id, key: name) }
        return key
    }

    /// A key's value as applications see it, and where it came from: a locked key's from
    /// the administrator's database (or its default); else the user's, if its key allows
    /// it; else a system database's; else the schema's default. Nil for a dconf key no
    /// database holds.
    package func read(_ place: Place, _ name: String) throws(DesktopError) -> (Variant, Source)? {
        let key = try self.key(place, name)
        let path = place.path(of: name)
        // GSettings reads a stored value only when its key allows it (type, range,
        // choices); else the next layer's, or the default.
        let fits = { (value: Variant) in key == nil || key!.refusal(value) == nil }
        for system in profile.systemDatabases where try database(system).isLocked(path) {
            for other in profile.systemDatabases {
                if let value = try database(other).value(path), fits(value) { return (value, .managed) }
            }
            return key.map { ($0.defaultValue, .managed) }
        }
        if let user = profile.userDatabase, let value = try database(user).value(path), fits(value) {
            return (value, .user)
        }
        for system in profile.systemDatabases {
            if let value = try database(system).value(path), fits(value) { return (value, .system) }
        }
        return key.map { ($0.defaultValue, .schemaDefault) }
    }

    /// The values the user set in the domain, by key name, sorted: for a schema, its keys
    /// the user's database holds that the key allows (the only ones GSettings reads), or
    /// with `ofTheKeysType` false every key in its folder; for a folder, every key under it.
    package func userValues(_ place: Place, ofTheKeysType: Bool = true) throws(DesktopError) -> [(
        key: String, value: Variant
    )] {
        guard let user = profile.userDatabase else { return [] }
        var found: [(key: String, value: Variant)] = []
        if let schema = place.schema, ofTheKeysType {
            // Each of the schema's keys looked up by its hash: the database's other
            // folders (hundreds of keys when the desktop is set up) are never walked.
            let database = try database(user)
            for name in try schema.keyNames() {
                guard let value = try database.value(place.path(of: name)), let key = try schema.key(name),
                    key.refusal(value) == nil
                else { continue }
                found.append((name, value))
            }
            return found.sorted { byteOrderPrecedes($0.key, $1.key) }
        }
        for (path, value) in try database(user).values(under: place.folder) {
            let name = String(path.dropFirst(place.folder.count))
            // A schema's keys of every type (`ofTheKeysType` false): its folder's own keys.
            if place.schema != nil, name.contains("/") { continue }
            found.append((name, value))
        }
        return found.sorted { byteOrderPrecedes($0.key, $1.key) }
    }

    /// Every key's value as applications see it: the schema's keys (each user, system or
    /// default), or a folder's keys in any database.
    package func effectiveValues(_ place: Place) throws(DesktopError) -> [(key: String, value: Variant)] {
        var names: [String]
        if let schema = place.schema {
            names = try schema.keys().map(\.name)
        } else {
            var all = Set<String>()
            for path in [profile.userDatabase].compactMap({ $0 }) + profile.systemDatabases {
                for (key, _) in try database(path).values(under: place.folder) {
                    all.insert(String(key.dropFirst(place.folder.count)))
                }
            }
            names = all.sorted { byteOrderPrecedes($0, $1) }
        }
        var values: [(key: String, value: Variant)] = []
        for name in names { if let (value, _) = try read(place, name) { values.append((name, value)) } }
        return values
    }

    /// A value of the value model as the key's value: typed by its schema; in a `dconf:`
    /// folder, by what the value says of itself (JSON and a property list say their own
    /// types, an export's `$gvariant` tags included, so an export imports back the same).
    package func variant(_ place: Place, _ name: String, _ value: PlistValue) throws(DesktopError) -> Variant {
        let type = try key(place, name)?.type
        do throws(VariantParser.Failure) { return try Variant.from(value, as: type) } catch {
            throw .refused(key: name, reason: error.message)
        }
    }

    /// Why the key cannot take `value` (its type, range or choices, or a lock), or nil.
    package func check(_ place: Place, _ name: String, _ value: Variant) throws(DesktopError) {
        if let key = try self.key(place, name), let reason = key.refusal(value) {
            throw .refused(key: name, reason: reason)
        }
        try checkUnlocked(place.path(of: name))
    }

    private func checkUnlocked(_ path: String) throws(DesktopError) {
        if try isLocked(path) { throw .locked(path) }
    }

    /// Whether a database of dconf's profile locks the key at `path` (the `managed` layer).
    package func isLocked(_ path: String) throws(DesktopError) -> Bool {
        for system in profile.systemDatabases where try database(system).isLocked(path) { return true }
        return false
    }

    /// Sets (a value) and resets (nil) keys of the domain through dconf's service, each
    /// checked first, in one change that dconf applies whole.
    package func write(_ place: Place, _ changes: [(key: String, value: Variant?)]) throws(DesktopError) {
        for (name, value) in changes {
            if let value {
                try check(place, name, value)
            } else {
                _ = try key(place, name)
                try checkUnlocked(place.path(of: name))
            }
        }
        let sets = changes.compactMap { change in change.value.map { (place.path(of: change.key), $0) } }
        try journalled(place, made: changes) { () throws(DesktopError) in
            try change(changes.map { (place.path(of: $0.key), $0.value) })
        }
        // dconf's service has written its database when it answers: a value not there now
        // was not stored (a service that is not dconf's), which is never success.
        guard let user = profile.userDatabase else { return }
        for (path, value) in sets where try database(user).value(path) != value {
            throw .notStored(path)
        }
    }

    /// Every key under a folder reset at once (`dconf reset -f`).
    package func resetFolder(_ place: Place) throws(DesktopError) {
        try journalled(place, made: nil) { () throws(DesktopError) in try change([(place.folder, nil)]) }
    }

    /// `change` made, and told to `journal` with the domain's values before and after,
    /// all while `holding` the domain's journal lock, so two writers through the store take
    /// turns and neither journals the other's keys, nor takes them for an outside change.
    /// The values after are the values before with `made` applied (`made` nil: every key
    /// of the domain reset), not read again: another program's change in between is that
    /// program's, found by the next write. A change that failed is read again (what was
    /// made is history too).
    private func journalled(
        _ place: Place, made: [(key: String, value: Variant?)]?, _ change: () throws(DesktopError) -> Void
    ) throws(DesktopError) {
        var failure: DesktopError? = nil
        func run() {
            do throws(DesktopError) {
                let before = self.journal == nil ? nil : try self.stateDomain(place) ?? [:]
                var changed = false
                defer {
                    self.databases = [:]
                    if let journal = self.journal, let before,
                        let after = changed
                            ? self.applying(made, to: before, in: place) : try? self.stateDomain(place) ?? [:],
                        let warning = journal(place.domain.name, before, after)
                    {
                        self.journalWarnings.append(warning)
                    }
                }
                try change()
                changed = true
            } catch {
                failure = error
            }
        }
        if let holding { holding(place.domain.name, run) } else { run() }
        if let failure { throw failure }
    }

    /// `values` with `made` set and reset (nil: all of them reset), as the domain's state.
    private func applying(_ made: [(key: String, value: Variant?)]?, to values: PlistDictionary, in place: Place)
        -> PlistDictionary
    {
        guard let made else { return [:] }
        var after = values
        for (key, value) in made { after[key] = value.map { $0.plistValue(typed: place.schema != nil) } }
        return PlistDictionary(entries: after.sortedEntries)
    }

    /// Whether a change can be made: dconf's service started on the session's bus
    /// (`startWriter`). A change of several domains asks first, so nothing is written when
    /// this would stop it part way.
    package func checkWriter() throws(DesktopError) { try startWriter() }
}

extension DesktopStore {
    /// The fixed schemas the user's database holds a value of, as domain names
    /// (`gsettings:org.gnome.desktop.interface`), sorted: the desktop's part of `domains`.
    package func domainsWithValues() throws(DesktopError) -> [String] {
        guard let user = profile.userDatabase, FileSystem.exists(user), try schemas.hasSchemas() else { return [] }
        var folders = Set<String>()
        for (path, _) in try database(user).values(under: "/") {
            folders.insert(String(path[...path.lastIndex(of: "/")!]))
        }
        var names: [String] = []
        for schema in try schemas.all() where schema.path.map(folders.contains) == true {
            let place = Place(
                domain: try DesktopDomain(DesktopDomain.schemaPrefix + schema.id), schema: schema, folder: schema.path!)
            if try !userValues(place).isEmpty { names.append(DesktopDomain.schemaPrefix + schema.id) }
        }
        return names
    }
}

extension DesktopStore {
    /// Every folder of the user's database holding a value (`/org/gnome/desktop/interface/`),
    /// with each folder above it, sorted: what `dconf:` completes to.
    package func folders() throws(DesktopError) -> [String] {
        guard let user = profile.userDatabase else { return [] }
        var folders = Set<String>()
        for (path, _) in try database(user).values(under: "/") {
            var folder = path[...path.lastIndex(of: "/")!]
            while folders.insert(String(folder)).inserted, folder.count > 1 {
                folder = folder.dropLast()
                folder = folder[...folder.lastIndex(of: "/")!]
            }
        }
        return folders.sorted { byteOrderPrecedes($0, $1) }
    }
}

extension DesktopStore {
    /// Every value the user set, as domains of the value model, for `capture`, `diff` and
    /// `snapshot`: a folder a fixed schema owns as `gsettings:ID` (the keys of its types,
    /// typed), every other key as `dconf:/FOLDER/` (its own folder, untyped). Sorted.
    package func stateDomains() throws(DesktopError) -> [(name: String, values: PlistDictionary)] {
        guard let user = profile.userDatabase, FileSystem.exists(user) else { return [] }
        var owners: [String: DesktopSchema] = [:]
        if try schemas.hasSchemas() {
            for schema in try schemas.all() where schema.path != nil && owners[schema.path!] == nil {
                owners[schema.path!] = schema
            }
        }
        var domains: [String: PlistDictionary] = [:]
        for (path, value) in try database(user).values(under: "/") {
            let slash = path.lastIndex(of: "/")!
            let folder = String(path[...slash]), name = String(path[path.index(after: slash)...])
            if let schema = owners[folder], let key = try schema.key(name), key.type == value.type {
                domains[DesktopDomain.schemaPrefix + schema.id, default: [:]][name] = value.plistValue(typed: true)
            } else {
                domains[DesktopDomain.folderPrefix + folder, default: [:]][name] = value.plistValue(typed: false)
            }
        }
        return domains.sorted { byteOrderPrecedes($0.key, $1.key) }.map {
            ($0.key, $0.value)
        }
    }

    /// One domain's user values as a state domain (nil when it has none).
    package func stateDomain(_ place: Place) throws(DesktopError) -> PlistDictionary? {
        let values = try userValues(place)
        return values.isEmpty ? nil : dictionary(values, of: place)
    }

    /// A domain's values in the value model, typed where its schema gives the types.
    package func dictionary(_ values: [(key: String, value: Variant)], of place: Place) -> PlistDictionary {
        PlistDictionary(
            entries: values.map { .init(key: $0.key, value: $0.value.plistValue(typed: place.schema != nil)) })
    }
}
