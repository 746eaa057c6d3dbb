import PlistModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The environment variables a caller reads: the process's own (`getenv`), or a table
/// given in process, as the test suite runs the command line without a new process.
/// Everything in the store that depends on a variable (`XDG_CONFIG_HOME`, `HOME`,
/// `XDG_DATA_DIRS`, the lock and retry seconds) reads it through one of these.
public struct Environment: Sendable {
    private let variables: [String: String]?

    /// The process's environment, read when asked (`getenv`).
    public static let process = Environment(variables: nil)

    private init(variables: [String: String]?) { self.variables = variables }

    /// Exactly `variables`: anything not in it is unset.
    public init(_ variables: [String: String]) { self.variables = variables }

    /// The table given in process; nil for the process's own environment (a program run
    /// from here gets whichever this is).
    package var table: [String: String]? { variables }

    /// The variable's value; nil when it is unset.
    public subscript(_ name: String) -> String? {
        guard let variables else { return FileSystem.environment(name) }
        return variables[name]
    }

    /// `$HOME`, or when it is unset or empty the home folder `/etc/passwd` gives this user.
    public var home: String {
        if let home = self["HOME"], !home.isEmpty { return home }
        return FileSystem.passwdHomeDirectory()
    }
}

extension Environment {
    /// This environment with `changes` made (nil unsets a variable): what a program run
    /// from here gets, for a caller that must set or clear a few of its variables (a sync
    /// clears `GIT_DIR`, which a hook would otherwise point at the user's own repository).
    package func with(_ changes: [String: String?]) -> Environment {
        var all = variables ?? FileSystem.environmentTable()
        for (name, value) in changes { all[name] = value }
        return Environment(all)
    }
}

extension FileSystem {
    /// The process's whole environment (`environ`), as a table.
    static func environmentTable() -> [String: String] {
        var table: [String: String] = [:]
        var at = environ
        while let entry = at.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                table[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            at += 1
        }
        return table
    }
}
