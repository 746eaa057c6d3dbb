import PlistModel
import PlistCodecs
import SettingsStore

extension Settings {
    /// The schema of a set of keys, as JSON for `$XDG_DATA_DIRS/settings/schemas/D.json`:
    /// an app ships it, and its users' shells complete, type and check against it.
    /// A key's type comes from its default (an optional without one has none), a
    /// clamped key's bounds become its minimum and maximum.
    ///
    ///     Settings.schema(for: [SettingsKeys.volume])
    ///     //=> {"keys": {"volume": {"type": "real", "default": 50.0, "minimum": 0.0, "maximum": 100.0}}}
    public static func schema(for keys: [SettingsKeys], strict: Bool = false) -> String {
        var described = PlistDictionary()
        for key in keys {
            guard let key = key as? any SchemaDescribed else { continue }
            described[key.name] = .dict(key.schemaEntry)
        }
        let root: PlistValue = .dict(["strict": .bool(strict), "keys": .dict(described)])
        return String(decoding: JSONWriter.encode(root, pretty: true), as: UTF8.self) + "\n"
    }

    /// Publishes `keys` as this domain's schema, in the user's own schema folder
    /// (`$XDG_CONFIG_HOME/settings/schemas/D.json`, or `directory`'s), where `settings`
    /// finds it: the shell's untyped `write` then takes each key's type, a clamped key's
    /// range is enforced, and `describe`, `list-keys` and completion show the app's keys.
    /// Call it once at launch; a schema already as published is not written again.
    ///
    ///     try settings.publishSchema(for: [SettingsKeys.volume, SettingsKeys.name])
    ///
    /// - Throws: `SettingsError.store` when the file cannot be written; a domain given by
    ///   path, or the global domain, has no schema and is refused as an invalid domain.
    public func publishSchema(for keys: [SettingsKeys], strict: Bool = false) throws(SettingsError) {
        if let domainError { throw .store(domainError) }
        guard case .named(let name) = domain else {
            throw .store(.invalidDomain(domain.displayName, "only a named domain has a schema"))
        }
        let bytes = Array(Self.schema(for: keys, strict: strict).utf8)
        // The first place schemas are looked for, `settings/schemas/D.json` in the config
        // folder, through the door for the tool's own files: a link, a FIFO or a file
        // another user planted there is refused, never followed, waited on or replaced.
        let file = StateFile(root: store.directory, SchemaFiles.folderName + "/\(name).json")
        do throws(StateFileError) {
            if let existing = try file.read(), existing == bytes { return }
            try file.replace(with: bytes, durable: true, mode: 0o644)
        } catch {
            throw .store(StoreError(error))
        }
    }
}

/// A key as its schema entry describes it.
protocol SchemaDescribed {
    var name: String { get }
    var schemaEntry: PlistDictionary { get }
}

extension SettingsKey: SchemaDescribed {
    var schemaEntry: PlistDictionary {
        var entry = PlistDictionary()
        if let value = defaultValue.propertyListValue {
            entry["type"] = .string(TypeTable.row(for: value).schemaWord)
            entry["default"] = value
        }
        if let (low, high) = bounds {
            entry["minimum"] = low
            entry["maximum"] = high
        }
        return entry
    }
}
