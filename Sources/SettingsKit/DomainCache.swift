import PlistModel
import SettingsStore

struct DomainCache {
    let path: String
    /// Nil when there was no file.
    var stamp: FileStamp?
    /// When, in the folder watch's history, the file was last known to be as cached
    /// (taken before it was read); nil when its folder cannot be watched.
    var checkedAt: UInt64?
    var values: [ExactKey: PlistValue]
}
