/// `watch --exec`'s rules: what its command finds in its environment.
package enum WatchExec {
    /// The most bytes `SETTINGS_CHANGED` holds: 64 KiB, half of what Linux lets one
    /// variable be (MAX_ARG_STRLEN, 128 KiB with its name): past that the command could
    /// not be started at all (E2BIG). Its standard input always has every line.
    package static let changedLimit = 65536

    /// `SETTINGS_CHANGED`, the changed pointers one a line, as many whole ones as fit in
    /// `changedLimit` bytes, and `SETTINGS_CHANGED_CUT`, how many were left out; nil (unset,
    /// though the watch's own environment had it) when none was.
    package static func changedVariables(_ pointers: [String]) -> [String: String?] {
        var value = ""
        var size = 0, kept = 0
        for pointer in pointers {
            let more = pointer.utf8.count + (kept > 0 ? 1 : 0)
            guard size + more <= changedLimit else { break }
            if kept > 0 { value += "\n" }
            value += pointer
            size += more
            kept += 1
        }
        return [
            "SETTINGS_CHANGED": value,
            "SETTINGS_CHANGED_CUT": kept < pointers.count ? String(pointers.count - kept) : nil,
        ]
    }
}
