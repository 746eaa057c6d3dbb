import PlistCodecs
import PlistModel

/// What `plutil` writes a value as: `-convert`'s and `-extract`'s formats.
package enum PlutilFormat: String, Sendable, CaseIterable {
    case xml1, binary1, json, swift, objc, raw

    /// A format word of `-convert` (`raw` is `-extract`'s only).
    package init(_ word: String) throws(PlutilError) {
        guard let format = PlutilFormat(rawValue: word) else { throw .unknownFormat(word) }
        self = format
    }

    /// The format a file read in `format` is written back in.
    package init(keeping format: PlistFormat) { self = format == .binary ? .binary1 : .xml1 }
}

package enum PlutilOutput {
    /// `value` written as `format`. `readable` is `-r` (JSON indented, keys sorted);
    /// `source` is the file read and `output` the one written (`-`: standard output),
    /// which name the variable of Swift and Objective-C literals; `keyPath` names the value
    /// in `raw`'s refusal.
    package static func encode(
        _ value: PlistValue, as format: PlutilFormat, readable: Bool = false, source: String = "-",
        output: String = "-", keyPath: String? = nil
    ) throws(PlutilError) -> [UInt8] {
        switch format {
        case .xml1:
            // Text XML cannot hold (a control character) is refused, not written unreadable.
            if case .controlCharacter(let c)? = PropertyList.unstorable(key: "", value: value, format: .xml) {
                throw .notForXML("a control character, U+" + String(c, radix: 16, uppercase: true).leftPadded(4))
            }
            return XMLWriter.encode(value)
        case .binary1: return BinaryWriter.encode(value)
        case .json:
            // Foundation writes only an object or an array at the top.
            switch value {
            case .dict, .array: break
            default: throw .notForJSON(datesOrData: false)
            }
            var out: [UInt8] = []
            try appendJSON(value, readable ? 0 : nil, to: &out)
            return out
        case .raw: return Array(PlutilText.raw(value).utf8)
        case .swift: return try Array(PlutilLiteral.swift(value, source: source).utf8)
        case .objc: return try Array(PlutilLiteral.objc(value, source: source, output: output).utf8)
        }
    }

    /// `-convert objc -header`'s header for the constant `encode` defines.
    package static func objcHeader(_ value: PlistValue, source: String) throws(PlutilError) -> String {
        try PlutilLiteral.objcHeader(value, source: source)
    }

    /// `-create`'s empty document: an empty dictionary in `format` (source code naming
    /// standard input, `-`, as Apple's does; a newline for `raw`).
    package static func empty(_ format: PlutilFormat, readable: Bool) throws(PlutilError) -> [UInt8] {
        switch format {
        case .swift: return Array("/// Generated from -\nlet - = [\n    ]".utf8)
        case .objc:
            return Array(
                "/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};".utf8)
        case .raw: return [UInt8(ascii: "\n")]
        default: return try encode(.dict([:]), as: format, readable: readable)
        }
    }

    /// JSON as Foundation's `JSONSerialization` writes it: compact, or (`level` not nil)
    /// two spaces a level, `"key" : value`, keys sorted as `-p` sorts them; `/` escaped;
    /// integers as they are, reals in their shortest digits (`1`, not `1.0`). Dates and
    /// data have no JSON form and are refused, as are reals that are not finite.
    static func appendJSON(_ value: PlistValue, _ level: Int?, to out: inout [UInt8]) throws(PlutilError) {
        switch value {
        case .dict(let dict):
            var entries = dict.uniqueEntries
            if level != nil { entries = PlutilText.sortedEntries(dict) }
            try appendContainer("{", "}", entries.count, level, &out) { i, out throws(PlutilError) in
                appendString(entries[i].key, &out)
                out.append(contentsOf: (level == nil ? ":" : " : ").utf8)
                try appendJSON(entries[i].value, level.map { $0 + 1 }, to: &out)
            }
        case .array(let items):
            try appendContainer("[", "]", items.count, level, &out) { i, out throws(PlutilError) in
                try appendJSON(items[i], level.map { $0 + 1 }, to: &out)
            }
        case .string(let s): appendString(s, &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: i.description.utf8)
        case .float(let f): try appendReal(Double(f), &out)
        case .double(let d): try appendReal(d, &out)
        case .date, .data: throw .notForJSON(datesOrData: true)
        }
    }

    private static func appendContainer(
        _ open: String, _ close: String, _ count: Int, _ level: Int?, _ out: inout [UInt8],
        _ element: (Int, inout [UInt8]) throws(PlutilError) -> Void
    ) throws(PlutilError) {
        out.append(contentsOf: open.utf8)
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if let level { out.append(contentsOf: ("\n" + String(repeating: "  ", count: level + 1)).utf8) }
            try element(i, &out)
        }
        // Foundation leaves an empty line inside an empty container it indents.
        if let level {
            out.append(contentsOf: ((count > 0 ? "\n" : "\n\n") + String(repeating: "  ", count: level)).utf8)
        }
        out.append(contentsOf: close.utf8)
    }

    private static func appendReal(_ d: Double, _ out: inout [UInt8]) throws(PlutilError) {
        guard d.isFinite else { throw .notForJSON(datesOrData: false) }
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    private static func appendString(_ s: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "/"): out.append(contentsOf: #"\/"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// A file as `plutil` reads one: a property list in any of the three formats, or else
/// JSON (plain: `{"$date": …}` is a dictionary).
package enum PlutilDocument {
    /// The root, and the format a change writes it back in (nil: OpenStep, which
    /// nothing writes).
    package static func read(_ bytes: [UInt8]) throws(PlutilError) -> (PlistValue, PlutilFormat?) {
        guard !bytes.isEmpty else { throw .unreadable("Cannot parse a NULL or zero-length data") }
        let plistError: PlistError
        do {
            let (root, format) = try PropertyList.read(bytes)
            return (root, format == .openStep ? nil : PlutilFormat(keeping: format))
        } catch {
            plistError = error
        }
        do { return (try JSONReader.read(bytes, tags: false), .json) } catch {
            throw .invalidPropertyList(plist: plistError.message, json: error.message)
        }
    }

    /// What `-lint` checks: the three property-list formats only, never JSON, as Apple's
    /// plutil has always linted.
    package static func lint(_ bytes: [UInt8]) throws(PlutilError) {
        guard !bytes.isEmpty else { throw .unreadable("Cannot parse a NULL or zero-length data") }
        do { _ = try PropertyList.read(bytes) } catch { throw .unreadable(error.message) }
    }
}
