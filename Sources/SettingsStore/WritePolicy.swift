import PlistCodecs
import PlistModel

/// What every change through the store is held to, whoever writes it (`write`, `import`,
/// `rename`, `apply`, `edit`, `undo`, sync, SettingsKit): made once per write, under the
/// domain's lock, and asked about each key the change touches. One place, so a writer
/// added later cannot forget a rule.
///
/// - The administrator's managed file: a key it locks is neither set nor removed.
/// - The domain's schema (`SchemaFiles`), unless the store was told not to check it
///   (`DomainStore.checksSchema`, `--force`): a value it refuses, or in a strict schema a
///   key it lacks, is not stored. Removing a key is always allowed: it falls back to its
///   default.
/// - The file's format: a value no reader could read back is not stored; one only a
///   binary file holds (a fractional date, or with `binaryForAnyText` a control
///   character) makes the file binary.
struct WritePolicy {
    let managed: AdminFile?
    let schema: Schema?
    let domain: String
    let path: String
    let format: PlistFormat
    let binaryForAnyText: Bool

    init(
        managed: AdminFile?, schema: Schema?, domain: String, path: String, format: PlistFormat,
        binaryForAnyText: Bool
    ) {
        (self.managed, self.schema, self.domain, self.path) = (managed, schema, domain, path)
        (self.format, self.binaryForAnyText) = (format, binaryForAnyText)
    }

    /// Whether `key` may be set to `new` (nil: removed); true when storing it makes the
    /// file binary. Throws the first rule it breaks: a `StoreError` (managed, unstorable)
    /// or a `SchemaRefusal`.
    func check(_ key: String, _ new: PlistValue?) throws -> Bool {
        try checkNamed(key)
        guard let new else { return false }
        if let schema {
            // `Schema.key` finds a key by its bytes in a table: a write of every key stays linear.
            if let keySchema = schema.key(key) {
                if let problem = keySchema.violation(new) {
                    throw SchemaRefusal(key: key, .violation(problem))
                }
            } else if schema.strict {
                throw SchemaRefusal(key: key, .notInSchema(domain: domain))
            }
        }
        return try needsBinary(key, new)
    }

    /// Whether `key` may be named by a change at all: the managed file's rule alone, for
    /// a change that leaves the key as it was.
    func checkNamed(_ key: String) throws(StoreError) {
        if let managed, managed.values[key] != nil { throw StoreError.managed(key: key, path: managed.path) }
    }

    /// Whether storing `key` = `value` makes the file binary: a date with a fraction of
    /// a second, or (with `binaryForAnyText`) text XML cannot hold; throws when it cannot
    /// be stored at all.
    func needsBinary(_ key: String, _ value: PlistValue) throws(StoreError) -> Bool {
        if binaryForAnyText, format != .binary,
            case .controlCharacter? = PropertyList.unstorable(key: key, value: value, format: format)
        {
            try checkStorable(key, value, format: .binary)
            return true
        }
        try checkStorable(key, value, format: format)
        return PropertyList.hasFractionalDate(value)
    }

    /// Throws when `key` = `value` could not be read back from a `format` file.
    private func checkStorable(_ key: String, _ value: PlistValue, format: PlistFormat) throws(StoreError) {
        if let problem = PropertyList.unstorable(key: key, value: value, format: format) {
            throw StoreError.unstorable(path: path, problem)
        }
    }
}

/// A change the domain's schema refuses: nothing was written. (Not a `StoreError` case,
/// which would change the public API's exhaustive switches: the command line says it as
/// `write` always did, SettingsKit as a value that cannot be stored.)
package struct SchemaRefusal: Error, Equatable, CustomStringConvertible {
    /// The top-level key.
    package let key: String
    package let reason: Reason

    /// What the schema says.
    package enum Reason: Equatable {
        /// The value breaks a constraint of the key.
        case violation(SchemaViolation)
        /// The schema is strict and does not name the key.
        case notInSchema(domain: String)
    }

    init(key: String, _ reason: Reason) { (self.key, self.reason) = (key, reason) }

    /// What is wrong, without the key: the constraint and what is allowed.
    package var problem: String {
        switch reason {
        case .violation(let violation): violation.message
        case .notInSchema(let domain): "not a key of \(domain)'s schema, which is strict"
        }
    }

    /// One line for a user.
    package var message: String {
        switch reason {
        case .violation(let violation): "invalid value for \(key): \(violation.message)"
        case .notInSchema(let domain): "\(key) is not a key of \(domain)'s schema, which is strict"
        }
    }

    package var description: String { message }
}
