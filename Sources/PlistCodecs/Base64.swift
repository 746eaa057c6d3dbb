import PlistModel
/// Base64 as property lists use it: Apple's line layout when writing, strict on reading.
package enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 255 for bytes outside the alphabet.
    package static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Appends `bytes` in lines of `lineLength` characters, each line led by `indent`
    /// tabs and ended by a newline.
    static func encodeLines(_ bytes: [UInt8], lineLength: Int, indent: Int, into out: inout [UInt8]) {
        let groupsPerLine = max(lineLength / 4, 1)
        // Read once: a global's every use in the loop checked that it was made.
        let alphabet = Self.alphabet
        var i = 0
        var groupsOnLine = 0
        while i < bytes.count {
            if groupsOnLine == 0 { XMLWriter.tabs(indent, &out) }
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
            i += 3
            groupsOnLine += 1
            if groupsOnLine == groupsPerLine || i >= bytes.count {
                out.append(UInt8(ascii: "\n"))
                groupsOnLine = 0
            }
        }
    }

    /// All of `bytes` on one line, no newline.
    package static func encode(_ bytes: [UInt8], into out: inout [UInt8]) {
        encodeLines(bytes, lineLength: .max, indent: 0, into: &out)
        if !bytes.isEmpty { out.removeLast() }
    }

    /// Decodes base64 with any whitespace between characters. Nil for a character
    /// outside the alphabet, a bad length or padding anywhere but the end.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var quad: UInt32 = 0
        var count = 0
        var padding = 0
        let decodeTable = Self.decodeTable
        for c in text {
            if isSpace(c) { continue }
            if c == UInt8(ascii: "=") {
                guard count % 4 >= 2 || padding > 0 else { return nil }
                padding += 1
                count += 1
                quad <<= 6
                guard padding <= 2 else { return nil }
                if count % 4 == 0 { flush(quad, padding, &out) }
                continue
            }
            guard padding == 0 else { return nil }
            let v = decodeTable[Int(c)]
            guard v != 255 else { return nil }
            quad = quad << 6 | UInt32(v)
            count += 1
            if count % 4 == 0 { flush(quad, 0, &out); quad = 0 }
        }
        guard count % 4 == 0 else { return nil }
        return out
    }

    /// Appends base64 `text` without its white space when it is exactly what `encode`
    /// writes for the bytes it decodes to (`isCanonical`). Then a value's text goes from
    /// an XML file to JSON without being decoded and encoded again. False, with nothing
    /// appended, for any other text.
    static func appendCanonical(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        guard let spaced = isCanonical(text, allowingSpace: true) else { return false }
        if spaced {
            for c in text where !isSpace(c) { out.append(c) }
        } else {
            out.appendBytes(text)
        }
        return true
    }

    /// `encodeLines` of the bytes canonical `text` (`isCanonical`, without white space)
    /// decodes to, copied from the text itself: the same lines, nothing decoded.
    static func appendLines(
        canonical text: UnsafeBufferPointer<UInt8>, lineLength: Int, indent: Int, into out: inout [UInt8]
    ) {
        let perLine = max(lineLength / 4, 1) * 4
        var i = 0
        while i < text.count {
            let end = min(i + perLine, text.count)
            XMLWriter.tabs(indent, &out)
            out.appendBytes(UnsafeBufferPointer(rebasing: text[i..<end]))
            out.append(UInt8(ascii: "\n"))
            i = end
        }
    }

    /// Whether `text` is exactly what `encode` writes for the bytes it decodes to, white
    /// space aside when `allowingSpace`: each character in the alphabet, `=` only to pad
    /// the last group, and the bits padding leaves unused zero. Nil when it is not; else
    /// whether it holds white space.
    static func isCanonical(_ text: UnsafeBufferPointer<UInt8>, allowingSpace: Bool) -> Bool? {
        let decodeTable = Self.decodeTable
        var count = 0, padding = 0
        var last: UInt8 = 0
        for c in text {
            if isSpace(c) {
                guard allowingSpace else { return nil }
                continue
            }
            if c == UInt8(ascii: "=") {
                padding += 1
            } else {
                last = decodeTable[Int(c)]
                guard padding == 0, last != 255 else { return nil }
            }
            count += 1
        }
        // One `=` leaves the last character's two low bits unused; two, its four.
        let unused: UInt8 = padding == 1 ? 3 : padding == 2 ? 15 : 0
        guard count % 4 == 0, padding <= 2, last & unused == 0 else { return nil }
        return count != text.count
    }

    private static func flush(_ quad: UInt32, _ padding: Int, _ out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: quad >> 16))
        if padding < 2 { out.append(UInt8(truncatingIfNeeded: quad >> 8)) }
        if padding < 1 { out.append(UInt8(truncatingIfNeeded: quad)) }
    }
}
