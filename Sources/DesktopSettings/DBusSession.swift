import SettingsStore

/// A client of the session's message bus, as much of D-Bus as one method call needs: the
/// address from `DBUS_SESSION_BUS_ADDRESS`, the EXTERNAL handshake (the kernel vouches
/// for the user), `Hello`, then calls and their replies, in the little-endian wire format.
/// What `dconf write` does through GLib, without starting a program for it.
struct DBusSession {
    private let socket: UnixSocket
    private var serial: UInt32 = 0
    /// Bytes received past the last message read.
    private var pending: [UInt8] = []
    let deadline: Double

    /// Why the bus could not be spoken to: the socket failed, closed, or said what a bus
    /// would not.
    struct Failure: Error {
        let reason: String
    }

    private init(socket: UnixSocket, deadline: Double) { (self.socket, self.deadline) = (socket, deadline) }

    /// A connection to the first `unix:` address of `address` that answers as a bus,
    /// greeted (its `Hello` answered), trying each in turn as libdbus does; when none
    /// does, the session cannot be reached (`noDesktop`, as GLib's tools say it).
    static func open(_ address: String, deadline: Double) throws(DesktopError) -> DBusSession {
        var reason = "it names no unix: socket"
        for place in places(address) {
            do throws(Failure) {
                let socket: UnixSocket
                do throws(Errno) { socket = try UnixSocket(path: place.path, abstract: place.abstract) } catch {
                    throw Failure(reason: error.message)
                }
                var session = DBusSession(socket: socket, deadline: deadline)
                try session.greet()
                return session
            } catch {
                reason = error.reason
            }
        }
        throw .noDesktop("the D-Bus session cannot be reached at DBUS_SESSION_BUS_ADDRESS (\(reason))")
    }

    /// The EXTERNAL handshake (the kernel vouches for this user), then `Hello`, answered.
    private mutating func greet() throws(Failure) {
        let uid = Array(String(FileSystem.userID).utf8)
        let hex = Array("0123456789abcdef".utf8)
        let id = uid.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }
        try send([0] + Array("AUTH EXTERNAL ".utf8) + id + Array("\r\n".utf8))
        let answer = try line()
        guard answer.starts(with: Array("OK ".utf8)) else {
            throw Failure(reason: "it refused this user: \(String(decoding: answer.prefix(80), as: UTF8.self))")
        }
        let hello = try send(
            Call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "Hello"),
            after: Array("BEGIN\r\n".utf8))
        if let error = try reply(to: hello) { throw Failure(reason: "it refused Hello: \(error.name)") }
    }

    /// Each `unix:path=` or `unix:abstract=` address, in order: its path or abstract name.
    static func places(_ address: String) -> [(path: [UInt8], abstract: Bool)] {
        var found: [(path: [UInt8], abstract: Bool)] = []
        for entry in address.split(separator: ";") where entry.hasPrefix("unix:") {
            for pair in entry.dropFirst(5).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0] == "path" || parts[0] == "abstract" else { continue }
                if let value = unescaped(parts[1]) { found.append((value, parts[0] == "abstract")) }
                break
            }
        }
        return found
    }

    /// A D-Bus address value with its `%XX` escapes undone.
    private static func unescaped(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let n = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            out.append(n)
            bytes = bytes.dropFirst(2)
        }
        return out
    }

    /// One line of the handshake, without its CRLF.
    private mutating func line() throws(Failure) -> [UInt8] {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<end])
                pending.removeSubrange(...end)
                return line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
            }
            try receive()
        }
    }

    private mutating func receive() throws(Failure) {
        let more: [UInt8]
        do throws(Errno) { more = try socket.receive(deadline: deadline) } catch {
            throw Failure(reason: error.rawValue == 110 ? "no answer in 30 s" : error.message)
        }
        guard !more.isEmpty else { throw Failure(reason: "it closed the connection") }
        pending += more
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        do throws(Errno) { try socket.send(bytes, deadline: deadline) } catch {
            throw Failure(reason: error.message)
        }
    }

    /// A method call.
    struct Call {
        let destination: String
        let path: String
        let interface: String
        let member: String
        var signature: String = ""
        var body: [UInt8] = []
    }

    /// Sends `call` (after `prefix`, raw bytes of the handshake) and returns its serial.
    private mutating func send(_ call: Call, after prefix: [UInt8] = []) throws(Failure) -> UInt32 {
        serial += 1
        var message = WireWriter()
        message.bytes = Array("l".utf8) + [1, 0, 1]
        message.uint32(UInt32(call.body.count))
        message.uint32(serial)
        var fields: [(UInt8, UInt8, String)] = [
            (1, UInt8(ascii: "o"), call.path), (2, UInt8(ascii: "s"), call.interface),
            (3, UInt8(ascii: "s"), call.member), (6, UInt8(ascii: "s"), call.destination),
        ]
        if !call.signature.isEmpty { fields.append((8, UInt8(ascii: "g"), call.signature)) }
        let lengthAt = message.bytes.count
        message.uint32(0)
        message.pad(8)
        let start = message.bytes.count
        for (code, type, value) in fields {
            message.pad(8)
            message.bytes += [code, 1, type, 0]
            if type == UInt8(ascii: "g") { message.signature(value) } else { message.string(value) }
        }
        message.set(UInt32(message.bytes.count - start), at: lengthAt)
        message.pad(8)
        try send(prefix + message.bytes + call.body)
        return serial
    }

    /// Calls a method and waits for its reply: nil when it returned, else the error's name
    /// and message. Throws when the bus fails or stops answering once the call is sent.
    mutating func call(_ call: Call) throws(Failure) -> (name: String, message: String)? {
        try reply(to: try send(call))
    }

    /// The reply to the call `serial`; signals and other replies on the way are passed over.
    private mutating func reply(to serial: UInt32) throws(Failure) -> (name: String, message: String)? {
        while true {
            let reply = try next()
            guard reply.replyTo == serial, reply.type == 2 || reply.type == 3 else { continue }
            return reply.type == 2 ? nil : (reply.errorName, reply.text)
        }
    }

    /// The next whole message's kind, the serial it answers, and an error's name and text.
    private mutating func next() throws(Failure) -> (type: UInt8, replyTo: UInt32, errorName: String, text: String) {
        while pending.count < 16 { try receive() }
        guard pending[0] == UInt8(ascii: "l") else {
            throw Failure(reason: "it answered in a byte order this client does not read")
        }
        let bodyLength = Int(WireReader.uint32(pending, 4)), fieldsLength = Int(WireReader.uint32(pending, 12))
        let bodyStart = VariantType.aligned(16 + fieldsLength, 8)
        // D-Bus's own limit on a message: 128 MiB.
        guard bodyLength <= 1 << 27, fieldsLength <= 1 << 27 else {
            throw Failure(reason: "it sent a message too big to be one")
        }
        while pending.count < bodyStart + bodyLength { try receive() }
        let message = Array(pending[..<(bodyStart + bodyLength)])
        pending.removeSubrange(..<(bodyStart + bodyLength))
        var reader = WireReader(bytes: message, at: 16)
        var replyTo: UInt32 = 0
        var errorName = "", signature = ""
        while reader.at < 16 + fieldsLength {
            reader.align(8)
            guard let code = reader.byte(), let type = reader.signature() else { break }
            switch type {
            case "u": if let n = reader.uint32(), code == 5 { replyTo = n }
            case "s", "o":
                let text = reader.string() ?? ""
                if code == 4 { errorName = text }
            case "g":
                let text = reader.signature() ?? ""
                if code == 8 { signature = text }
            default: throw Failure(reason: "it sent a header this client does not read")
            }
        }
        var body = WireReader(bytes: message, at: bodyStart)
        let text = signature.hasPrefix("s") ? body.string() ?? "" : ""
        return (message[1], replyTo, errorName, text)
    }
}

