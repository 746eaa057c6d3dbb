/// A place inside a domain, as an RFC 6901 JSON Pointer names it: `/window/frame/0`.
///
/// Never guessed: in a dictionary a segment is always a key (`0` and `-` included), in
/// an array it must be a canonical index (`0`, `12`, not `012`) or `-`, the place after
/// the last element. The empty pointer is the whole domain.
///
///     try PlistKeyPath(pointer: "/a~1b/0").segments   //=> ["a/b", "0"]
///     PlistKeyPath(["a.b", "~"]).pointer               //=> "/a.b/~0"
public struct PlistKeyPath: Sendable, Equatable {
    /// The keys and array indices from the root, unescaped: `/a~1b/0` is `["a/b", "0"]`.
    public var segments: [String]

    /// A path of these segments.
    ///
    ///     PlistKeyPath(["window", "frame"]).pointer   //=> "/window/frame"
    public init(_ segments: [String]) { self.segments = segments }

    /// The same segments, byte for byte: keys are bytes, so `/\u{E9}` and `/e\u{301}` are two
    /// places.
    public static func == (a: Self, b: Self) -> Bool {
        a.segments.count == b.segments.count && zip(a.segments, b.segments).allSatisfy { sameKey($0, $1) }
    }

    /// `~1` is `/`, `~0` is `~`; any other `~` and a first character other than `/` are
    /// errors.
    public init(pointer: String) throws(KeyPathError) {
        guard !pointer.isEmpty else { segments = []; return }
        guard pointer.utf8.first == UInt8(ascii: "/") else { throw .noLeadingSlash(pointer) }
        var segments: [String] = []
        var current: [UInt8] = []
        var bytes = Array(pointer.utf8).dropFirst()[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "/"):
                segments.append(String(decoding: current, as: UTF8.self))
                current = []
            case UInt8(ascii: "~"):
                switch bytes.popFirst() {
                case UInt8(ascii: "0"): current.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): current.append(UInt8(ascii: "/"))
                default: throw .badEscape(pointer)
                }
            default: current.append(byte)
            }
        }
        segments.append(String(decoding: current, as: UTF8.self))
        try Self.checkDepth(segments.count)
        self.segments = segments
    }

    /// The most segments a path may have: a deeper place would be nested past what
    /// every reader opens, so no file holds it and none may be made to.
    public static let maximumSegments = maximumNestingDepth

    package static func checkDepth(_ count: Int) throws(KeyPathError) {
        if count > maximumSegments { throw .tooDeep(count: count) }
    }

    /// The pointer text, escaped: the inverse of `init(pointer:)`.
    public var pointer: String {
        // A segment with nothing to escape is appended whole: built a scalar at a time, a
        // diff or an apply of a big domain spent a tenth of its time here.
        var out = ""
        for segment in segments {
            out.append("/")
            guard segment.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
                out.append(segment)
                continue
            }
            for c in segment.unicodeScalars {
                switch c {
                case "~": out += "~0"
                case "/": out += "~1"
                default: out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// The value this path names in `domain`, or nil when some segment names nothing.
    public func value(in domain: PlistDictionary) -> PlistValue? {
        value(inside: .dict(domain))
    }

    /// The value this path names below `root` (`root` itself for the empty path).
    public func value(inside root: PlistValue) -> PlistValue? {
        var value = root
        for segment in segments {
            guard let next = Self.step(value, segment) else { return nil }
            value = next
        }
        return value
    }

    /// The path of every value in `domain`, parents before children, keys in code-point
    /// order; with `leavesOnly`, just scalars and empty collections.
    public static func all(in domain: PlistDictionary, leavesOnly: Bool = false) -> [PlistKeyPath] {
        var paths: [PlistKeyPath] = []
        func visit(_ value: PlistValue, _ segments: [String]) {
            let children: [(String, PlistValue)]
            switch value {
            case .dict(let dict): children = dict.sortedEntries.map { ($0.key, $0.value) }
            case .array(let items): children = items.enumerated().map { (String($0.offset), $0.element) }
            default: children = []
            }
            if !segments.isEmpty, !leavesOnly || children.isEmpty { paths.append(PlistKeyPath(segments)) }
            for (segment, child) in children { visit(child, segments + [segment]) }
        }
        visit(.dict(domain), [])
        return paths
    }

    /// One segment down from `value`: a key of a dictionary, an index of an array.
    package static func step(_ value: PlistValue, _ segment: String) -> PlistValue? {
        switch value {
        case .dict(let dict): return dict[segment]
        case .array(let items): return index(segment).flatMap { $0 < items.count ? items[$0] : nil }
        default: return nil
        }
    }

    /// A canonical array index: `0` or digits without a leading zero, within `Int`.
    static func index(_ segment: String) -> Int? {
        let digits = segment.utf8
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(segment)
    }
}

/// Why text is not a key path.
public enum KeyPathError: Error, Sendable, Equatable {
    case noLeadingSlash(String)
    case badEscape(String)
    /// The empty pointer where a place inside the domain is needed.
    case wholeDomain
    /// `--path-json` text that is not a JSON array of strings and indexes.
    case notAJSONPath(String)
    /// Nothing at this pointer, and the next segment is an index: no array is guessed.
    case missingArray(String)
    /// The value at this pointer is a scalar of this type: nothing is below it.
    case notAContainer(String, ValueType)
    /// A segment in an array that is neither a canonical index nor `-` where one fits.
    case notAnIndex(String)
    /// An index past the end of an array of `count` elements.
    case outOfRange(String, count: Int)
    /// More segments than any property list nests.
    case tooDeep(count: Int)
}
