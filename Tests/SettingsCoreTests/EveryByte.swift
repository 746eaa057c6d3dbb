import XCTest

/// Each prefix of `filler` of the given `lengths` with every byte value put at every place
/// in it (an empty prefix 256 times, as it is): what the code that looks at eight bytes at
/// a time is checked against, byte by byte. `body` returns false to stop.
func forEveryByte(
    inPrefixesOf filler: [UInt8], lengths: [Int], _ body: (_ bytes: [UInt8], _ place: Int, _ byte: UInt8) -> Bool
) {
    for length in lengths {
        for place in 0..<max(length, 1) {
            for b in UInt8.min...UInt8.max {
                var bytes = Array(filler.prefix(length))
                if length > 0 { bytes[place] = b }
                guard body(bytes, place, b) else { return }
            }
        }
    }
}

/// `write` of every such text equals `expected` of it; the first difference fails the test
/// (at the caller's line) and stops.
func assertEveryByte(
    inPrefixesOf filler: [UInt8], lengths: [Int], _ write: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void,
    equals expected: ([UInt8]) -> [UInt8], file: StaticString = #filePath, line: UInt = #line
) {
    forEveryByte(inPrefixesOf: filler, lengths: lengths) { bytes, place, b in
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { write($0, &out) }
        guard out == expected(bytes) else {
            XCTFail(
                "byte \(b) at \(place) of \(bytes.count): \(String(decoding: out, as: UTF8.self))", file: file,
                line: line)
            return false
        }
        return true
    }
}
