/// The nine kinds of value, one per case of `PlistValue`.
public enum ValueType: Sendable, CaseIterable {
    case bool, int, float, double, string, data, date, array, dict
}

extension PlistValue {
    /// The row of the type table this value belongs to.
    public var type: ValueType {
        switch self {
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .array: .array
        case .dict: .dict
        }
    }
}
