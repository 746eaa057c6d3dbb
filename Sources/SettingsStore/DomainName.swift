import PlistCodecs
import PlistModel
/// What a domain argument names: the global domain, an app domain in the config
/// folder, or a property-list file anywhere.
///
///     try DomainName("-g")                                      //=> .global
///     try DomainName("com.example.app")                         //=> .named("com.example.app")
///     try DomainName("~/Library/Preferences/com.apple.finder")  //=> .named("com.apple.finder")
///     try DomainName("~/x")                                     //=> .path("/home/me/x.plist")
public enum DomainName: Sendable, Equatable {
    case global
    case named(String)
    /// A file of the config folder's ByHost folder, named by its macOS path
    /// (`~/Library/Preferences/ByHost/com.apple.screensaver.<host>.plist`): the file
    /// name without `.plist`.
    case byHostFile(String)
    case path(String)

    /// The spellings `defaults` accepts for the global domain, matched in any case
    /// (macOS disks are case-insensitive, so scripts write `nsglobaldomain` too).
    package static let globalSpellings = [
        "-g", "-globalDomain", "NSGlobalDomain", "Apple Global Domain", ".GlobalPreferences",
    ]

    /// The global domain's file name in the config folder (what Foundation reads).
    package static let globalFileStem = ".GlobalPreferences"

    /// A domain as the library names one: a global spelling (`-g`, `NSGlobalDomain`…), an
    /// absolute or `~/` path (a `~/Library/Preferences` path is the named domain), or a name.
    ///
    ///     try DomainName("com.example.app")   //=> .named("com.example.app")
    ///
    /// - Parameters:
    ///   - argument: the name or path.
    ///   - home: where `~` points; the process's `$HOME` when nil.
    /// - Throws: `StoreError.invalidDomain` for a name that cannot be a file name.
    public init(_ argument: String, home: String? = nil) throws(StoreError) {
        if Self.isGlobal(argument) { self = .global; return }
        let inHome = argument == "~" || argument.hasPrefix("~/")
        if argument.hasPrefix("/") || inHome {
            // Looked up once, and only for a path (`~`, and ~/Library/Preferences below).
            let home = home ?? Environment.process.home
            let path = inHome ? Path.join(home, String(argument.dropFirst(2))) : argument
            guard !path.hasSuffix("/") else { throw StoreError.invalidDomain(argument, "a folder is not a domain") }
            let file = path.hasSuffix(".plist") ? path : path + ".plist"
            if file.utf8.split(separator: UInt8(ascii: "/")).contains(where: { $0.count > 255 })
                || file.utf8.count >= 4096
            {
                throw StoreError.invalidDomain(
                    argument, "the path is too long for a file (255 bytes a name, 4095 in all)")
            }
            self = try Self.preferencesDomain(file, home: home) ?? .path(file)
            return
        }
        try Self.validate(argument, what: "domain name")
        self = .named(argument)
    }

    static func isGlobal(_ argument: String) -> Bool {
        lowercasedGlobalSpellings.contains(argument.lowercased())
    }

    /// Every command checks its domain argument against these, so they are lowered once.
    private static let lowercasedGlobalSpellings = globalSpellings.map { $0.lowercased() }

