/// GVariant's serialised form, written: what dconf's service reads from a change it is
/// sent (`DconfWriter`), in GLib's normal form, so that `VariantBytes.value` reads every
/// value back as it was (the unit tests hold the two to each other).
extension VariantBytes {
    static func serialised(_ value: Variant) -> [UInt8] {
        switch value {
        case .bool(let b): return [b ? 1 : 0]
        case .signed(let n, let c): return little(UInt64(bitPattern: n), VariantType.basic(c).fixedSize!)
        case .unsigned(let n, let c): return little(n, VariantType.basic(c).fixedSize!)
        case .double(let d): return little(d.bitPattern, 8)
        case .string(let bytes, _): return bytes + [0]
        case .boxed(let inner): return serialised(inner) + [0] + Array(inner.type.text.utf8)
        case .maybe(_, nil): return []
        case .maybe(let element, let inner?):
            // A variable-size value is followed by a byte, so Just("") is not Nothing.
            return serialised(inner) + (element.fixedSize == nil ? [0] : [])
        case .array(let element, let items):
            var out: [UInt8] = []
            var ends: [Int] = []
            for item in items {
                pad(&out, element.alignment)
                out += serialised(item)
                ends.append(out.count)
            }
            if element.fixedSize == nil { appendOffsets(&out, ends) }
            return out
        case .tuple(let members): return container(members, value.type)
        case .entry(let key, let entryValue): return container([key, entryValue], value.type)
        }
    }

    /// A tuple or a dictionary entry: each member at its alignment, then (unless all are
    /// of fixed size) the end of each variable-size member but the last, last one first.
    private static func container(_ members: [Variant], _ type: VariantType) -> [UInt8] {
        if members.isEmpty { return [0] }
        var out: [UInt8] = []
        var ends: [Int] = []
        for (n, member) in members.enumerated() {
            pad(&out, member.type.alignment)
            out += serialised(member)
            if member.type.fixedSize == nil, n < members.count - 1 { ends.append(out.count) }
        }
        if type.fixedSize != nil {
            pad(&out, type.alignment)
        } else {
            appendOffsets(&out, ends.reversed())
        }
        return out
    }

    private static func pad(_ out: inout [UInt8], _ alignment: Int) {
        out += repeatElement(0, count: VariantType.aligned(out.count, alignment) - out.count)
    }

    /// Framing offsets after `out`, each as wide as the fewest bytes that hold the whole.
    private static func appendOffsets(_ out: inout [UInt8], _ ends: [Int]) {
        guard !ends.isEmpty else { return }
        var width = 1
        while width < 8, out.count + ends.count * width > Int(UInt64(1) << UInt64(8 * width)) - 1 { width *= 2 }
        for end in ends { out += little(UInt64(end), width) }
    }

    private static func little(_ n: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) }
    }
}
