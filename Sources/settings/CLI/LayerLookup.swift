import PlistModel
import PlistCodecs
import SettingsStore

extension Context {
    /// The domain's machine-wide layers (`AdminLayers`); an administrator's file that
    /// cannot be used is one warning line, said once per run, and its layer is empty.
    mutating func layers(for domain: DomainName) -> AdminLayers {
        if let (name, layers) = lastLayers, name == domain { return layers }
        let layers = store.adminLayers(of: domain, host: host)
        for warning in layers.warnings { warn(warning.message) }
        lastLayers = (domain, layers)
        return layers
    }

    /// The value a reader gets for the top-level `key`, and where it comes from: the
    /// managed file, the user's domain, the machine-wide defaults, then the schema's
    /// default. Nil when none has it.
    mutating func resolve(_ key: String, in domain: DomainName) throws -> (value: PlistValue, source: ValueSource)? {
        let layers = layers(for: domain)
        // A managed value wins without the user's file being read.
        let user = layers.managed?.values[key] != nil ? nil : try store.value(forKey: key, in: domain, host: host)
        if let found = layers.resolve(key, user: user) { return found }
        return schema(for: domain)?.key(key)?.defaultValue.map { ($0, .default) }
    }

    /// Refuses a verb that names a key the domain's managed file locks, whether or not
    /// the user's file has it: `delete D K` of a key only the administrator set would
    /// otherwise say the key does not exist. (The store refuses any change to one too.)
    mutating func refuseManaged(_ keys: [String], in domain: DomainName) throws(StoreError) {
        guard let managed = layers(for: domain).managed else { return }
        for key in keys where managed.values[key] != nil { throw .managed(key: key, path: managed.path) }
    }

    /// `--with-defaults`: the user's values with the layers applied and the schema's
    /// defaults filled in where no layer has the key.
    mutating func mergedView(of domain: DomainName, user: PlistDictionary) -> PlistDictionary {
        var values = layers(for: domain).merged(over: user)
        if let schema = schema(for: domain) {
            for key in schema.keys where values[key.name] == nil { values[key.name] = key.defaultValue }
        }
        return values
    }
}
