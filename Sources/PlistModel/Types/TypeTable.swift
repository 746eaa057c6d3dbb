/// The type-code dispatch table: for each type, its command-line flags, the parser of
/// its command-line text, its `read-type` word and its `defaults read` text.
///
/// This is the one place that knows type names and flags; adding a type means adding
/// a row here and a case to `PlistValue`.
///
///     TypeTable.row(forFlag: "-boolean")?.parse?("YES")   //=> .bool(true)
///     TypeTable.row(for: .double(0.5)).word                //=> "float"
package struct TypeRow: Sendable {
    package let type: ValueType
    /// The flags that set a value of this type (`-int`, `-integer`).
    package let flags: [String]
    /// The flag that appends to or merges into an existing value (`-array-add`).
    package let addFlag: String?
    /// `read-type` prints `Type is <word>`.
    package let word: String
    /// The word a schema's `"type"` uses: `real` for both widths of float, `dictionary`.
    package let schemaWord: String

    /// The word with its article, for messages: "an integer", "a string".
    package var phrase: String { TypeTable.phrase(word) }
    /// What the parser accepts, for error messages ("expected …").
    package let expected: String
    /// Command-line text to a value; nil for junk. Collections have none: their
    /// elements come from the arguments that follow the flag.
    package let parse: (@Sendable (String) -> PlistValue?)?
    /// A scalar's text in `defaults read` output, before quoting.
    package let text: @Sendable (PlistValue) -> String
    /// Whether that text is printed as is inside a collection (data's `{length = …}`)
    /// rather than quoted when it is not alphanumeric.
    package var printsBare = false
}

package enum TypeTable {
    /// A type word with its article: "an integer", "an array", "a real".
    package static func phrase(_ word: String) -> String { ("aeiou".contains(word.first!) ? "an " : "a ") + word }

    package static let rows: [TypeRow] = [
        TypeRow(
            type: .bool, flags: ["-bool", "-boolean"], addFlag: nil, word: "boolean", schemaWord: "boolean",
            expected: "true, false, yes, no, 1 or 0",
            parse: { CommandLineText.bool($0).map(PlistValue.bool) },
            text: { if case .bool(let b) = $0 { b ? "1" : "0" } else { "" } }),
        TypeRow(
            type: .int, flags: ["-int", "-integer"], addFlag: nil, word: "integer", schemaWord: "integer",
            expected: "a whole number from -9223372036854775808 to 9223372036854775807",
            parse: { CommandLineText.int($0).map { PlistValue.int($0) } },
            text: { if case .int(let i) = $0 { i.description } else { "" } }),
        TypeRow(
            type: .float, flags: ["-float"], addFlag: nil, word: "float", schemaWord: "real",
            expected: "a finite number that fits a 32-bit float",
            parse: { CommandLineText.float($0).map(PlistValue.float) },
            text: { if case .float(let f) = $0 { RealText.shortest(f) } else { "" } }),
        TypeRow(
            type: .double, flags: ["-double"], addFlag: nil, word: "float", schemaWord: "real",
            expected: "a finite number",
            parse: { CommandLineText.double($0).map(PlistValue.double) },
            text: { if case .double(let d) = $0 { RealText.shortest(d) } else { "" } }),
        TypeRow(
            type: .string, flags: ["-string"], addFlag: nil, word: "string", schemaWord: "string", expected: "any text",
            parse: { PlistValue.string($0) },
            text: { if case .string(let s) = $0 { s } else { "" } }),
        TypeRow(
            type: .data, flags: ["-data", "--data-base64"], addFlag: nil, word: "data", schemaWord: "data",
            expected: "an even number of hex digits, or @FILE for a file's bytes",
            parse: { CommandLineText.hexData($0).map(PlistValue.data) },
            text: { if case .data(let d) = $0 { DefaultsText.data(d) } else { "" } }, printsBare: true),
        TypeRow(
            type: .date, flags: ["-date"], addFlag: nil, word: "date", schemaWord: "date",
            expected: "'YYYY-MM-DD HH:MM:SS +ZZZZ' or 'YYYY-MM-DDTHH:MM:SSZ', 0000-12-30 to 9999-12-31",
            parse: { CommandLineText.date($0).map(PlistValue.date) },
            text: { if case .date(let d) = $0 { DefaultsText.date(d) } else { "" } }),
        TypeRow(
            type: .array, flags: ["-array"], addFlag: "-array-add", word: "array", schemaWord: "array",
            expected: "values",
            parse: nil, text: { _ in "" }),
        TypeRow(
            type: .dict, flags: ["-dict"], addFlag: "-dict-add", word: "dictionary", schemaWord: "dictionary",
            expected: "key and value pairs",
            parse: nil, text: { _ in "" }),
    ]

    /// The row of a value's type.
    package static func row(for value: PlistValue) -> TypeRow { row(for: value.type) }

    package static func row(for type: ValueType) -> TypeRow { rows[index(of: type)] }

    /// Where a type's row is in `rows` (their order is `ValueType`'s), without building
    /// `allCases` or copying a row: the printer asks once per value.
    @inline(__always)
    package static func index(of type: ValueType) -> Int {
        switch type {
        case .bool: 0
        case .int: 1
        case .float: 2
        case .double: 3
        case .string: 4
        case .data: 5
        case .date: 6
        case .array: 7
        case .dict: 8
        }
    }

    /// The row a flag names and whether it is the add form; nil for an unknown flag.
    package static func row(forFlag flag: String) -> (row: TypeRow, adds: Bool)? {
        for row in rows {
            if row.flags.contains(flag) { return (row, false) }
            if row.addFlag == flag { return (row, true) }
        }
        return nil
    }

    /// Every flag, for usage text and completion.
    package static var allFlags: [String] { rows.flatMap { $0.flags + ($0.addFlag.map { [$0] } ?? []) } }
}
