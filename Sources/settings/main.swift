#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Past `ulimit -f` a write fails with EFBIG, which is reported, instead of the signal
// ending the process with no word and a temporary file left behind.
signal(SIGXFSZ, SIG_IGN)
exit(CLI.run(CLI.arguments()))
