/// Seconds as every option and variable takes them (`watch --timeout`, `sync --interval`,
/// `watch --debounce`, `SETTINGS_LOCK_TIMEOUT`): one reading everywhere.
package enum Seconds {
    /// The seconds `text` spells as a plain decimal (`5`, `0.5`), else nil: `-1`, `abc`,
    /// `0x10`, `1e3`, `inf` and ` 5` are never taken for something the user did not mean.
    package static func parse(_ text: String) -> Double? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring.UTF8View.SubSequence) in
            !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard digits(parts[0]), parts.count == 1 || digits(parts[1]), let seconds = Double(text), seconds.isFinite
        else { return nil }
        return seconds
    }

    /// The seconds `text` spells, if from `minimum` to `limit` (bounded, so no later
    /// arithmetic on them can trap).
    package static func parse(_ text: String, from minimum: Double, upTo limit: Double) -> Double? {
        guard let seconds = parse(text), seconds >= minimum, seconds <= limit else { return nil }
        return seconds
    }
}
