/// Why a desktop setting could not be read or written: one line a user can act on, and
/// the exit status the command line ends with.
package enum DesktopError: Error, Equatable, Sendable {
    /// A GVDB file or a value in it that does not hold together (wrapped with its file
    /// by `file(_:)`).
    case corrupt(String)
    case corruptFile(path: String, reason: String)
    /// No compiled schema file in any folder GLib looks in.
    case noSchemas(searched: [String])
    case noSuchSchema(String)
    case noSuchKey(schema: String, key: String)
    /// A relocatable schema named without its path, or a path where none is taken.
    case needsPath(String)
    case pathNotTaken(String)
    case badPath(String)
    /// A dconf key name dconf's own dump and load could not carry.
    case badKey(String)
    /// A desktop domain's name that is not one, and why.
    case badName(String, String)
    /// Nothing to write through: no D-Bus session, one that cannot be reached, or no dconf
    /// service on it.
    case noDesktop(String)
    /// A value the key's type, range or choices refuse.
    case refused(key: String, reason: String)
    /// A key the administrator locked (a dconf lock).
    case locked(String)
    /// dconf's own refusal or failure, in its words.
    case writerFailed(String)
    /// The change was sent and dconf's service did not answer (it stalled, or the bus
    /// failed): it may still be made, or not.
    case noAnswer(String)
    /// dconf's service said it stored the key at this path, and the user's database does
    /// not hold it (a service that writes elsewhere).
    case notStored(String)

    package var message: String {
        switch self {
        case .corrupt(let reason): "corrupt GVDB data: \(reason)"
        case .corruptFile(let path, let reason): "\(path) is corrupt: \(reason)"
        case .noSchemas(let folders):
            "no GSettings schemas are installed (no usable gschemas.compiled in \(folders.joined(separator: ", ")))"
        case .noSuchSchema(let id): "no GSettings schema named \(id) is installed"
        case .noSuchKey(let schema, let key): "the schema \(schema) has no key \(key)"
        case .needsPath(let id): "\(id) is relocatable: name it with its path, as gsettings:\(id):/path/to/it/"
        case .pathNotTaken(let id): "\(id) has its own path; name it without one"
        case .badPath(let path):
            "\(path) is not a dconf folder: it starts and ends with /, with no // and no =, [, ] or control character"
        case .badName(let name, let reason): "\(name) is not a desktop domain: \(reason)"
        case .badKey(let key):
            "\(key) is not a dconf key name: not empty, no / first or last and no //, and no =, [, ], "
                + "control character or space first or last, which dconf dump and load could not carry"
        case .noDesktop(let reason): "no desktop settings here: \(reason)"
        case .refused(let key, let reason): "\(key): \(reason)"
        case .locked(let key): "\(key) is locked by the administrator (a dconf lock)"
        case .writerFailed(let reason): "dconf refused the change: \(reason)"
        case .noAnswer(let reason):
            "dconf's service did not answer the change (\(reason)): it may still be made; read the keys to see"
        case .notStored(let path):
            "dconf's service said it stored \(path), but the user's database does not hold it: "
                + "is the bus's dconf service this user's?"
        }
    }

    /// 1: not found; 2: a usage or value error; 3: nothing to read or write through;
    /// 4: the write failed or was refused.
    package var status: Int32 {
        switch self {
        case .noSuchSchema, .noSuchKey: 1
        case .needsPath, .pathNotTaken, .badPath, .badKey, .badName, .refused: 2
        case .corrupt, .corruptFile, .noSchemas, .noDesktop: 3
        case .locked, .writerFailed, .noAnswer, .notStored: 4
        }
    }

    /// A `corrupt` reason, said of the file it came from.
    func file(_ path: String) -> DesktopError {
        if case .corrupt(let reason) = self { return .corruptFile(path: path, reason: reason) }
        return self
    }
}
