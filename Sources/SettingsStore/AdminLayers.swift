import PlistCodecs
import PlistModel
import Synchronization

/// Where the value a reader gets comes from, strongest first: an administrator's managed
/// (locked) file, the user's own domain, an administrator's machine-wide default, the
/// domain's schema.
public enum ValueSource: String, Sendable {
    /// An administrator's managed file: `$XDG_CONFIG_DIRS/settings/managed/D.plist`.
    case managed
    /// The user's own domain file.
    case user
    /// An administrator's machine-wide default: `$XDG_CONFIG_DIRS/settings/defaults/D.plist`.
    case system
    /// The domain's schema.
    case `default`
}

/// A file an administrator put under `$XDG_CONFIG_DIRS`, and its values.
public struct AdminFile: Sendable, Equatable {
    /// Where it is.
    public let path: String
    /// Its keys and values.
    public let values: PlistDictionary
}

/// A domain's machine-wide layers, what an administrator puts in each folder of
/// `$XDG_CONFIG_DIRS` (default `/etc/xdg`), as dconf's system databases and macOS's
/// `/Library/Preferences` and Managed Preferences:
///
/// - `settings/managed/D.plist` (or `D.json`): values that win over the user's, and
///   that the user cannot change (the store refuses the write);
/// - `settings/defaults/D.plist` (or `D.json`): values read where the user has none.
///
/// The first folder that has the domain's file wins (the XDG rule); in one folder a
/// `.plist` wins over a `.json`. A file that cannot be used is a warning, and its layer is
/// then empty: an administrator's mistake never stops a user's program.
///
///     let layers = DomainStore().adminLayers(of: .named("com.example.app"))
///     layers.resolve("volume", user: .int(70))   //=> (.int(50), .managed) when managed
public struct AdminLayers: Sendable, Equatable {
    /// The managed file, when the domain has one that could be read.
    public var managed: AdminFile?
    /// The machine-wide defaults, when the domain has a file that could be read.
    public var system: AdminFile?
    /// What could not be used, one line each (and then ignored).
    public var warnings: [LayerWarning] = []

    /// No layers: a domain named by path, a `-currentHost` domain, or no files.
    public static let none = AdminLayers()

    /// The value a reader gets for `key`, given the user's own value, and where it comes
    /// from; nil when no layer has one (a schema's default is the caller's to add).
    public func resolve(_ key: String, user: PlistValue?) -> (value: PlistValue, source: ValueSource)? {
        if let value = managed?.values[key] { return (value, .managed) }
        if let user { return (user, .user) }
        if let value = system?.values[key] { return (value, .system) }
        return nil
    }

    /// The domain as readers see it: the machine-wide defaults, the user's values over
    /// them, the managed values over both (each layer replaces a top-level key whole).
    public func merged(over user: PlistDictionary) -> PlistDictionary {
        var view = user
        if let system { view = system.values.overlaid(by: view) { _, mine in mine } }
        if let managed { view = view.overlaid(by: managed.values) { _, locked in locked } }
        return view
    }

    /// Whether a layer exists at all (else readers need not merge).
    public var isEmpty: Bool { managed == nil && system == nil }
}

/// Why an administrator's file was not used; the layer reads as empty.
public enum LayerWarning: Sendable, Equatable {
    /// It could not be read or parsed.
    case unusable(StoreError)
    /// One folder has both `D.plist` and `D.json`: the first is used.
    case shadowed(used: String, ignored: String)

    /// One line for a user.
    public var message: String {
        switch self {
        case .unusable(let error): "ignoring an administrator's file: \(error.message)"
        case let .shadowed(used, ignored): "ignoring \(ignored): \(used) is in the same folder and comes first"
        }
    }
}

extension DomainStore {
    /// The layers' folder kinds under each `$XDG_CONFIG_DIRS` entry.
    enum AdminLayer: String { case managed, defaults }

    /// The files that could hold `domain`'s `layer`, in the order they are looked at: per
    /// `$XDG_CONFIG_DIRS` entry (absolute ones only, as the XDG spec says; default
    /// `/etc/xdg`), `settings/LAYER/D.plist` then `D.json`. Empty for a domain with no
    /// layers (a path, or a host's file).
    package func adminCandidates(of domain: DomainName, host: DomainHost = .any) -> [String] {
        [AdminLayer.managed, .defaults].flatMap { candidates(of: domain, host: host, $0) }
    }

