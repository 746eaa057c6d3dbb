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
}

/// A key as its schema entry describes it.
protocol SchemaDescribed: NamedKey {
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
