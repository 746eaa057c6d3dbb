// SettingsKit is for Linux: it shares the files Foundation's UserDefaults keeps in
// $XDG_CONFIG_HOME, watches them with inotify and locks them through Glibc. On other
// platforms, say so at once rather than with the first missing Glibc symbol; there,
// UserDefaults already shares its files with `defaults`.
#if !os(Linux)
    #error("SettingsKit runs on Linux only (Glibc, inotify); on Apple platforms use UserDefaults")
#endif
