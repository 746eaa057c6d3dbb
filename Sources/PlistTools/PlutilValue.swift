import PlistCodecs
import PlistModel

/// The value `-insert` and `-replace` put, from `-TYPE VALUE` as Apple's plutil reads
/// them: `-bool` is true for `YES` or `true` in any case and false for anything else,
/// `-integer` and `-float` take the number at the start of the text (0 when there is
/// none), `-data` is base64 with anything outside its alphabet skipped.
package enum PlutilValue {
    /// The value, and how many words it took (the type, and its text unless it is
    /// `-dictionary` or `-array`).
    package static func parse(_ words: ArraySlice<String>) throws(PlutilError) -> (PlistValue, Int) {
        guard let type = words.first else { throw .insertNeedsArguments }
        switch type {
        case "-dictionary": return (.dict([:]), 1)
        case "-array": return (.array([]), 1)
        case "-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json": break
        default: throw .unknownInsertType(type)
        }
        guard words.count > 1 else { throw .insertNeedsArguments }
        let text = words[words.startIndex + 1]
        return (try value(type, text), 2)
    }

    private static func value(_ type: String, _ text: String) throws(PlutilError) -> PlistValue {
        switch type {
        case "-bool": return .bool(["true", "yes"].contains(text.lowercased()))
        case "-integer": return .int(PlistInteger(Int64(integerPrefix(text))))
        case "-float": return .double(doublePrefix(text))
        case "-string": return .string(text)
        case "-date":
            guard let date = XMLDate.parse(text.utf8) else { throw .invalidDate(text) }
            return .date(date)
        case "-data":
            let table = Base64.decodeTable
            let kept = text.utf8.filter { table[Int($0)] != 255 || $0 == UInt8(ascii: "=") }
            guard let bytes = Base64.decode(kept) else { throw .invalidBase64 }
            return .data(bytes)
        case "-xml":
            do { return try PropertyList.read(Array(text.utf8)).0 } catch { throw .unparsableXML(error.message) }
        default:
            do { return try JSONReader.read(Array(text.utf8), tags: false) } catch {
                throw .unparsableJSON(error.message)
            }
        }
    }

    /// `NSString.integerValue`: spaces, a sign, digits; clamped to 64 bits.
    static func integerPrefix(_ text: String) -> Int {
        var bytes = Array(text.utf8)[...]
        while let b = bytes.first, b == 0x20 || (0x09...0x0D).contains(b) { bytes.removeFirst() }
        var negative = false
        if let b = bytes.first, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
            negative = b == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        var value = 0
        for b in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { break }
            let digit = Int(b - UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if o1 || o2 { return negative ? .min : .max }
            value = next
        }
        return value
    }

    /// `NSString.doubleValue`: the longest decimal number at the start, after spaces.
    static func doublePrefix(_ text: String) -> Double {
        let bytes = Array(text.utf8.drop { $0 == 0x20 || (0x09...0x0D).contains($0) })
        var end = bytes.count
        while end > 0 {
            if let value = Double(String(decoding: bytes[..<end], as: UTF8.self)), isDecimalText(bytes[..<end]) {
                return value
            }
            end -= 1
        }
        return 0
    }

    /// Digits, a sign, a point and an exponent only: `Double("nan")` or hex are not numbers here.
    private static func isDecimalText(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { b in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        }
    }
}
