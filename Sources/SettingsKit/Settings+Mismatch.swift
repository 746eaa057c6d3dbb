import PlistModel

// Overloads that exist only to be refused. A value of another type than the key's
// (`settings[.music] = 5` for a Bool key, `let v: Int = settings[.volume]` for a Double
// one) otherwise leaves the type checker with no candidate it can blame, and it says
// "failed to produce diagnostic for expression". With these, it picks the unavailable
// overload and prints its message at the line that is wrong.

extension Settings {
    /// Refused: a value of another type than the key's. Never called.
    @available(
        *, unavailable, message: "the value's type is not the key's: read and write a SettingsKey<Value> as Value"
    )
    public subscript<Value, Other: SettingsValue>(key: SettingsKey<Value>) -> Other {
        get { fatalError() }
        set { fatalError() }
    }

    /// Refused: a value of another type than the key's. Never called.
    @available(
        *, unavailable, message: "the value's type is not the key's: read and write a SettingsKey<Value> as Value"
    )
    public func set<Value, Other: SettingsValue>(_ value: Other, for key: SettingsKey<Value>) throws(SettingsError) {
        fatalError()
    }
}

extension Settings.Batch {
    /// Refused: a value of another type than the key's. Never called.
    @available(
        *, unavailable, message: "the value's type is not the key's: read and write a SettingsKey<Value> as Value"
    )
    public subscript<Value, Other: SettingsValue>(key: SettingsKey<Value>) -> Other {
        get { fatalError() }
        set { fatalError() }
    }
}

extension SettingsModel {
    /// Refused: a value of another type than the key's. Never called.
    @available(
        *, unavailable, message: "the value's type is not the key's: read and write a SettingsKey<Value> as Value"
    )
    public subscript<Value, Other: SettingsValue>(key: SettingsKey<Value>) -> Other {
        get { fatalError() }
        set { fatalError() }
    }
}
