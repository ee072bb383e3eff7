import Dispatch

/// A pointer that may cross into the closures of ``Parallel/forEachChunk(of:minimumChunk:_:)``.
///
/// Only the pixel hot paths use it, and each chunk writes a disjoint range of rows, so no two threads touch
/// the same element (STYLE.md §1: unsafe pointers are confined to audited pixel loops).
package struct UnsafeSendablePointer<Element>: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Element>
    package init(_ base: UnsafeMutablePointer<Element>) { self.base = base }
}

/// Read-only counterpart of ``UnsafeSendablePointer``.
package struct UnsafeSendableReadPointer<Element>: @unchecked Sendable {
    package let base: UnsafePointer<Element>
    package init(_ base: UnsafePointer<Element>) { self.base = base }
}

/// Row-parallel loops over the machine's cores.
package enum Parallel {
    /// Splits `0..<count` into contiguous chunks (a few per core, so uneven rows still balance) and runs `body`
    /// on each, concurrently. Small jobs run inline: starting threads costs more than a few rows.
    package static func forEachChunk(of count: Int, minimumChunk: Int = 16, _ body: @Sendable (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkCount = min(max(1, count / max(1, minimumChunk)), ProcessInfoCores.count * 4)
        guard chunkCount > 1 else {
            body(0..<count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = count * chunk / chunkCount
            let end = count * (chunk + 1) / chunkCount
            if start < end { body(start..<end) }
        }
    }
}

/// The number of cores to spread work over, read once (also what RawDecoders splits file reading by).
public enum ProcessInfoCores {
    /// Cores online.
    public static let count: Int = {
        #if canImport(Glibc)
            let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
            return online > 0 ? Int(online) : 1
        #else
            return 4
        #endif
    }()
}

#if canImport(Glibc)
    import Glibc
#endif
