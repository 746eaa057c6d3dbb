import PlistModel
import PlistCodecs
import SettingsStore

/// The value words of `write D K …`, turned into what to store.
enum ValueArguments {
    /// What `write` does with the key.
    enum Change {
        case set(PlistValue)
        case append([PlistValue])
        case merge(PlistDictionary)
    }

    /// An untyped value word that resembles a type flag (`-interger`): stored as
    /// defaults stores it, and named in a warning or in the error it led to.
    struct Lookalike: Equatable {
        let word: String
        let flag: String
    }

    /// Parses `-type text`, `-array …`, `-dict …` and their `-add` forms, or one untyped
    /// value. Only the type flags themselves are flags: any other word in a value
    /// position is a value, dash or not (`-array a -launchd` holds two strings), as in
    /// defaults. Values that look like a mistyped flag are added to `lookalikes`.
    static func parse(_ words: [Token], lookalikes: inout [Lookalike]) throws(CLIError) -> Change {
        guard let first = words.first else { throw CLIError.usage("write needs a value") }
        guard let (row, adds) = TypeTable.row(forFlag: first.text) else {
            let value = try untyped(first.text, lookalikes: &lookalikes)
            try expectAtMost(1, words)
            return .set(value)
        }
        let rest = Array(words.dropFirst())
        switch row.type {
        case .array:
            var elements: [PlistValue] = []
            var i = 0
            while i < rest.count { elements.append(try element(rest, &i, lookalikes: &lookalikes)) }
            return adds ? .append(elements) : .set(.array(elements))
        case .dict:
            var dict = PlistDictionary()
            var i = 0
            while i < rest.count {
                let key = rest[i].text
                i += 1
                guard i < rest.count else { throw CLIError.missingValue(flag: "key '\(key)' of \(first.text)") }
                dict[key] = try element(rest, &i, lookalikes: &lookalikes)
            }
            return adds ? .merge(dict) : .set(.dict(dict))
        default:
            guard let text = rest.first else { throw CLIError.missingValue(flag: first.text) }
            try expectAtMost(1, rest)
            return .set(try scalar(row, flag: first.text, text: text.text))
        }
    }

    /// One element of `-array` or value of `-dict`: a scalar flag and its text, or an
    /// untyped value. Advances `i` past what it used.
    private static func element(_ words: [Token], _ i: inout Int, lookalikes: inout [Lookalike]) throws(CLIError)
        -> PlistValue
    {
        let word = words[i]
        i += 1
        guard let (row, _) = TypeTable.row(forFlag: word.text) else {
            return try untyped(word.text, lookalikes: &lookalikes)
        }
        guard row.parse != nil else { throw CLIError.nestedCollection(word.text) }
        guard i < words.count else { throw CLIError.missingValue(flag: word.text) }
        let text = words[i].text
        i += 1
        return try scalar(row, flag: word.text, text: text)
    }

    /// `-data @FILE` is the file's bytes (PlistBuddy's `Import`), and `--data-base64` reads
    /// base64 (plutil's `-data`); the table's parsers take text alone.
    private static func scalar(_ row: TypeRow, flag: String, text: String) throws(CLIError) -> PlistValue {
        if row.type == .data, flag == "--data-base64" {
            guard let bytes = Base64.decode(text.utf8) else {
                throw CLIError.badValue(flag: flag, text: text, expected: "base64, spaces and line breaks allowed")
            }
            return .data(bytes)
        }
        if row.type == .data, text.hasPrefix("@") {
            do throws(StoreError) { return .data(try PlistFiles.read(String(text.dropFirst()))) } catch {
                throw CLIError.store(error)
            }
        }
        guard let value = row.parse?(text) else {
            throw CLIError.badValue(flag: flag, text: text, expected: row.expected)
        }
        return value
    }

    private static func untyped(_ text: String, lookalikes: inout [Lookalike]) throws(CLIError) -> PlistValue {
        if let flag = TypeTable.flag(resembling: text) { lookalikes.append(Lookalike(word: text, flag: flag)) }
        return try untyped(text)
    }

    /// Untyped text: a string as typed (with `\Uxxxx` decoded), unless it holds literal punctuation.
    static func untyped(_ text: String) throws(CLIError) -> PlistValue {
        do { return try CommandLineValue.untyped(text) } catch { throw CLIError.couldNotParse(text) }
    }
}
