#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

ProcessPolicy.adopt()
exit(CLI.run(CLI.arguments()))
