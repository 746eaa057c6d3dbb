import PlistCodecs
import PlistModel
/// Where a domain's schema lives: `$XDG_CONFIG_HOME/settings/schemas/D.json`, then each
/// `$XDG_DATA_DIRS/settings/schemas/D.json` (default `/usr/local/share:/usr/share`).
/// Relative entries of `XDG_DATA_DIRS` are ignored, as the XDG spec says: they would
/// name folders below whatever folder the command happens to run in.
package enum SchemaFiles {
    /// Where schemas are below the config folder (looked at first, where SettingsKit
    /// publishes one) and below each data folder.
    package static let folderName = "settings/schemas"

    /// The folders looked in, first match wins. (A store works them out once: every write
    /// looks its domain's schema up, and splitting the variable each time cost more than
    /// the look.)
    package static func folders(configDirectory: String, environment: Environment = .process) -> [String] {
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return [Path.join(configDirectory, folderName)]
            + dataDirs.split(separator: ":").filter { $0.hasPrefix("/") }.map {
                Path.join(String($0), folderName)
            }
    }

    /// The places looked in, first match wins.
    package static func candidates(for domain: String, configDirectory: String, environment: Environment = .process)
        -> [String]
    {
        folders(configDirectory: configDirectory, environment: environment).map { Path.join($0, domain + ".json") }
    }

    /// The schema file used for `domain`, if any.
    package static func path(for domain: String, configDirectory: String, environment: Environment = .process)
        -> String?
    {
        path(for: domain, in: folders(configDirectory: configDirectory, environment: environment))
    }

    /// The schema file used for `domain` among `folders` (`folders(configDirectory:environment:)`).
    package static func path(for domain: String, in folders: [String]) -> String? {
        let name = domain + ".json"
        for folder in folders {
            let path = Path.join(folder, name)
            if (try? FileSystem.status(path)) ?? nil != nil { return path }
        }
        return nil
    }

    /// The domain's schema: nil when it has none; a `SchemaError` (to be shown as a
    /// warning) when its file cannot be used.
    package static func load(for domain: String, configDirectory: String, environment: Environment = .process)
        -> Result<
            Schema?, SchemaError
        >
    {
        load(for: domain, in: folders(configDirectory: configDirectory, environment: environment))
    }

    /// `load(for:configDirectory:environment:)` among `folders`.
    package static func load(for domain: String, in folders: [String]) -> Result<Schema?, SchemaError> {
        guard let path = path(for: domain, in: folders) else {
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
