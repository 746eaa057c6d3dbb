// What a program needs to use SettingsKit, and to make its own types `SettingsValue`s,
// with `import SettingsKit` alone: the value type and its parts, and the store's names
// that SettingsKit's API shows. Only these declarations are re-exported, not their modules.
@_exported import enum PlistModel.PlistValue
@_exported import struct PlistModel.PlistDictionary
@_exported import struct PlistModel.PlistInteger
@_exported import struct PlistModel.PlistDate
@_exported import enum SettingsStore.DomainName
@_exported import enum SettingsStore.DomainHost
@_exported import enum SettingsStore.StoreError
// `SettingsModel` is observed with the toolchain's Observation: its one entry point
// comes with SettingsKit, so `withObservationTracking` needs no second import.
@_exported import func Observation.withObservationTracking
