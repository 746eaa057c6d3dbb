import DesktopSettings
import PlistModel
import SettingsSync

/// The desktop's settings as `sync` carries them (`SyncDesktop`): `gsettings:` domains
/// read from dconf's databases and written through dconf's service, journalled as every
/// desktop change is, each value checked against this machine's schema.
final class DesktopSync: SyncDesktop {
    private let store: DesktopStore
    /// Each domain's schema, looked up once a round (nil: not installed here).
    private var places: [String: DesktopStore.Place?] = [:]
    /// Each domain's key names and locked keys, asked for several times a round.
    private var keys: [String: (known: [String], locked: [String])?] = [:]

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
        if let known = keys[name] { return known }
        var found: (known: [String], locked: [String])? = nil
        if let place = place(name), let names = try? place.schema?.keyNames() {
            found = (names, names.filter { (try? store.isLocked(place.path(of: $0))) ?? true })
        }
        keys[name] = .some(found)
        return found
    }

    func values(of name: String) throws(DesktopProblem) -> PlistDictionary {
        guard let place = place(name) else { throw DesktopProblem("\(name): its schema is not installed here") }
        store.forgetDatabases()
        do throws(DesktopError) { return try store.stateDomain(place) ?? [:] } catch { throw problem(error) }
    }

    func refusal(of name: String, key: String, value: PlistValue) -> String? {
        guard let place = place(name) else { return "its schema is not installed here" }
        do throws(DesktopError) {
            try store.check(place, key, try store.variant(place, key, value))
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
                        try change.value.map { value throws(DesktopError) in try store.variant(place, change.key, value)
                        }
                    )
                })
        } catch {
            throw problem(error)
        }
    }
}
