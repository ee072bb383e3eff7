import Foundation
import Testing

@testable import RawImage

/// `HugePages.advise` marks a large buffer's mapping for transparent huge pages (VmFlags `hg` in
/// /proc/self/smaps) and leaves small ones alone.
@Suite struct HugePagesTests {
    /// The VmFlags of the mapping that holds `address`.
    private static func flags(of address: UnsafeRawPointer) throws -> [String] {
        // Read to the end with read(2): /proc files report size 0, and reading by that size sees one page.
        let descriptor = open("/proc/self/smaps", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        let smaps = String(decoding: bytes, as: UTF8.self)
        let target = UInt(bitPattern: address)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let bounds = (fields.first ?? "").split(separator: "-").compactMap { UInt($0, radix: 16) }
            if bounds.count == 2 {
                inside = bounds[0] <= target && target < bounds[1]
            } else if inside && line.hasPrefix("VmFlags:") {
                return fields.dropFirst().map(String.init)
            }
        }
        return []
    }

    /// Kernels built without transparent huge pages refuse the advice (and have no such flag to see).
    static let kernelHasHugePages = FileManager.default.fileExists(
        atPath: "/sys/kernel/mm/transparent_hugepage/enabled")

    @Test(.enabled(if: kernelHasHugePages)) func aLargeBufferIsAdvisedAndASmallOneIsNot() throws {
        let large = [UInt8](unsafeUninitializedCapacity: 48 << 20) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            initialized = 0
        }
        try large.withUnsafeBufferPointer { buffer in
            let middle = try #require(buffer.baseAddress?.advanced(by: 24 << 20))
            // The array's count is 0; its storage (capacity) holds the address.
            #expect(try Self.flags(of: UnsafeRawPointer(middle)).contains("hg"))
        }
        var small = [UInt8](repeating: 1, count: 1 << 20)
        small.withUnsafeMutableBytes { HugePages.advise($0) }  // below the minimum: no call, no crash
        #expect(small.allSatisfy { $0 == 1 })
        HugePages.advise(UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }
}
