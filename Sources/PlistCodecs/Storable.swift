import PlistModel
/// Why a value cannot go into a domain file: the file would be written, and then our
/// readers, plistlib or Foundation would refuse all of it.
public enum Unstorable: Sendable, Equatable {
    /// Text with a C0 control character XML cannot hold (only XML files).
    case controlCharacter(UInt8)
    /// Collections nested deeper than every reader's limit.
    case tooDeep(limit: Int)
    /// A date outside 0000-12-30 (Foundation's `distantPast`) to 9999-12-31, which no
    /// calendar-based reader can represent.
    case dateOutOfRange(PlistDate)
}

extension PropertyList {
    /// The first reason the entry `key` = `value`, at the root of a `format` file, could
    /// not be read back; nil when it can. The walk keeps its own stack, so a value of any
    /// depth (SettingsKit can build one) is checked without recursion.
    package static func unstorable(key: String, value: PlistValue, format: PlistFormat) -> Unstorable? {
        let xml = format != .binary
        if xml, let c = XMLWriter.unwritableCharacter(inText: key) { return .controlCharacter(c) }
        // A scalar, nearly every entry, is checked without a stack: building one per entry
        // was a sixth of exporting a big domain.
        switch value {
        case .string(let s):
            return xml ? XMLWriter.unwritableCharacter(inText: s).map(Unstorable.controlCharacter) : nil
        case .date(let d): return PlistDate.representable.contains(d.secondsSince2001) ? nil : .dateOutOfRange(d)
        case .array, .dict: break
        default: return nil
        }
        // The root dictionary is level 1, as the readers count.
        var pending: [(PlistValue, Int)] = [(value, 2)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .string(let s):
                if xml, let c = XMLWriter.unwritableCharacter(inText: s) { return .controlCharacter(c) }
            case .date(let d):
                if !PlistDate.representable.contains(d.secondsSince2001) { return .dateOutOfRange(d) }
            case .array(let items):
                guard level <= maximumNestingDepth else { return .tooDeep(limit: maximumNestingDepth) }
                for item in items.reversed() { pending.append((item, level + 1)) }
            case .dict(let dict):
                guard level <= maximumNestingDepth else { return .tooDeep(limit: maximumNestingDepth) }
                for entry in dict.entries.reversed() {
                    if xml, let c = XMLWriter.unwritableCharacter(inText: entry.key) { return .controlCharacter(c) }
                    pending.append((entry.value, level + 1))
                }
            default: break
            }
        }
        return nil
    }
}

extension PropertyList {
    /// Whether `value` holds a date with a fraction of a second: an XML file keeps whole
    /// seconds (as Foundation and plistlib read XML dates), so only a binary one keeps it.
    package static func hasFractionalDate(_ value: PlistValue) -> Bool {
        func fractional(_ d: PlistDate) -> Bool { d.secondsSince2001.rounded(.down) != d.secondsSince2001 }
        // A scalar, nearly every value, without a stack: an array made for each cost 7%
        // of importing a big domain.
        switch value {
        case .date(let d): return fractional(d)
        case .array, .dict: break
        default: return false
        }
        var pending = [value]
        while let value = pending.popLast() {
            switch value {
            case .date(let d): if fractional(d) { return true }
            case .array(let items): pending += items
            case .dict(let dict): pending += dict.entries.map(\.value)
            default: break
            }
        }
        return false
    }
}