    func candidates(of domain: DomainName, host: DomainHost, _ layer: AdminLayer) -> [String] {
        guard host.identifier == nil else { return [] }
        let stem: String
        switch domain {
        case .named(let name): stem = name
        case .global: stem = DomainName.globalFileStem
        case .path, .byHostFile: return []
        }
        let dirs = environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        let folders = Self.layerFolders(dirs, layer)
        var paths: [String] = []
        paths.reserveCapacity(folders.count * 2)
        for folder in folders {
            paths.append(folder + stem + ".plist")
            paths.append(folder + stem + ".json")
        }
        return paths
    }

    /// Each layer's folders (with a final `/`) for a value of `$XDG_CONFIG_DIRS`: the
    /// last value's are kept, as every write looks the managed layer up and the value
    /// almost never changes; the variable itself is still read every time.
    private static func layerFolders(_ dirs: String, _ layer: AdminLayer) -> [String] {
        if let kept = keptFolders.withLock({ $0 }), kept.dirs == dirs {
            return layer == .managed ? kept.managed : kept.defaults
        }
        func folders(_ layer: AdminLayer) -> [String] {
            dirs.split(separator: ":").filter { $0.hasPrefix("/") }.map {
                Path.join(Path.join(String($0), "settings/\(layer.rawValue)"), "")
            }
        }
        let made = (dirs: dirs, managed: folders(.managed), defaults: folders(.defaults))
        keptFolders.withLock { $0 = made }
        return layer == .managed ? made.managed : made.defaults
    }

    private static let keptFolders = Mutex<(dirs: String, managed: [String], defaults: [String])?>(nil)

    /// The domain's machine-wide layers (see `AdminLayers`); files that cannot be used are
    /// in its `warnings`.
    public func adminLayers(of domain: DomainName, host: DomainHost = .any) -> AdminLayers {
        var layers = AdminLayers()
        layers.managed = adminFile(of: domain, host: host, .managed, &layers.warnings)
        layers.system = adminFile(of: domain, host: host, .defaults, &layers.warnings)
        return layers
    }

    /// The first candidate file that exists, read: a `.plist` in any of the three formats,
    /// a `.json` in the JSON mapping. Nil when none exists or the one found cannot be used.
    func adminFile(
        of domain: DomainName, host: DomainHost, _ layer: AdminLayer, _ warnings: inout [LayerWarning]
    ) -> AdminFile? {
        let paths = candidates(of: domain, host: host, layer)
        var index = 0
        while index < paths.count {
            let path = paths[index]
            let bytes: [UInt8]
            do throws(FileError) {
                guard let (read, _) = try FileSystem.readFile(path) else {
                    index += 1
                    continue
                }
                bytes = read
            } catch {
                // An entry of $XDG_CONFIG_DIRS that is a file holds no layer, as a missing one.
                if case .system(.notADirectory) = error {
                    index += 1
                    continue
                }
                warnings.append(.unusable(StoreError(reading: path, error)))
                return nil
            }
            // The .plist of a pair wins; its .json twin, if there, is ignored with a word.
            if path.hasSuffix(".plist"), (try? FileSystem.status(paths[index + 1])) ?? nil != nil {
                warnings.append(.shadowed(used: path, ignored: paths[index + 1]))
            }
            do throws(StoreError) {
                return AdminFile(path: path, values: try Self.adminValues(bytes, path: path))
            } catch {
                warnings.append(.unusable(error))
                return nil
            }
        }
        return nil
    }

    /// The dictionary in an administrator's file.
    private static func adminValues(_ bytes: [UInt8], path: String) throws(StoreError) -> PlistDictionary {
        guard path.hasSuffix(".json") else { return try PlistFiles.dictionary(from: bytes, name: path) }
        let value: PlistValue
        do throws(JSONError) { value = try JSONReader.read(bytes) } catch {
            throw StoreError.notJSON(path: path, error)
        }
        guard case .dict(let values) = value else { throw StoreError.notADictionary(path: path, value.type) }
        return values
    }
}
