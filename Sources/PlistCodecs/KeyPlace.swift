import PlistModel
/// Where one top-level key and its value lie in a file that was read whole and found
/// sound: what a side index keeps, so that a later read of one key goes straight there
/// instead of reading the whole file again (`PropertyList.lookupPlaces`,
/// `PropertyList.value(at:key:xml:)`, `PropertyList.value(at:key:binary:)`).
package struct KeyPlace: Sendable, Equatable {
    /// `KeyPlace.hash(of:seed:)` of the key's UTF-8 bytes, by the seed of the index it is for.
    package var hash: UInt64
    /// XML: the byte offsets of the key's text (`from`, `to`) and of its value element
    /// (`valueFrom`, `valueTo`). Binary: the key's object (`from`) and the value's object
    /// (`to`); the other two are 0.
    package var from: UInt32, to: UInt32, valueFrom: UInt32, valueTo: UInt32

    package init(hash: UInt64, from: UInt32, to: UInt32, valueFrom: UInt32, valueTo: UInt32) {
        (self.hash, self.from, self.to, self.valueFrom, self.valueTo) = (hash, from, to, valueFrom, valueTo)
    }

    /// SipHash-1-3 keyed by the index's own seed, kept in its file (`KeyIndex`): the keys
    /// come from a file anyone may have written, and an unkeyed hash let it pick keys that
    /// share a slot (the index checks every key it finds against the file, so a collision
    /// costs a probe, never a wrong value; a flood of them cost the square of the keys).
    @inline(__always)
    package static func hash(of key: UnsafeBufferPointer<UInt8>, seed: SipHash13.Seed) -> UInt64 {
        SipHash13.hash(UnsafeRawBufferPointer(key), seed: seed)
    }

    package static func hash(of key: String, seed: SipHash13.Seed) -> UInt64 {
        var key = key
        return key.withUTF8 { hash(of: $0, seed: seed) }
    }

    /// What going to a place found.
    package enum Found: Sendable, Equatable {
        /// The key is there, with this value.
        case value(PlistValue)
        /// Another key is there (two keys share a hash slot): look further.
        case otherKey
        /// The bytes there are not what the place says: the index is not to be trusted.
        case broken
    }
}

extension PropertyList {
    /// `lookup`, also giving the place of every top-level key, when the file's form lets a
    /// read go straight to them: a dictionary root, and for XML, UTF-8 text as it is on
    /// disk, each key written plainly as `<key>text</key>` (no reference, comment or
    /// CDATA in it). Otherwise the places are nil, and only `lookup`'s answer comes back.
    /// A key given twice has the place of its last value, the one `lookup` returns. Each
    /// place's key is hashed by `seed`, the index's.
    package static func lookupPlaces(_ bytes: [UInt8], key: String, seed: SipHash13.Seed) throws(PlistError) -> (
        Lookup, PlistFormat, [KeyPlace]?
    ) {
        let format = sniff(bytes)
        let (root, found, places): (PlistValue, PlistValue?, [KeyPlace]?)
        switch format {
        case .xml: (root, found, places) = try XMLReader.lookupPlaces(bytes, key: key, seed: seed)
        case .binary: (root, found, places) = try BinaryReader.lookupPlaces(bytes, key: key, seed: seed)
        case .openStep:
            (root, places) = (try OpenStepReader.read(bytes), nil)
            if case .dict(let dict) = root { found = dict[key] } else { found = nil }
        }
        guard case .dict = root else { return (.notADictionary(root.type), format, nil) }
        return (.dictionary(found), format, places)
    }

    /// The value of `key` at `place` in an XML file, given the file's bytes from
    /// `place.from - 5` (its `<key>`) up to `place.valueTo`: the key's text must be `key`
    /// and the value element must end exactly at the end of `window`.
    package static func value(at place: KeyPlace, key: String, xml window: UnsafeBufferPointer<UInt8>) -> KeyPlace.Found
    {
        XMLReader.value(at: place, key: key, window: window)
    }

    /// The value of `key` at `place` in a whole binary file: the place's key object must
    /// be the string `key`.
    package static func value(at place: KeyPlace, key: String, binary file: UnsafeBufferPointer<UInt8>)
        -> KeyPlace.Found
    {
        BinaryReader.value(at: place, key: key, file: file)
    }
}
