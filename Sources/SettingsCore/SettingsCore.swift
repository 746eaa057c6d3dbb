// SettingsCore is the three layered targets under it, imported as one: the value model
// and its type table (PlistModel), the property-list and JSON codecs (PlistCodecs), and
// the OS door, schemas and the domain store (SettingsStore). Each target imports only the
// ones below it, so the compiler refuses an upward use.
@_exported import PlistCodecs
@_exported import PlistModel
@_exported import SettingsStore
