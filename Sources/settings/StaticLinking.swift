#if STATIC_EXECUTABLE
    /// The release binary is linked fully static (Package.swift). There glibc's `dlopen` can
    /// only load libraries built against the very glibc it was linked with, so the link warns
    /// and the binary would depend on that glibc after all. Nothing of ours loads code; the one
    /// caller the static Swift runtime links in (LibPrespecialized, an optional cache of
    /// prespecialised generic metadata, looked up at start-up) treats failure as "none". So the
    /// executable defines `dlopen` itself, answering every call with failure, and glibc's is
    /// never linked. Debug builds link dynamically and keep the real one.
    @_cdecl("dlopen")
    func refuseDynamicLoading(_ path: UnsafePointer<CChar>?, _ mode: CInt) -> UnsafeMutableRawPointer? {
        nil
    }
#endif
