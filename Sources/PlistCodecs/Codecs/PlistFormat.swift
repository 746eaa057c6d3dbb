import PlistModel
/// The three property-list encodings.
public enum PlistFormat: Sendable, Equatable {
    case xml, binary, openStep

    public var name: String {
        switch self {
        case .xml: "XML"
        case .binary: "binary"
        case .openStep: "OpenStep"
        }
    }
}
