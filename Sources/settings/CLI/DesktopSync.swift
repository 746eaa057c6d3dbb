import DesktopSettings
import PlistModel
import SettingsSync

/// The desktop's settings as `sync` carries them (`SyncDesktop`): `gsettings:` domains
/// read from dconf's databases and written through the user's `dconf`, journalled as
/// every desktop change is, each value checked against this machine's schema.
final class DesktopSync: SyncDesktop {
    private let store: DesktopStore
    /// Each domain's schema, looked up once a round (nil: not installed here).
    private var places: [String: DesktopStore.Place?] = [:]

    init(_ store: DesktopStore) { self.store = store }

    private func place(_ name: String) -> DesktopStore.Place? {
        if let known = places[name] { return known }
        let found: DesktopStore.Place? = (try? DesktopDomain(name)).flatMap { try? store.place($0) }
        places[name] = .some(found)
        return found
    }

    private func problem(_ error: DesktopError) -> DesktopProblem { DesktopProblem(error.message) }

    func domains() throws(DesktopProblem) -> [String] {
        do throws(DesktopError) { return try store.domainsWithValues() } catch { throw problem(error) }
    }

    func keys(of name: String) -> (known: [String], locked: [String])? {
        guard let place = place(name), let keys = try? place.schema?.keys() else { return nil }
        let names = keys.map(\.name)
        return (names, names.filter { (try? store.isLocked(place.path(of: $0))) ?? true })
    }

    func values(of name: String) throws(DesktopProblem) -> PlistDictionary {
        guard let place = place(name) else { throw DesktopProblem("\(name): its schema is not installed here") }
        store.forgetDatabases()
        do throws(DesktopError) { return try store.stateDomain(place) ?? [:] } catch { throw problem(error) }
    }

    func refusal(of name: String, key: String, value: PlistValue) -> String? {
        guard let place = place(name) else { return "its schema is not installed here" }
        do throws(DesktopError) {
            try store.check(place, key, try variant(place, key, value))
            return nil
        } catch {
            return error.message
        }
    }

    func write(_ name: String, _ changes: [(key: String, value: PlistValue?)]) throws(DesktopProblem) {
        guard let place = place(name) else { throw DesktopProblem("\(name): its schema is not installed here") }
        do throws(DesktopError) {
            try store.write(
                place,
                try changes.map { change throws(DesktopError) in
                    (
                        change.key,
                        try change.value.map { value throws(DesktopError) in try variant(place, change.key, value) }
                    )
                })
        } catch {
            throw problem(error)
        }
    }

    /// `value` as the key's type (as `import` types it).
    private func variant(_ place: DesktopStore.Place, _ key: String, _ value: PlistValue) throws(DesktopError)
        -> Variant
    {
        let type = try store.key(place, key)?.type
        do throws(VariantParser.Failure) { return try Variant.from(value, as: type) } catch {
            throw .refused(key: key, reason: error.message)
        }
    }
}
