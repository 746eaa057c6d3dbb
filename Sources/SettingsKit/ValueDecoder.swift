import FoundationEssentials
import PlistModel
import PlistCodecs
import SettingsStore

struct ValueDecoder: Decoder {
    let value: PlistValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: PlistValue, codingPath: [any CodingKey]) { (self.value, self.codingPath) = (value, codingPath) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = type as? any SettingsValue.Type,
            type == Date.self || type == Data.self || type == URL.self || type == UUID.self
        {
            guard let decoded = special.init(propertyListValue: value) as? T else { throw mismatch(type) }
            return decoded
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "found \(TypeTable.row(for: value).phrase)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dict(let dict) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(Keyed<Key>(dict: dict, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let dict: PlistDictionary
        let codingPath: [any CodingKey]
        var allKeys: [Key] { dict.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { dict[key.stringValue] != nil }
        private func child(_ key: Key) throws -> ValueDecoder {
            guard let value = dict[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value"))
            }
            return ValueDecoder(value, codingPath: codingPath + [key])
        }
        func decodeNil(forKey key: Key) throws -> Bool {
            dict[key.stringValue].map { $0 == nullMarker } ?? true
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder {
            guard let value = dict["super"] else {
                throw DecodingError.keyNotFound(SuperKey(), .init(codingPath: codingPath, debugDescription: "no value"))
            }
            return ValueDecoder(value, codingPath: codingPath + [SuperKey()])
        }
        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [PlistValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [PlistValue], codingPath: [any CodingKey]) { (self.items, self.codingPath) = (items, codingPath) }

        /// Decodes the current element and moves past it only when that succeeded, as
        /// Foundation does: after a failed `try? decode(Int.self)`, the element can still
        /// be read as another type.
        private mutating func next<T>(_ read: (ValueDecoder) throws -> T) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath, debugDescription: "the array ended"))
            }
            let result = try read(ValueDecoder(items[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)]))
            currentIndex += 1
            return result
        }
        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == nullMarker else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.decodeValue(type) } }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next { try $0.container(keyedBy: type) }
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next { try $0.unkeyedContainer() }
        }
        mutating func superDecoder() throws -> any Decoder { try next { $0 } }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: ValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        private func scalar<T: SettingsValue>(_ type: T.Type) throws -> T {
            guard let v = T(propertyListValue: decoder.value) else { throw decoder.mismatch(type) }
            return v
        }
        func decodeNil() -> Bool { decoder.value == nullMarker }
        func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
        func decode(_ type: String.Type) throws -> String { try scalar(type) }
        func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
        func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
        func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
    }
}
