import PlistModel
import TestSupport

/// Random property lists for the differential tests, which hold each straight path (XML
/// to binary, binary to XML, a store's whole-domain text) to the values' way byte for
/// byte: every scalar type and width, few distinct scalars (so most are shared), keys and
/// strings that are empty, non-ASCII, escaped or long, and nesting.
struct RandomPlist {
    var rng: SplitMix

    static let strings = [
        "", "a", "b", "é", "😀", "a&b", "<x>", "]]>", "count", "name", "k1", "tab\there", "значение",
        String(repeating: "z", count: 20),
    ]

    /// The keys dictionaries draw from: all the strings, or only the ASCII ones (a binary
    /// file with another key is written as XML from its values).
    var keys = Self.strings

    init(rng: SplitMix, asciiKeys: Bool = false) {
        self.rng = rng
        if asciiKeys { keys = Self.strings.filter { $0.utf8.allSatisfy { $0 < 0x80 } } }
    }

    mutating func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }

    mutating func scalar() -> PlistValue {
        switch int(9) {
        case 0: .bool(int(2) == 0)
        case 1: .int([0, 1, -1, 255, 256, 65_535, 65_536, (1 << 32) - 1, 1 << 32, Int64.max, Int64.min][int(11)])
        case 2: .int(PlistInteger(unsigned: [UInt64.max, 1 << 63][int(2)]))
        case 3: .double([0, -0.0, 1, 0.5, 1 / 3, .infinity, -.infinity, 1e-300, 6.02e23][int(9)])
        case 4: .float([0.1, 1.5, -2][int(3)])
        case 5: .date(PlistDate(secondsSince2001: [0, 1, -1e9, 6e8][int(4)]))
        case 6: .data([[], [1], [0, 1, 2, 3], Array(repeating: 9, count: 40), Array(0...255)][int(5)])
        default: .string(Self.strings[int(Self.strings.count)])
        }
    }

    mutating func value(_ depth: Int) -> PlistValue {
        switch depth < 5 ? int(10) : 0 {
        case 0..<6: return scalar()
        case 6, 7: return .array((0..<int(5)).map { _ in value(depth + 1) })
        default:
            var dict = PlistDictionary()
            for _ in 0..<int(5) { dict[keys[int(keys.count)]] = value(depth + 1) }
            return .dict(dict)
        }
    }

    /// A root of `count` entries (about), keys shared with the values now and then.
    mutating func root(_ count: Int) -> PlistDictionary {
        var root = PlistDictionary()
        for i in 0..<count { root[i % 3 == 0 ? keys[int(keys.count)] : "k\(i)"] = value(1) }
        return root
    }
}
