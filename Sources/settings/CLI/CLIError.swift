import SettingsCore

/// Everything that can go wrong on the command line, one case per message.
enum CLIError: Error, Equatable {
    /// Bad usage; nil prints the usage text alone.
    case usage(String?)
    case unexpectedArgument(String)
    /// A value flag's text that does not parse: flag, text, what was expected.
    case badValue(flag: String, text: String, expected: String)
    case missingValue(flag: String)
    case unknownFlag(String)
    case nestedCollection(String)
    case couldNotParse(String)
    case domainMissing(String)
    case pairMissing(domain: String, key: String)
    case deleteMissing(domain: String)
    case renameMissing(domain: String, key: String)
    case notAnArray(key: String)
    case notADictionary(key: String)
    case store(StoreError)
}

/// The one place an error becomes its message and exit status (SPEC §6).
struct Diagnostic {
    let message: String
    let status: Int32

    init(_ error: any Error) {
        switch error {
        case let error as CLIError: (message, status) = Self.describe(error)
        case let error as StoreError: (message, status) = Self.describe(.store(error))
        default: (message, status) = ("\(error)", 1)
        }
    }

    private static func describe(_ error: CLIError) -> (String, Int32) {
        switch error {
        case .usage(let detail):
            return ((detail.map { $0 + "\n" } ?? "") + "Run 'help' for usage.", 2)
        case .unexpectedArgument(let word):
            return ("Unexpected argument \(word); leaving defaults unchanged.", 2)
        case let .badValue(flag, text, expected):
            return ("invalid value '\(text)' for \(flag): expected \(expected); leaving defaults unchanged.", 2)
        case .missingValue(let flag):
            return ("\(flag) needs a value; leaving defaults unchanged.", 2)
        case .unknownFlag(let flag):
            return ("unknown type flag \(flag) (use -string to store text that starts with '-'); leaving defaults unchanged.", 2)
        case .nestedCollection(let flag):
            return ("\(flag) cannot be nested; write the inner collection as a literal such as '(a, b)' or '{k = v;}'", 2)
        case .couldNotParse(let text):
            return ("Could not parse: \(text).  Try single-quoting it.", 2)
        case .domainMissing(let domain):
            return ("Domain \(domain) does not exist", 1)
        case let .pairMissing(domain, key):
            return ("The domain/default pair of (\(domain), \(key)) does not exist", 1)
        case .deleteMissing(let domain):
            return ("Domain (\(domain)) not found.\nDefaults have not been changed.", 1)
        case let .renameMissing(domain, key):
            return ("Key \(key) does not exist in domain \(domain); leaving defaults unchanged", 1)
        case .notAnArray(let key):
            return ("Value for key \(key) is not an array; cannot append.  Leaving defaults unchanged.", 1)
        case .notADictionary(let key):
            return ("Value for key \(key) is not a dictionary; cannot append.  Leaving defaults unchanged.", 1)
        case .store(let error):
            let status: Int32 =
                switch error {
                case .invalidDomain: 2
                case .unreadable, .corrupt, .notADictionary: 3
                case .lockTimeout, .writeFailed: 4
                }
            return (error.message, status)
        }
    }
}
