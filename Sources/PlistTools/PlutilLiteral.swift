import PlistModel

/// `-convert swift` and `-convert objc`: a value as a constant of source code, named for
/// the file it came from, as Apple's plutil writes one. Strings escape every `\` and `"`
/// (Apple's escapes only some, so a string ending in `\` makes source that does not
/// compile).
enum PlutilLiteral {
    static func swift(_ value: PlistValue, source: String) throws(PlutilError) -> String {
        var text = "/// Generated from \(lastComponent(source))\nlet \(variableName(source))"
        switch value {
        case .dict(let dict) where Set(dict.uniqueEntries.map { PlutilText.typeName($0.value) }).count > 1:
            text += " : [String : Any]"
        case .array(let items) where Set(items.map(PlutilText.typeName)).count > 1: text += " : [Any]"
        default: break
        }
        text += " = "
        try appendSwift(value, 0, &text)
        return text + "\n"
    }

    private static func appendSwift(_ value: PlistValue, _ depth: Int, _ text: inout String) throws(PlutilError) {
        switch value {
        case .bool(let b): text += b ? "true" : "false"
        case .int(let i): text += i.description
        case .float(let f): text += PlutilText.fixed(Double(f))
        case .double(let d): text += PlutilText.fixed(d)
        case .string(let s): text += "\"" + escaped(s).replacing("\n", with: "\\n") + "\""
        case .data(let bytes):
            let hex = Array("0123456789ABCDEF")
            text += "Data(bytes: [" + bytes.map { "0x\(hex[Int($0 >> 4)])\(hex[Int($0 & 15)])," }.joined() + "])"
        case .date(let date): text += "Date(timeIntervalSinceReferenceDate: \(date.secondsSince2001))"
        case .array, .dict:
            try appendCollection(value, depth, ("[", "]"), ("[", "]"), key: { "\"\($0)\" : " }, to: &text, appendSwift)
        }
    }

    /// The constant's definition; `output` (unless `-`) gets `#import "STEM.h"` first.
    static func objc(_ value: PlistValue, source: String, output: String) throws(PlutilError) -> String {
        var text = output == "-" ? "" : "#import \"\(stem(lastComponent(output))).h\"\n\n"
        text += try declaration(value, source: source, header: false) + " = "
        try appendObjC(value, 0, &text)
        return text + ";\n"
    }

    /// `-header`'s file: the constant declared `extern`.
    static func objcHeader(_ value: PlistValue, source: String) throws(PlutilError) -> String {
        "#import <Foundation/Foundation.h>\n\n" + (try declaration(value, source: source, header: true)) + ";\n"
    }

    private static func declaration(_ value: PlistValue, source: String, header: Bool) throws(PlutilError)
        -> String
    {
        let type: String
        switch value {
        case .bool, .int, .float, .double: type = "NSNumber"
        case .string: type = "NSString"
        case .array: type = "NSArray"
        case .dict: type = "NSDictionary"
        case .data, .date: throw .notForLiteral(swift: false)
        }
        return "/// Generated from \(lastComponent(source))\n__attribute__((visibility(\"hidden\")))\n"
            + (header ? "extern " : "") + "\(type) * const \(variableName(source))"
    }

    private static func appendObjC(_ value: PlistValue, _ depth: Int, _ text: inout String) throws(PlutilError) {
        switch value {
        case .bool(let b): text += b ? "@YES" : "@NO"
        case .int(let i): text += "@" + i.description
        case .float(let f): text += "@" + PlutilText.fixed(Double(f))
        case .double(let d): text += "@" + PlutilText.fixed(d)
        case .string(let s): text += "@\"" + escaped(s) + "\""
        case .data, .date: throw .notForLiteral(swift: false)
        case .array, .dict:
            try appendCollection(
                value, depth, ("@[", "]"), ("@{", "}"), key: { "@\"\(escaped($0))\" : " }, to: &text, appendObjC)
        }
    }

    /// An array's or a dictionary's literal (the latter's keys sorted as `-p` sorts them),
    /// an element a line, four spaces a level, each followed by a comma.
    private static func appendCollection(
        _ value: PlistValue, _ depth: Int, _ array: (String, String), _ dictionary: (String, String),
        key: (String) -> String, to text: inout String,
        _ element: (PlistValue, Int, inout String) throws(PlutilError) -> Void
    ) throws(PlutilError) {
        var items: [(String, PlistValue)] = []
        let (open, close): (String, String)
        switch value {
        case .dict(let dict):
            (open, close) = dictionary
            items = PlutilText.sortedEntries(dict).map { (indentation(depth + 1) + key($0.key), $0.value) }
        case .array(let values):
            (open, close) = array
            items = values.map { (indentation(depth + 1), $0) }
        default: return
        }
        text += open + "\n"
        for (lead, item) in items {
            text += lead
            try element(item, depth + 1, &text)
            text += ",\n"
        }
        text += indentation(depth) + close
    }

    private static func escaped(_ s: String) -> String {
        s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    private static func indentation(_ depth: Int) -> String { String(repeating: " ", count: 4 * depth) }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A file name without its extension: `Info.plist` is `Info`.
    static func stem(_ name: String) -> String {
        guard name != ".", name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The file's stem as a name: `-` and spaces become `_`, symbols and control
    /// characters go.
    static func variableName(_ source: String) -> String {
        var name = ""
        for scalar in stem(lastComponent(source)).unicodeScalars {
            switch scalar {
            case "-", " ": name += "_"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            case "$", "+", "<", "=", ">", "^", "`", "|", "~": continue
            default: name.unicodeScalars.append(scalar)
            }
        }
        return name
    }
}
