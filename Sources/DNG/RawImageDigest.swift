import CMultiMD5
import OutputFiles

/// DNG's NewRawImageDigest (tag 51111): an MD5 of the raw image's samples, computed tile by tile as the Adobe DNG SDK
/// does it, so that readers such as `dng_validate` can check that the pixel data is intact (DNG 1.7 p.65; dng-facts.md
/// fact 3).
///
/// The algorithm, from the SDK's `dng_negative::FindNewRawImageDigest` and `FindFastImageDigest`:
///
/// | step | what |
/// |---|---|
/// | grid | the whole stored raw image (masked borders included) is cut into tiles of `min(256, height)` rows × `min(256, width)` columns, from the top-left; edge tiles are clipped, not padded |
/// | tile bytes | the tile's samples plane by plane (all of plane 0, then plane 1 …), each plane row by row; samples of 9–16 bits as 2 bytes little-endian, 8-bit samples (or data whose LinearizationTable has ≤ 256 entries) as 1 byte |
/// | tile digest | MD5 of the tile bytes |
/// | result | MD5 of the 16-byte tile digests concatenated in row-major tile order |
///
/// The tile MD5s are independent messages of equal length, so they are computed side by side, one tile per SIMD lane
/// (`CMultiMD5`: 8, 16 or 32 tiles per call, by instruction set): OpenSSL's MD5 is one serial chain of about five
/// cycles per byte, which made the digest cost as much CPU as writing the file. Batches of tiles of the same shape
/// are hashed in parallel on `threadCount` threads; the result depends on neither the thread count nor the kernel.
public enum RawImageDigest {
    /// The SDK's tile size (`kTileSize` in `dng_find_new_raw_image_digest_task`).
    public static let tileSize = 256

    /// The SIMD kernel that hashes the tiles. ``best`` is what rawcap uses; the others exist so that tests can check
    /// every kernel the processor has against the same digests.
    public enum Kernel: CaseIterable, Sendable, Hashable {
        /// The widest kernel the processor supports.
        case best
        /// 8 lanes of portable vector code (SSE2, NEON): every processor.
        case portable
        /// 16 lanes of AVX2 (x86-64).
        case avx2
        /// 32 lanes of AVX-512F (x86-64).
        case avx512

        /// Whether this processor can run the kernel.
        public var isSupported: Bool { rc_md5_lanes_supported(cKernel) != 0 }

        /// Tiles hashed per call.
        var lanes: Int { rc_md5_lanes_width(cKernel) }

        var cKernel: rc_md5_lanes_kernel {
            switch self {
            case .best: RC_MD5_LANES_BEST
            case .portable: RC_MD5_LANES_PORTABLE
            case .avx2: RC_MD5_LANES_AVX2
            case .avx512: RC_MD5_LANES_AVX512
            }
        }
    }

    /// Tile bytes that one batch of the packing path may copy (per thread): enough for 16 tiles of 16-bit CFA data,
    /// 5 of 16-bit RGB.
    static let packingBudget = 2 << 20

