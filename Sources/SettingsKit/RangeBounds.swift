import PlistModel
import PlistCodecs
import SettingsStore

/// A range's bounds as stored, a two-element array `[lower, upper]` (as Defaults stores
/// a range), and back: nil unless both read as `Bound` and lower ≤ upper.
enum RangeBounds {
    static func value<Bound: SettingsValue>(_ low: Bound, _ high: Bound) -> PlistValue? {
        guard let low = low.propertyListValue, let high = high.propertyListValue else { return nil }
        return .array([low, high])
    }

    static func bounds<Bound: SettingsValue & Comparable>(_ value: PlistValue) -> (Bound, Bound)? {
        guard case .array(let items) = value, items.count == 2, let low = Bound(propertyListValue: items[0]),
            let high = Bound(propertyListValue: items[1]), low <= high
        else { return nil }
        return (low, high)
    }
}
