import SettingsStore

/// dconf's writer, spoken to directly: a change of any number of keys (sets and resets)
/// is one `ca.desrt.dconf.Writer.Change` call on the session's bus, which dconf's service
/// applies whole, writes to the user's database, and then announces to every running
/// application, as it does for `dconf write` and `gsettings set`. No program is started:
/// that was most of a write's time.
extension DesktopStore {
    /// The session's bus address: `DBUS_SESSION_BUS_ADDRESS`, else the socket systemd
    /// keeps in `XDG_RUNTIME_DIR` (as GLib finds it); nil when there is none.
    var busAddress: String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), FileSystem.exists(runtime + "/bus")
        else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    /// Sends one change to dconf's service: each path (a key, or a folder ending in `/`
    /// to reset all under it) with its new value, nil to reset it. Waits (30 s at most)
    /// for the service to say it wrote its database.
    func change(_ changes: [(path: String, value: Variant?)]) throws(DesktopError) {
        guard let address = busAddress else {
            throw .noDesktop("no D-Bus session for dconf's service (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        guard let user = profile.userDatabase else {
            throw .noDesktop("dconf's profile names no user database to write to")
        }
        var bus = try DBusSession(address: address, deadline: FileSystem.monotonicSeconds() + 30)
        let blob = VariantBytes.serialised(Self.changeset(changes))
        let length = UInt32(blob.count)
        let body = (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + blob
        let database = String(user.split(separator: "/").last ?? "user")
        let failure = try bus.call(
            DBusSession.Call(
                destination: "ca.desrt.dconf", path: "/ca/desrt/dconf/Writer/" + database,
                interface: "ca.desrt.dconf.Writer", member: "Change", signature: "ay", body: body))
        guard let (name, message) = failure else { return }
        if name.hasSuffix(".ServiceUnknown") || name.hasSuffix(".Spawn.ServiceNotFound") {
            throw .noDesktop("dconf's service cannot be reached (Debian: apt install dconf-service)")
        }
        throw .writerFailed(message.isEmpty ? name : message)
    }

    /// dconf's changeset, `a{smv}`: each path with just its value, or nothing to reset it.
    static func changeset(_ changes: [(path: String, value: Variant?)]) -> Variant {
        .array(
            .entry(.string, .maybe(.variant)),
            changes.map { .entry(.string($0.path), .maybe(.variant, $0.value.map(Variant.boxed))) })
    }
}
