import PlistCodecs
import PlistModel
/// Where a domain's schema lives: `$XDG_CONFIG_HOME/settings/schemas/D.json`, then each
/// `$XDG_DATA_DIRS/settings/schemas/D.json` (default `/usr/local/share:/usr/share`).
/// Relative entries of `XDG_DATA_DIRS` are ignored, as the XDG spec says: they would
/// name folders below whatever folder the command happens to run in.
package enum SchemaFiles {
    /// The places looked in, first match wins.
    package static func candidates(for domain: String, configDirectory: String, environment: Environment = .process)
        -> [String]
    {
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        let folders =
            [Path.join(configDirectory, "settings/schemas")]
            + dataDirs.split(separator: ":").filter { $0.hasPrefix("/") }.map {
                Path.join(String($0), "settings/schemas")
            }
        return folders.map { Path.join($0, domain + ".json") }
    }

    /// The schema file used for `domain`, if any.
    package static func path(for domain: String, configDirectory: String, environment: Environment = .process)
        -> String?
    {
        candidates(for: domain, configDirectory: configDirectory, environment: environment).first {
            (try? FileSystem.status($0)) ?? nil != nil
        }
    }

    /// The domain's schema: nil when it has none; a `SchemaError` (to be shown as a
    /// warning) when its file cannot be used.
    package static func load(for domain: String, configDirectory: String, environment: Environment = .process)
        -> Result<
            Schema?, SchemaError
        >
    {
        guard let path = path(for: domain, configDirectory: configDirectory, environment: environment) else {
            return .success(nil)
        }
        let bytes: [UInt8]
        do {
            guard let (read, _) = try FileSystem.readFile(path) else { return .success(nil) }
            bytes = read
        } catch {
            switch error {
            case .system(let errno): return .failure(SchemaError(path: path, .unreadable(errno)))
            case .notAFile(let kind): return .failure(SchemaError(path: path, .notAFile(kind)))
            }
        }
        do { return .success(try Schema.parse(bytes, path: path)) } catch { return .failure(error) }
    }
}