    /// The digest of `samples`: `width × height` pixels of `planes` interleaved samples each.
    ///
    /// - Parameters:
    ///   - bytesPerSample: 1 or 2, as the SDK would read the file back (see the type's table).
    ///   - kernel: the SIMD kernel; an unsupported one falls back to ``Kernel/best``.
    public static func compute(
        samples: UnsafeBufferPointer<UInt16>, width: Int, height: Int, planes: Int, bytesPerSample: Int,
        threadCount: Int, kernel: Kernel = .best
    ) -> [UInt8] {
        precondition(width > 0 && height > 0 && planes > 0 && samples.count == width * height * planes)
        precondition(bytesPerSample == 1 || bytesPerSample == 2, "bytesPerSample must be 1 or 2")
        guard let base = samples.baseAddress else { preconditionFailure("a non-empty buffer has an address") }
        let tileWidth = min(tileSize, width)
        let tileHeight = min(tileSize, height)
        let across = (width + tileWidth - 1) / tileWidth
        let down = (height + tileHeight - 1) / tileHeight
        // The common case: a CFA row segment of a little-endian host is already the bytes the SDK hashes, so the
        // lanes read the frame in place; anything else is first packed into the hashed byte order.
        let inPlace = planes == 1 && bytesPerSample == 2 && UInt16(littleEndian: 1) == 1
        let fullTileBytes = tileWidth * tileHeight * planes * bytesPerSample
        let batchSize = inPlace ? kernel.lanes : max(1, min(kernel.lanes, packingBudget / fullTileBytes))
        let batches = TileBatch.make(
            across: across, down: down, batchSize: batchSize,
            shape: { column, row in
                (min(tileWidth, width - column * tileWidth), min(tileHeight, height - row * tileHeight))
            })
        var tileDigests = [UInt8](repeating: 0, count: across * down * 16)
        tileDigests.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            ParallelLoop.run(iterations: batches.count, threads: threadCount) { index in
                let batch = batches[index]
                var digests = [UInt8](repeating: 0, count: batch.tiles.count * 16)
                let rowBytes = batch.columns * bytesPerSample
                if inPlace {
                    let starts = batch.tiles.map { tile in
                        UnsafeRawPointer(base + (tile / across) * tileHeight * width + (tile % across) * tileWidth)
                            .assumingMemoryBound(to: UInt8.self)
                    }
                    hash(starts, rowBytes: rowBytes, rows: batch.rows, stride: width * 2, kernel, into: &digests)
                } else {
                    let tileBytes = rowBytes * batch.rows * planes
                    var packed = [UInt8](repeating: 0, count: tileBytes * batch.tiles.count)
                    packed.withUnsafeMutableBufferPointer { packed in
                        guard let packedBase = packed.baseAddress else { return }
                        for (slot, tile) in batch.tiles.enumerated() {
                            pack(
                                from: base + ((tile / across) * tileHeight * width + (tile % across) * tileWidth)
                                    * planes,
                                width: width, planes: planes, bytesPerSample: bytesPerSample, columns: batch.columns,
                                rows: batch.rows, into: packedBase + slot * tileBytes)
                        }
                        let starts = batch.tiles.indices.map { UnsafePointer(packedBase + $0 * tileBytes) }
                        hash(starts, rowBytes: tileBytes, rows: 1, stride: tileBytes, kernel, into: &digests)
                    }
                }
                for (slot, tile) in batch.tiles.enumerated() {
                    for byte in 0..<16 { output[tile * 16 + byte] = digests[slot * 16 + byte] }
                }
            }
        }
        return MessageDigest.hash(.md5, tileDigests)
    }

    /// One call of the multi-lane MD5: `starts.count` messages of `rows` rows of `rowBytes` bytes at `stride`.
    private static func hash(
        _ starts: [UnsafePointer<UInt8>], rowBytes: Int, rows: Int, stride: Int, _ kernel: Kernel,
        into digests: inout [UInt8]
    ) {
        starts.map { Optional($0) }.withUnsafeBufferPointer { starts in
            digests.withUnsafeMutableBufferPointer { digests in
                rc_md5_lanes(
                    kernel.cKernel, starts.baseAddress, starts.count, rowBytes, rows, stride, digests.baseAddress)
            }
        }
    }

    /// Copies one tile into the SDK's hashed byte order: plane by plane, row by row, little-endian or byte samples.
    private static func pack(
        from origin: UnsafePointer<UInt16>, width: Int, planes: Int, bytesPerSample: Int, columns: Int, rows: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        var output = destination
        for plane in 0..<planes {
            for row in 0..<rows {
                var input = origin + row * width * planes + plane
                if bytesPerSample == 2 {
                    for _ in 0..<columns {
                        let value = input.pointee
                        output[0] = UInt8(truncatingIfNeeded: value)
                        output[1] = UInt8(truncatingIfNeeded: value >> 8)
                        output += 2
                        input += planes
                    }
                } else {
                    for _ in 0..<columns {
                        output.pointee = UInt8(truncatingIfNeeded: input.pointee)
                        output += 1
                        input += planes
                    }
                }
            }
        }
    }
}
