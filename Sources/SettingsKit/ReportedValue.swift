import PlistModel
import SettingsStore

struct ReportedValue: Hashable {
    let key: ExactKey
    let value: PlistValue
    static func == (a: Self, b: Self) -> Bool { a.key == b.key && a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
}
