import PlistModel

// What each reader can find wrong, one case per rule. Names and text quoted from the
// input are cut to 40 characters by the reader, so a message stays one short line.

extension PlistError {
    /// What can be wrong in XML text: one case per rule.
    public enum XMLCode: Sendable, Equatable {
        case emptyPlistElement
        case plistHoldsNoValue
        case moreThanOneValue
        case contentAfterValue
        case unterminatedDoctype
        /// An XML declaration naming an encoding no reader here knows.
        case unknownEncoding(String)
        case unterminatedProcessingInstruction
        case unterminatedComment
        case unexpectedEnd
        case unexpectedClosingTag
        case expectedElement
        case unknownTag(String)
        case unterminatedTag
        case expectedClosingTag(String)
        case keyOutsideDictionary
        case nestedPlist
        case emptyElement(String)
        case invalidValue(element: String, text: String)
        case expectedKey
        case keyWithoutValue(String)
        case unterminatedText
        case unterminatedCDATA
        case elementInsideText
        case unterminatedReference
        case unknownEntity(String)
        case emptyReference
        case invalidReferenceDigit
        case referenceBeyondUnicode
        case referenceToNoCharacter

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case .emptyPlistElement: "empty <plist/> element"
            case .plistHoldsNoValue: "<plist> holds no value"
            case .moreThanOneValue: "more than one value inside <plist>"
            case .contentAfterValue: "unexpected content after the property list"
            case .unterminatedDoctype: "unterminated DOCTYPE"
            case let .unknownEncoding(name):
                "unknown encoding '\(name)' (UTF-8, UTF-16, UTF-32, US-ASCII and ISO-8859-1 are read)"
            case .unterminatedProcessingInstruction: "unterminated processing instruction"
            case .unterminatedComment: "unterminated comment"
            case .unexpectedEnd: "unexpected end of file"
            case .unexpectedClosingTag: "unexpected closing tag"
            case .expectedElement: "expected an element"
            case let .unknownTag(name): "unknown tag <\(name)>"
            case .unterminatedTag: "unterminated tag"
            case let .expectedClosingTag(name): "expected </\(name)>"
            case .keyOutsideDictionary: "<key> outside a dictionary"
            case .nestedPlist: "nested <plist>"
            case let .emptyElement(name): "empty <\(name)>"
            case let .invalidValue(element, text): "invalid <\(element)> value \"\(text)\""
            case .expectedKey: "expected <key> in dictionary"
            case let .keyWithoutValue(key): "key \"\(key)\" has no value"
            case .unterminatedText: "unexpected end of file in text"
            case .unterminatedCDATA: "unterminated CDATA section"
            case .elementInsideText: "unexpected element inside text"
            case .unterminatedReference: "unterminated character reference"
            case let .unknownEntity(name): "unknown entity &\(name);"
            case .emptyReference: "character reference without digits"
            case .invalidReferenceDigit: "invalid digit in character reference"
            case .referenceBeyondUnicode: "character reference beyond Unicode"
            case .referenceToNoCharacter: "character reference to no character (NUL or a surrogate)"
            }
        }
    }

    /// What can be wrong in OpenStep text: one case per rule.
    public enum OpenStepCode: Sendable, Equatable {
        case noValue
        case textAfterValue
        case unexpectedEnd
        case unterminatedDictionary
        case expectedEqualsOrSemicolon(key: String)
        case expectedEquals(key: String)
        case expectedSemicolon(key: String)
        case unterminatedArray
        case expectedCommaOrParenthesis
        case oddHexDigits
        case invalidDataCharacter
        case unterminatedData
        case expectedString
        case unexpectedCharacter(UInt8)
        case unpairedSurrogate
        case escapeWithoutDigits
        case unterminatedString
        case unterminatedComment

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case .noValue: "no value"
            case .textAfterValue: "unexpected text after the value"
            case .unexpectedEnd: "unexpected end of text"
            case .unterminatedDictionary: "unterminated dictionary: expected '}'"
            case let .expectedEqualsOrSemicolon(key): "expected '=' or ';' after key \"\(key)\""
            case let .expectedEquals(key): "expected '=' after key \"\(key)\""
            case let .expectedSemicolon(key): "expected ';' after the value of \"\(key)\""
            case .unterminatedArray: "unterminated array: expected ')'"
            case .expectedCommaOrParenthesis: "expected ',' or ')' in array"
            case .oddHexDigits: "odd number of hex digits in data"
            case .invalidDataCharacter: "invalid character in data"
            case .unterminatedData: "unterminated data: expected '>'"
            case .expectedString: "expected a string"
            case let .unexpectedCharacter(b):
                b >= 0x21 && b < 0x7F
                    ? "unexpected character '\(Character(Unicode.Scalar(b)))'" : "unexpected byte 0x\(hexByte(b))"
            case .unpairedSurrogate: "unpaired UTF-16 surrogate in \\U escape"
            case .escapeWithoutDigits: "\\U needs hex digits"
            case .unterminatedString: "unterminated string"
            case .unterminatedComment: "unterminated comment"
            }
        }
    }

    /// What can be wrong in a binary plist's structure: one case per rule.
    public enum BinaryCode: Sendable, Equatable {
        case tooShort
        case notBplist00
        case offsetSize(Int)
        case referenceSize(Int)
        case offsetTableOutsideFile(objects: UInt64, table: UInt64)
        case noObjects
        case topObjectMissing(top: UInt64, objects: UInt64)
        case objectOutsideObjectArea(index: Int, offset: UInt64)
        case objectContainsItself(Int)
        case tooManyValues(limit: Int)
        case objectPastEnd
        case unsupportedMarker(UInt8)
        case realWidth(Int)
        case dateOutOfRange
        case nonASCIIString
        case stringLengthOverflows
        case invalidUTF16
        case collectionSizeOverflows
        case keyIsNotAString
        case tooDeep(limit: Int)
        case badLengthMarker
        case lengthPastFile(PlistInteger)
        case integerWidth(Int)
        case integerBeyond64Bits
        case referenceOutOfRange(UInt64, objects: Int)

        /// What is wrong, without where.
        public var message: String {
            switch self {
            case .tooShort: "file too short"
            case .notBplist00: "not a bplist00 header"
            case let .offsetSize(n): "offset size \(n)"
            case let .referenceSize(n): "reference size \(n)"
            case let .offsetTableOutsideFile(count, table):
                "object count \(count) or offset table at \(table) does not fit the file"
            case .noObjects: "no objects"
            case let .topObjectMissing(top, count): "top object \(top) of \(count)"
            case let .objectOutsideObjectArea(index, offset):
                "object \(index) at offset \(offset) is outside the object area"
            case let .objectContainsItself(index): "object \(index) contains itself"
            case let .tooManyValues(limit): "more than \(limit) values (shared objects expand too far)"
            case .objectPastEnd: "object runs past the end of the object area"
            case let .unsupportedMarker(marker): "unsupported object marker 0x\(hexByte(marker))"
            case let .realWidth(n): "real of \(n) bytes"
            case .dateOutOfRange: "date outside 0000-12-30 to 9999-12-31"
            case .nonASCIIString: "ASCII string with a non-ASCII byte"
            case .stringLengthOverflows: "UTF-16 string length overflows"
            case .invalidUTF16: "invalid UTF-16 string"
            case .collectionSizeOverflows: "collection size overflows"
            case .keyIsNotAString: "dictionary key is not a string"
            case let .tooDeep(limit): "nested deeper than \(limit) levels"
            case .badLengthMarker: "bad length marker"
            case let .lengthPastFile(value): "length \(value) does not fit the file"
            case let .integerWidth(n): "integer of \(n) bytes"
            case .integerBeyond64Bits: "integer does not fit 64 bits"
            case let .referenceOutOfRange(index, count): "reference \(index) to one of \(count) objects"
            }
        }
    }
}