/// D-Bus's marshalling, written: each value at its alignment from the message's start (a
/// message's body starts on 8 bytes, so a body written alone aligns the same).
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func pad(_ alignment: Int) {
        bytes += repeatElement(0, count: VariantType.aligned(bytes.count, alignment) - bytes.count)
    }

    mutating func uint32(_ n: UInt32) {
        pad(4)
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) }
    }

    mutating func set(_ n: UInt32, at place: Int) {
        for i in 0..<4 { bytes[place + i] = UInt8(truncatingIfNeeded: n >> (8 * i)) }
    }

    mutating func string(_ text: String) {
        uint32(UInt32(text.utf8.count))
        bytes += Array(text.utf8) + [0]
    }

    mutating func signature(_ text: String) {
        bytes += [UInt8(text.utf8.count)] + Array(text.utf8) + [0]
    }
}

/// D-Bus's marshalling, read: nil past the end, never a trap.
private struct WireReader {
    let bytes: [UInt8]
    var at: Int

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    mutating func align(_ alignment: Int) { at = VariantType.aligned(at, alignment) }

    mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        at += 1
        return bytes[at - 1]
    }

    mutating func uint32() -> UInt32? {
        align(4)
        guard at + 4 <= bytes.count else { return nil }
        at += 4
        return Self.uint32(bytes, at - 4)
    }

    mutating func string() -> String? {
        guard let count = uint32().map(Int.init), at + count < bytes.count else { return nil }
        at += count + 1
        return String(decoding: bytes[(at - count - 1)..<(at - 1)], as: UTF8.self)
    }

    mutating func signature() -> String? {
        guard let count = byte().map(Int.init), at + count < bytes.count else { return nil }
        at += count + 1
        return String(decoding: bytes[(at - count - 1)..<(at - 1)], as: UTF8.self)
    }
}
