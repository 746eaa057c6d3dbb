import PlistModel
/// The rules for a value typed on the command line without a type flag, as `defaults`
/// reads one: the CLI's `write D K VALUE` and SettingsKit's `-Key value` launch arguments.
/// Here beside the codecs, which read the literals.
package enum CommandLineValue {
    /// Parses a value typed on the command line: an OpenStep literal (`(a, b)`,
    /// `{k = v;}`, `<0a0b>`, `"text"`), an XML fragment (`<integer>5</integer>`) or a
    /// whole XML document with any root.
    package static func literal(_ text: String) throws(PlistError) -> PlistValue {
        let bytes = Array(text.utf8)
        return try PropertyList.read(bytes, as: PropertyList.sniff(bytes))
    }

    /// An untyped command-line value, as `defaults` reads one: a literal when the text
    /// holds literal punctuation, otherwise a string with `\Uxxxx` escapes decoded.
    ///
    ///     try CommandLineValue.untyped("(a, b)")       //=> .array([.string("a"), .string("b")])
    ///     try CommandLineValue.untyped(#"@\U21a9"#)    //=> .string("@↩")
    ///     try CommandLineValue.untyped("-launchd")     //=> .string("-launchd")
    package static func untyped(_ text: String) throws(PlistError) -> PlistValue {
        guard looksLikeLiteral(text) else { return .string(CommandLineText.unicodeEscapesDecoded(text)) }
        return try literal(text)
    }

    /// Whether untyped command-line text is a literal to parse rather than a plain
    /// string: defaults stores text with none of `"(){}[]<>` as typed.
    package static func looksLikeLiteral(_ text: String) -> Bool {
        text.utf8.contains { b in
            b == UInt8(ascii: "\"") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "{")
                || b == UInt8(ascii: "}") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]")
                || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
        }
    }
}
