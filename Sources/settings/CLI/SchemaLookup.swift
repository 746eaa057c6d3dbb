import PlistModel
import PlistCodecs
import SettingsStore

extension Context {
    /// The domain's schema, or nil when it has none or only a broken one; a broken one
    /// is one warning line, and then plain `defaults` behaviour.
    mutating func schema(for domain: DomainName) -> Schema? {
        guard case .named(let name) = domain else { return nil }
        switch SchemaFiles.load(for: name, configDirectory: store.directory, environment: store.environment) {
        case .success(let schema): return schema
        case .failure(let error):
            warn(error.message)
            return nil
        }
    }
}
