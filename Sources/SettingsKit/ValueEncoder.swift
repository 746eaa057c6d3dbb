import FoundationEssentials
import PlistModel
import PlistCodecs
import SettingsStore

final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let root = EncodedNode()

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// Special-cases the types with a property-list form of their own.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let date as Date: root.kind = .value(date.propertyListValue!)
        case let data as Data: root.kind = .value(data.propertyListValue!)
        case let url as URL: root.kind = .value(url.propertyListValue!)
        case let uuid as UUID: root.kind = .value(uuid.propertyListValue!)
        default: try value.encode(to: self)
        }
    }

    static func child<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodedNode {
        let encoder = ValueEncoder(codingPath: path)
        try encoder.encodeValue(value)
        return encoder.root
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .dict = root.kind {} else { (root.kind, root.places) = (.dict([]), [:]) }
        return KeyedEncodingContainer(Keyed<Key>(node: root, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = root.kind {} else { root.kind = .array([]) }
        return Unkeyed(node: root, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: EncodedNode
        let codingPath: [any CodingKey]

        /// A key encoded again keeps its place with the new value. Keys are found by their
        /// bytes (`EncodedNode.places`): compared as `String`s, the two spellings of "é" were
        /// one key, and a search of the entries per key made a big dictionary quadratic.
        private func put(_ key: String, _ child: EncodedNode) {
            guard case .dict(var entries) = node.kind else { return }
            node.kind = .empty  // let the entries be changed in place, not copied
            defer { node.kind = .dict(entries) }
            if let place = node.places[ExactKey(key)] {
                entries[place].1 = child
            } else {
                node.places[ExactKey(key)] = entries.count
                entries.append((key, child))
            }
        }

        /// The container already under `key` when it is of the kind asked for, so that two
        /// nested containers under one key fill one dictionary, as Foundation's do. One of
        /// the other kind is a conflict, which makes the encoding throw.
        private func existing(_ key: Key, array: Bool) -> EncodedNode? {
            guard case .dict(let entries) = node.kind, let place = node.places[ExactKey(key.stringValue)] else {
                return nil
            }
            let child = entries[place].1
            switch child.kind {
            case .dict where !array, .array where array: return child
            case .dict, .array: if node.conflict == nil { node.conflict = (key.stringValue, codingPath + [key]) }
            default: break
            }
            return nil
        }

        mutating func encodeNil(forKey key: Key) throws {
            put(key.stringValue, EncodedNode(.value(nullMarker)))
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            put(key.stringValue, try ValueEncoder.child(value, at: codingPath + [key]))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = existing(key, array: false) ?? EncodedNode(.dict([]))
            put(key.stringValue, child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = existing(key, array: true) ?? EncodedNode(.array([]))
            put(key.stringValue, child)
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }
        /// Under the key "super", as Foundation stores it, whether or not `Key` has that case.
        mutating func superEncoder() -> any Encoder {
            let encoder = ValueEncoder(codingPath: codingPath + [SuperKey()])
            put("super", encoder.root)
            return encoder
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let encoder = ValueEncoder(codingPath: codingPath + [key])
            put(key.stringValue, encoder.root)
            return encoder
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: EncodedNode
        let codingPath: [any CodingKey]
        var count: Int { if case .array(let items) = node.kind { items.count } else { 0 } }

        private func append(_ child: EncodedNode) {
            guard case .array(var items) = node.kind else { return }
            items.append(child)
            node.kind = .array(items)
        }
        private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

        mutating func encodeNil() throws { append(EncodedNode(.value(nullMarker))) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try ValueEncoder.child(value, at: nextPath)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let child = EncodedNode(.dict([]))
            let path = nextPath
            append(child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = EncodedNode(.array([]))
            let path = nextPath
            append(child)
            return Unkeyed(node: child, codingPath: path)
        }
        mutating func superEncoder() -> any Encoder {
            let encoder = ValueEncoder(codingPath: nextPath)
            append(encoder.root)
            return encoder
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.root.kind = .value(nullMarker) }
        mutating func encode(_ value: Bool) throws { encoder.root.kind = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { encoder.root.kind = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { encoder.root.kind = .value(.double(value)) }
        mutating func encode(_ value: Float) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: Int) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: Int8) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: Int16) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: Int32) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: Int64) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: UInt) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: UInt8) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: UInt16) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: UInt32) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode(_ value: UInt64) throws { encoder.root.kind = .value(value.propertyListValue!) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
    }
}