    /// On macOS a domain's file is `~/Library/Preferences/<domain>.plist`, and scripts
    /// name domains by that path as often as by name. Such a path (or one in its ByHost
    /// folder) is the domain here too, in the config folder; deeper paths stay files.
    private static func preferencesDomain(_ file: String, home: String) throws(StoreError) -> DomainName? {
        let folder = Path.join(home, "Library/Preferences") + "/"
        guard file.hasPrefix(folder) else { return nil }
        let relative = String(file.dropFirst(folder.utf8.count).dropLast(".plist".utf8.count))
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1:
            if isGlobal(parts[0]) { return .global }
            try validate(parts[0], what: "domain name")
            return .named(parts[0])
        case 2 where parts[0] == "ByHost":
            try validate(parts[1], what: "domain name")
            return .byHostFile(parts[1])
        default:
            return nil
        }
    }

    /// The longest domain name: its file name, with `.plist`, fits the 255 bytes a
    /// Linux file name may have. Every name that can be read can be written: the
    /// temporary file's name does not grow with it.
    static let maximumNameLength = 255 - ".plist".utf8.count

    /// Whether a name starts, in any case and after blanks, as the desktop's domains do
    /// (`gsettings:`, `dconf:`): never a plist domain's name, so neither can be taken for
    /// the other, nor a stray file so named be listed as a domain.
    /// Compared as bytes, ASCII letters in any case, with no string made: every name of
    /// the config folder's listing is asked.
    package static func hasDesktopPrefix(_ name: String) -> Bool {
        let start = name.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        func starts(with prefix: [UInt8]) -> Bool {
            start.count >= prefix.count
                && zip(start, prefix).allSatisfy { byte, wanted in
                    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
                }
        }
        return starts(with: desktopPrefixes.schema) || starts(with: desktopPrefixes.folder)
    }

    private static let desktopPrefixes = (schema: Array("gsettings:".utf8), folder: Array("dconf:".utf8))

    /// Why a name with a desktop prefix is no domain's, as every refusal of one says it.
    package static let desktopPrefixRefusal =
        "a domain name may not start with gsettings: or dconf:, which name the desktop's settings"

    /// A domain or host name must stay one file name inside the config folder, and
    /// may not look like an option.
    static func validate(_ name: String, what: String) throws(StoreError) {
        let reason: String? =
            if name.isEmpty { "empty \(what)" } else if name == "." || name == ".." {
                "\(what) '\(name)' names a folder"
            } else if name.utf8.contains(UInt8(ascii: "/")) {
                "\(what) may not contain '/'"
            } else if name.hasPrefix(".") { "\(what) may not start with '.'" } else if name.hasPrefix("-") {
                "\(what) may not start with '-'"
            } else if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                "\(what) may not contain control characters"
            } else if what == "domain name", hasDesktopPrefix(name) {
                desktopPrefixRefusal
            } else if name.utf8.count > maximumNameLength {
                "\(what) is \(name.utf8.count) bytes long; at most \(maximumNameLength) fit in a file name with .plist"
            } else { nil }
        if let reason { throw StoreError.invalidDomain(name, reason) }
    }

    /// A command-line domain word: as `init`, except that a word with a `/` that starts
    /// with neither `/` nor `~` (`./App/Info.plist`, `App/Info`, `../x.plist`) is a file
    /// relative to the current folder, as every other command-line tool reads such a
    /// word. Only the command line reads words so: a name given to the library (a
    /// SettingsKit domain) never leaves the config folder.
    /// `environment`'s `$HOME` is where `~` points; it is read only for a path.
    package init(commandLine argument: String, environment: Environment = .process) throws(StoreError) {
        let home = argument.hasPrefix("~") || argument.utf8.contains(UInt8(ascii: "/")) ? environment.home : nil
        guard !argument.hasPrefix("/"), !argument.hasPrefix("~"), argument.utf8.contains(UInt8(ascii: "/")) else {
            try self.init(argument, home: home)
            return
        }
        var relative = Substring(argument)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2).drop { $0 == "/" } }
        try self.init(Path.join(FileSystem.currentDirectory(), String(relative)), home: home)
    }

    /// How `read` with no domain and messages name it.
    public var displayName: String {
        switch self {
        case .global: "NSGlobalDomain"
        case .named(let name), .byHostFile(let name): name
        case .path(let path): path
        }
    }
}

extension DomainName: CustomStringConvertible {
    /// The name, as `displayName`: `print(settings.domain)` prints `com.example.player`.
    public var description: String { displayName }
}

/// Which host's preferences: the usual any-host file, or a ByHost file.
public enum DomainHost: Sendable, Equatable {
    case any
    /// `-currentHost`: Foundation on Linux names this host with an empty identifier,
    /// so its files are `ByHost/<domain>..plist`, and apps read them.
    case current
    case named(String)

    /// The `-host` argument, checked like a domain name.
    package static func named(validating name: String) throws(StoreError) -> DomainHost {
        try DomainName.validate(name, what: "host name")
        return .named(name)
    }

    var identifier: String? {
        switch self {
        case .any: nil
        case .current: ""
        case .named(let name): name
        }
    }
}
