/// What `plutil` says when a command cannot be done, in Apple's plutil's words: scripts
/// match them. Each is printed after the file's name (`Info.plist: Value already exists
/// at key path CFBundleName`), or alone for a command line it cannot run.
package enum PlutilError: Error, Equatable {
    // The command line.
    case noFiles
    case unrecognizedOption(String)
    case missingArgument(String)
    case missingFormat
    case unknownFormat(String)
    case headerNeedsObjC
    case removeNeedsKeyPath
    case extractNeedsKeyPathAndFormat
    case expectNeedsType
    case unknownExpectType(String)
    case createNeedsFormat
    case insertNeedsArguments
    case unknownInsertType(String)
    case optionNotUsed(String, with: String)
    // A value given on the command line.
    case invalidBase64
    case invalidDate(String)
    case unparsableXML(String)
    case unparsableJSON(String)
    // A key path.
    case keyPathNotFound(String)
    case valueExists(String)
    case appendingToNonArray(String)
    case notAnIndex(String)
    case indexOutOfBounds(Int, String)
    case cannotInsert(String)
    case nothingToRemove(String)
    case removedEverything(String)
    case noValueAt(String)
    case unexpectedType(keyPath: String, expected: String, actual: String)
    // Reading and writing a file.
    case unreadable(String)
    case invalidPropertyList(plist: String, json: String)
    /// `datesOrData`: the refusal a lossless JSON export does better.
    case notForJSON(datesOrData: Bool)
    case notForLiteral(swift: Bool)
    case notForRaw(keyPath: String, type: String)
    case cannotCreateOpenStep
    case cannotWriteOpenStep
    case notForXML(String)
    case emptyPath
    case writeFailed(String)

    package var message: String {
        switch self {
        case .noFiles: "No files specified."
        case .unrecognizedOption(let option): "unrecognized option: \(option)"
        case .missingArgument(let option): "Missing argument for \(option)."
        case .missingFormat: "Missing format specifier for command."
        case .unknownFormat(let format): "Unknown format specifier: \(format)"
        case .headerNeedsObjC: "-header is only valid for objc literal conversions."
        case .removeNeedsKeyPath: "'Remove' requires a key path."
        case .extractNeedsKeyPathAndFormat: "'Extract' requires a key path and a plist format."
        case .expectNeedsType: "-expect requires a type argument."
        case .unknownExpectType(let type): "-expect type [\(type)] not valid."
        case .createNeedsFormat: "'Create' requires a plist format."
        case .insertNeedsArguments: "'Insert' and 'Replace' require a key path, a type, and a value."
        case .unknownInsertType(let type): "Unknown insert or replace type \(type)"
        case .optionNotUsed(let option, let command): "\(option) is not used with \(command)."
        case .invalidBase64: "Invalid base64 data in argument"
        case .invalidDate(let text): "Invalid date in argument: \(text) (a date is written 2024-01-02T03:04:05Z)"
        case .unparsableXML(let why): "Unable to parse xml property list: \(why)"
        case .unparsableJSON(let why): "Unable to parse JSON: \(why)"
        case .keyPathNotFound(let path): "Key path not found \(path)"
        case .valueExists(let path): "Value already exists at key path \(path)"
        case .appendingToNonArray(let path): "Appending to a non-array at key path \(path)"
        case .notAnIndex(let path): "Unable to index into array with key path \(path)"
        case .indexOutOfBounds(let i, let path): "Index \(i) out of bounds in array at key path \(path)"
        case .cannotInsert(let path): "Unable to insert value at key path \(path)"
        case .nothingToRemove(let path): "No value to remove at key path \(path)"
        case .removedEverything(let path): "Removing value resulted in an empty property list at \(path)"
        case .noValueAt(let path):
            "Could not extract value, error: No value at that key path or invalid key path: \(path)"
        case .unexpectedType(let path, let expected, let actual):
            // Apple's message names a bool "boolean" (its type's case), where -type says "bool".
            "Value at [\(path)] expected to be \(expected == "bool" ? "boolean" : expected) but is \(actual == "bool" ? "boolean" : actual)"
        case .unreadable(let why): "(\(why))"
        case .invalidPropertyList(let plist, let json): "Property List error: \(plist) / JSON error: \(json)"
        case .notForJSON: "Invalid object in plist for JSON format"
        case .notForLiteral(let swift):
            "Input contains an object that cannot be represented in \(swift ? "Swift" : "Obj-C") literal syntax"
        case .notForRaw(let path, let type):
            "Value at \(path) is a \(type) type and cannot be extracted in raw format"
        case .cannotCreateOpenStep: "Cannot create open step property lists"
        case .cannotWriteOpenStep: "Conversion to OpenStep format is not supported"
        case .notForXML(let why): "Invalid object in plist for XML format: \(why) (binary1 keeps it)"
        case .emptyPath: "Empty path specified"
        case .writeFailed(let why): why
        }
    }
}
