#if canImport(Glibc)
    import Glibc
#endif

/// Transparent huge pages for the large buffers a raw file is read and decoded into (48 MB each for a 24 MP
/// frame): `madvise(MADV_HUGEPAGE)` before the first write, so the kernel faults them in 2 MiB at a time instead of
/// 4 KiB (12,000 faults for 48 MB were the largest cost of `rawcap convert`'s reading, issue 7). Advisory: where the
/// kernel has transparent huge pages off, or the call fails, nothing changes.
public enum HugePages {
    /// Buffers smaller than this are left alone (a huge page is 2 MiB).
    public static let minimumByteCount = 8 << 20

    /// Advises huge pages for the 2 MiB-aligned part of `buffer`, which nothing has touched yet.
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            guard let base = buffer.baseAddress, buffer.count >= minimumByteCount else { return }
            let huge = 2 << 20
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }
}
