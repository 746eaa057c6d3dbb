import SettingsCore

/// The value words of `write D K …`, turned into what to store.
enum ValueArguments {
    /// What `write` does with the key.
    enum Change {
        case set(PlistValue)
        case append([PlistValue])
        case merge(PlistDictionary)
    }

    /// Parses `-type text`, `-array …`, `-dict …` and their `-add` forms, or one untyped value.
    static func parse(_ words: [Token]) throws(CLIError) -> Change {
        guard let first = words.first else { throw CLIError.usage("write needs a value") }
        guard let (row, adds) = try typeFlag(first.text) else {
            try expectAtMost(1, words)
            return .set(try untyped(first.text))
        }
        let rest = Array(words.dropFirst())
        switch row.type {
        case .array:
            var elements: [PlistValue] = []
            var i = 0
            while i < rest.count { elements.append(try element(rest, &i)) }
            return adds ? .append(elements) : .set(.array(elements))
        case .dict:
            var dict = PlistDictionary()
            var i = 0
            while i < rest.count {
                let key = rest[i].text
                i += 1
                guard i < rest.count else { throw CLIError.missingValue(flag: "key '\(key)' of \(first.text)") }
                dict[key] = try element(rest, &i)
            }
            return adds ? .merge(dict) : .set(.dict(dict))
        default:
            guard let text = rest.first else { throw CLIError.missingValue(flag: first.text) }
            try expectAtMost(1, rest)
            return .set(try scalar(row, flag: first.text, text: text.text))
        }
    }

    /// The table row a `-flag` names; nil for a word that is not a flag. A word that
    /// looks like a flag (`-` and a letter) but is none is an error rather than a
    /// string, so a typo never stores the wrong thing.
    static func typeFlag(_ word: String) throws(CLIError) -> (row: TypeRow, adds: Bool)? {
        if let found = TypeTable.row(forFlag: word) { return found }
        let bytes = Array(word.utf8)
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "-"), (bytes[1] | 0x20) >= UInt8(ascii: "a"),
           (bytes[1] | 0x20) <= UInt8(ascii: "z") {
            throw CLIError.unknownFlag(word)
        }
        return nil
    }

    /// One element of `-array` or value of `-dict`: a scalar flag and its text, or an
    /// untyped value. Advances `i` past what it used.
    private static func element(_ words: [Token], _ i: inout Int) throws(CLIError) -> PlistValue {
        let word = words[i]
        i += 1
        guard let (row, _) = try typeFlag(word.text) else { return try untyped(word.text) }
        guard row.parse != nil else { throw CLIError.nestedCollection(word.text) }
        guard i < words.count else { throw CLIError.missingValue(flag: word.text) }
        let text = words[i].text
        i += 1
        return try scalar(row, flag: word.text, text: text)
    }

    private static func scalar(_ row: TypeRow, flag: String, text: String) throws(CLIError) -> PlistValue {
        guard let value = row.parse?(text) else {
            throw CLIError.badValue(flag: flag, text: text, expected: row.expected)
        }
        return value
    }

    /// Untyped text: a string as typed, unless it holds literal punctuation.
    static func untyped(_ text: String) throws(CLIError) -> PlistValue {
        guard PropertyList.looksLikeLiteral(text) else { return .string(text) }
        do { return try PropertyList.readLiteral(text) } catch { throw CLIError.couldNotParse(text) }
    }
}
