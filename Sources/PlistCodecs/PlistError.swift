import PlistModel

/// Why bytes are not a property list: a code that says what is wrong, beside where
/// (text formats the line, binary the byte offset). The message is derived from both,
/// so a test asserts the code and a user reads the message.
public enum PlistError: Error, Sendable, Equatable {
    /// XML text that breaks a rule of the plist DTD or of XML.
    case xml(XMLCode, line: Int)
    /// OpenStep text that breaks its grammar.
    case openStep(OpenStepCode, line: Int)
    /// A binary plist whose sizes, offsets or references do not fit.
    case binary(BinaryCode, offset: Int)
    /// Nested deeper than the reader allows.
    case tooDeep(PlistFormat, limit: Int, line: Int)
    /// A DTD with declarations: refused so no entity is ever expanded or fetched.
    case entityDeclaration(line: Int)
    /// Text that is not valid UTF-8 (or UTF-16).
    case invalidEncoding(PlistFormat, line: Int)
    /// The bytes start like none of the three formats.
    case unknownFormat
    /// A format this build cannot read or write.
    case unsupported(PlistFormat)

    /// One line for a user, without the file name (the caller adds it).
    public var message: String {
        switch self {
        case let .xml(code, line): "XML line \(line): \(code.message)"
        case let .openStep(code, line): "OpenStep line \(line): \(code.message)"
        case let .binary(code, offset): "binary plist at byte \(offset): \(code.message)"
        case let .tooDeep(format, limit, line): "\(format.name) line \(line): nested deeper than \(limit) levels"
        case let .entityDeclaration(line):
            "XML line \(line): DTD declarations are not allowed (no entities are expanded)"
        case let .invalidEncoding(format, line): "\(format.name) line \(line): invalid UTF-8 text"
        case .unknownFormat: "not a property list (neither XML, binary nor OpenStep)"
        case let .unsupported(format): "\(format.name) property lists are not supported yet"
        }
    }
}
