/// The three property-list encodings.
public enum PlistFormat: Sendable, Equatable {
    case xml, binary, openStep

    /// The format's name in messages: `XML`, `binary`, `OpenStep`.
    public var name: String {
        switch self {
        case .xml: "XML"
        case .binary: "binary"
        case .openStep: "OpenStep"
        }
    }
}
