#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The CPUs the calling thread may run on (`sched_getaffinity`, which Glibc's module
/// leaves out): where a thread was placed, for the tests of who places threads.
public enum CPUs {
    public static func allowed() -> Set<Int> {
        var mask = [UInt8](repeating: 0, count: 128)
        guard sched_getaffinity(0, mask.count, &mask) == 0 else { return [] }
        return Set((0..<mask.count * 8).filter { mask[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 })
    }
}

@_extern(c, "sched_getaffinity") private func sched_getaffinity(
    _ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer
) -> CInt
