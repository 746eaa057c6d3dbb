#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Synchronization

/// What only a program may choose for its whole process: where threads run, how malloc
/// grows, what a signal does. The libraries offer the hooks and never set them, so a Swift
/// program that links SettingsCore or SettingsKit keeps its own signal handlers, malloc
/// settings and thread placement; the `settings` executable sets them (`ProcessPolicy`).
package enum ProgramChoices {
    /// Called with a new `Background` thread's attributes before it is started (the
    /// program may place it, or tune malloc for a second thread's heap). Unset, the thread
    /// starts as the system starts any.
    package static let threadSetup = Mutex<(@Sendable (inout pthread_attr_t) -> Void)?>(nil)

    /// Called with a file's path when `MappedFile` maps it, and with nil when it unmaps it.
    /// Unset, no file is mapped and callers read files whole: a mapped file that another
    /// program cuts short raises SIGBUS at the next look past its new end, and only a
    /// program that catches that signal (and names the file from this hook) may map.
    package static let mappings = Mutex<(@Sendable (String?) -> Void)?>(nil)
}
