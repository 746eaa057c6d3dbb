#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connected local stream socket (`AF_UNIX`), for a client of a session's D-Bus: bytes
/// sent and received within a deadline, never a signal (`MSG_NOSIGNAL`: a peer that went
/// away is an error, not SIGPIPE), closed with its owner.
package final class UnixSocket {
    private let fd: CInt

    /// Connects to the socket at `path`, or with `abstract` to the name in Linux's abstract
    /// namespace (no file: its first byte is NUL on the wire).
    package init(path: [UInt8], abstract: Bool) throws(Errno) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = (abstract ? [0] : []) + path
        // Room for the NUL a path ends with; an abstract name has none.
        guard !name.isEmpty, name.count + (abstract ? 0 : 1) <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw Errno(ENAMETOOLONG)
        }
        _ = memcpy(&address.sun_path, name, name.count)
        fd = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno.current }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1))
        while true {
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
            }
            if status == 0 { return }
            if errno == EINTR { continue }
            let error = Errno.current
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Sends every byte of `bytes`, waiting while the socket is full, until `deadline`
    /// (`FileSystem.monotonicSeconds()`); ETIMEDOUT past it.
    package func send(_ bytes: [UInt8], deadline: Double) throws(Errno) {
        var sent = 0
        while sent < bytes.count {
            let n =
                bytes[sent...].withContiguousStorageIfAvailable {
                    Glibc.send(fd, $0.baseAddress, $0.count, CInt(MSG_NOSIGNAL) | CInt(MSG_DONTWAIT))
                } ?? -1
            if n > 0 {
                sent += n
            } else if errno == EAGAIN || errno == EINTR {
                try wait(Int16(POLLOUT), deadline)
            } else {
                throw Errno.current
            }
        }
    }

    /// The bytes that arrive next (at most `limit`), waiting until `deadline`; empty when
    /// the peer closed the connection.
    package func receive(limit: Int = 65536, deadline: Double) throws(Errno) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let n = recv(fd, &buffer, limit, CInt(MSG_DONTWAIT))
            if n >= 0 { return Array(buffer[..<n]) }
            guard errno == EAGAIN || errno == EINTR else { throw Errno.current }
            try wait(Int16(POLLIN), deadline)
        }
    }

    /// Waits for the socket to be ready for `events`, or throws ETIMEDOUT at `deadline`.
    private func wait(_ events: Int16, _ deadline: Double) throws(Errno) {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let left = deadline - FileSystem.monotonicSeconds()
            guard left > 0 else { throw Errno(ETIMEDOUT) }
            let n = poll(&entry, 1, CInt(min(left * 1000 + 1, 60_000)))
            if n > 0 { return }
            if n < 0, errno != EINTR { throw Errno.current }
        }
    }
}
