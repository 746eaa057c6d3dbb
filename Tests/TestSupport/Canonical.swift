import PlistModel
import PlistCodecs
import SettingsStore

/// A value in the canonical text form `Tests/Support/plist_canon.py` prints from
/// plistlib's reading, so the two readings compare as strings: every value with its
/// type, reals by bit pattern, text and data as hex, dictionaries sorted by key bytes.
public func canonical(_ value: PlistValue) -> String {
    func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
    func bits(_ d: Double) -> String {
        let h = String(d.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h
    }
    switch value {
    case .bool(let b): return "b:\(b ? 1 : 0)"
    case .int(let i): return "i:\(i)"
    case .float(let f): return "r:" + bits(Double(f))
    case .double(let d): return "r:" + bits(d)
    case .string(let s): return "s:" + hex(s.utf8)
    case .data(let d): return "d:" + hex(d)
    case .date(let d): return "t:\(Int64((d.secondsSince2001 * 1_000_000).rounded()))"
    case .array(let a): return "a[" + a.map(canonical).joined(separator: ",") + "]"
    case .dict(let d):
        return "{" + d.sortedEntries.map { hex($0.key.utf8) + "=" + canonical($0.value) }.joined(separator: ",") + "}"
    }
}
