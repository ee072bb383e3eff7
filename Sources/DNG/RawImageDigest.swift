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
/// The tiles are hashed in parallel; the result does not depend on the thread count.
public enum RawImageDigest {
    /// The SDK's tile size (`kTileSize` in `dng_find_new_raw_image_digest_task`).
    public static let tileSize = 256

    /// The digest of `samples`: `width × height` pixels of `planes` interleaved samples each.
    ///
    /// - Parameter bytesPerSample: 1 or 2, as the SDK would read the file back (see the type's table).
    public static func compute(
        samples: UnsafeBufferPointer<UInt16>, width: Int, height: Int, planes: Int, bytesPerSample: Int,
        threadCount: Int
    ) -> [UInt8] {
        precondition(width > 0 && height > 0 && planes > 0 && samples.count == width * height * planes)
        precondition(bytesPerSample == 1 || bytesPerSample == 2, "bytesPerSample must be 1 or 2")
        let tileWidth = min(tileSize, width)
        let tileHeight = min(tileSize, height)
        let across = (width + tileWidth - 1) / tileWidth
        let down = (height + tileHeight - 1) / tileHeight
        let tileCount = across * down
        let hostIsLittleEndian = UInt16(littleEndian: 1) == 1
        var tileDigests = [UInt8](repeating: 0, count: tileCount * 16)
        tileDigests.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            ParallelLoop.run(iterations: tileCount, threads: threadCount) { tile in
                let x0 = (tile % across) * tileWidth
                let y0 = (tile / across) * tileHeight
                let columns = min(tileWidth, width - x0)
                let rows = min(tileHeight, height - y0)
                let md5 = MessageDigest(.md5)
                if planes == 1 && bytesPerSample == 2 && hostIsLittleEndian {
                    // The common case: a CFA row segment is already the bytes the SDK hashes.
                    for row in y0..<(y0 + rows) {
                        let start = row * width + x0
                        md5.update(
                            UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: samples[start..<(start + columns)])))
                    }
                } else {
                    var rowBytes = [UInt8](repeating: 0, count: columns * bytesPerSample)
                    for plane in 0..<planes {
                        for row in y0..<(y0 + rows) {
                            for column in 0..<columns {
                                let value = samples[((row * width) + x0 + column) * planes + plane]
                                if bytesPerSample == 2 {
                                    rowBytes[2 * column] = UInt8(truncatingIfNeeded: value)
                                    rowBytes[2 * column + 1] = UInt8(truncatingIfNeeded: value >> 8)
                                } else {
                                    rowBytes[column] = UInt8(truncatingIfNeeded: value)
                                }
                            }
                            rowBytes.withUnsafeBytes { md5.update($0) }
                        }
                    }
                }
                let digest = md5.finalize()
                for index in 0..<16 { output[tile * 16 + index] = digest[index] }
            }
        }
        return MessageDigest.hash(.md5, tileDigests)
    }
}
