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
        guard let user = profile.userDatabase else {
            throw .noDesktop("dconf's profile names no user database to write to")
        }
        var body = WireWriter()
        let blob = VariantBytes.serialised(Self.changeset(changes))
        body.uint32(UInt32(blob.count))
        body.bytes += blob
        let database = String(user.split(separator: "/").last ?? "user")
        try call(
            DBusSession.Call(
                destination: Self.service, path: "/ca/desrt/dconf/Writer/" + database,
                interface: "ca.desrt.dconf.Writer", member: "Change", signature: "ay", body: body.bytes)
        ) { .noAnswer($0) }
    }

    /// Whether a change can be made: dconf's service started on the session's bus (as
    /// a change would start it), asked before a change of several domains, so nothing is
    /// written when the desktop's part would fail.
    func startWriter() throws(DesktopError) {
        var body = WireWriter()
        body.string(Self.service)
        body.uint32(0)
        try call(
            DBusSession.Call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "StartServiceByName", signature: "su", body: body.bytes)
        ) { .noDesktop("the D-Bus session did not answer (\($0))") }
    }

    /// Makes `call` on the session's bus; a bus that stops answering once it is sent is
    /// `unanswered`'s error, a D-Bus error reply `refusal`'s.
    private func call(_ call: DBusSession.Call, unanswered: (String) -> DesktopError) throws(DesktopError) {
        var bus = try openBus()
        let failure: (name: String, message: String)?
        do throws(DBusSession.Failure) { failure = try bus.call(call) } catch { throw unanswered(error.reason) }
        if let failure { throw Self.refusal(failure) }
    }

    private static let service = "ca.desrt.dconf"

    private func openBus() throws(DesktopError) -> DBusSession {
        guard let address = busAddress else {
            throw .noDesktop("no D-Bus session for dconf's service (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        return try DBusSession.open(address, deadline: FileSystem.monotonicSeconds() + 30)
    }

    /// A D-Bus error reply: no dconf service on the bus is no desktop; any other is dconf's.
    private static func refusal(_ failure: (name: String, message: String)) -> DesktopError {
        if failure.name.hasSuffix(".ServiceUnknown") || failure.name.hasSuffix(".Spawn.ServiceNotFound") {
            return .noDesktop("dconf's service cannot be reached (Debian: apt install dconf-service)")
        }
        return .writerFailed(failure.message.isEmpty ? failure.name : failure.message)
    }

    /// dconf's changeset, `a{smv}`: each path with just its value, or nothing to reset it.
    static func changeset(_ changes: [(path: String, value: Variant?)]) -> Variant {
        .array(
            .entry(.string, .maybe(.variant)),
            changes.map { .entry(.string($0.path), .maybe(.variant, $0.value.map(Variant.boxed))) })
    }
}
