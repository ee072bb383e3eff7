import DNG
import OutputFiles
import Testing

/// NewRawImageDigest's tiling, byte order and plane order, on inputs small enough to assemble the hashed bytes by
/// hand; the interop suite checks it again against an independent Python implementation on written files.
@Suite struct RawImageDigestTests {
    private func md5(_ bytes: [UInt8]) -> [UInt8] { MessageDigest.hash(.md5, bytes) }

    private func digest(_ samples: [UInt16], width: Int, height: Int, planes: Int = 1, bytes: Int = 2, threads: Int = 2)
        -> [UInt8]
    {
        samples.withUnsafeBufferPointer {
            RawImageDigest.compute(
                samples: $0, width: width, height: height, planes: planes, bytesPerSample: bytes, threadCount: threads)
        }
    }

    @Test func messageDigestsMatchTheirStandardVectors() {
        // RFC 1321 §A.5 and FIPS 180-2 appendix B.1, message "abc".
        #expect(MessageDigest.hex(MessageDigest.hash(.md5, Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(
            MessageDigest.hex(MessageDigest.hash(.sha256, Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let streamed = MessageDigest(.sha256)
        streamed.update(Array("a".utf8))
        streamed.update(Array("bc".utf8))
        #expect(streamed.finalize() == MessageDigest.hash(.sha256, Array("abc".utf8)))
    }

    @Test func onePixelIsTheDigestOfOneTileDigest() {
        #expect(digest([0x1234], width: 1, height: 1) == md5(md5([0x34, 0x12])))
    }

    @Test func tilesAre256WideAndClippedAtTheEdge() {
        // 300 × 2: one full tile of 256 × 2 and a clipped tile of 44 × 2, hashed row by row within each tile.
        let width = 300
        let samples = (0..<(width * 2)).map { UInt16($0 * 3) }
        func tileBytes(_ columns: Range<Int>) -> [UInt8] {
            (0..<2).flatMap { row in
                columns.flatMap { column -> [UInt8] in
                    let value = samples[row * width + column]
                    return [UInt8(value & 0xFF), UInt8(value >> 8)]
                }
            }
        }
        let expected = md5(md5(tileBytes(0..<256)) + md5(tileBytes(256..<300)))
        #expect(digest(samples, width: width, height: 2) == expected)
    }

    @Test func tilesAre256HighToo() {
        let samples = (0..<(2 * 257)).map { UInt16($0) }
        let top = samples.prefix(2 * 256).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bottom = samples.suffix(2).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(digest(samples, width: 2, height: 257) == md5(md5(top) + md5(bottom)))
    }

    @Test func planesAreHashedOneAfterAnother() {
        // Two RGB pixels, interleaved in memory, hashed as R R G G B B.
        let samples: [UInt16] = [1, 2, 3, 4, 5, 6]
        let planar: [UInt8] = [1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, 0]
        #expect(digest(samples, width: 2, height: 1, planes: 3) == md5(md5(planar)))
    }

    @Test func eightBitDataIsHashedAsBytes() {
        #expect(digest([7, 200, 255], width: 3, height: 1, bytes: 1) == md5(md5([7, 200, 255])))
    }

    /// The SDK's algorithm written plainly with one OpenSSL MD5 per tile, fed row by row: the oracle for the
    /// multi-lane kernels.
    private func reference(_ samples: [UInt16], width: Int, height: Int, planes: Int, bytes: Int) -> [UInt8] {
        let tileWidth = min(256, width)
        let tileHeight = min(256, height)
        var tileDigests: [UInt8] = []
        for y0 in stride(from: 0, to: height, by: tileHeight) {
            for x0 in stride(from: 0, to: width, by: tileWidth) {
                let md5 = MessageDigest(.md5)
                for plane in 0..<planes {
                    for row in y0..<min(height, y0 + tileHeight) {
                        var rowBytes: [UInt8] = []
                        for column in x0..<min(width, x0 + tileWidth) {
                            let value = samples[(row * width + column) * planes + plane]
                            rowBytes.append(UInt8(value & 0xFF))
                            if bytes == 2 { rowBytes.append(UInt8(value >> 8)) }
                        }
                        md5.update(rowBytes)
                    }
                }
                tileDigests += md5.finalize()
            }
        }
        return md5(tileDigests)
    }

    /// Shapes that exercise the kernels' paths: one tile, blocks that straddle rows (rows of 74, 94 or 600 bytes),
    /// clipped right and bottom tiles, batches partly filled, more tiles of one shape than a kernel has lanes.
    static let shapes: [(width: Int, height: Int)] = [(1, 1), (37, 5), (47, 300), (300, 2), (513, 257), (1300, 700)]

    @Test(arguments: RawImageDigest.Kernel.allCases)
    func everyKernelMatchesOneMD5PerTile(kernel: RawImageDigest.Kernel) {
        // An unsupported kernel falls back to the best one, which is then what this checks.
        for (width, height) in Self.shapes {
            for (planes, bytes) in [(1, 2), (1, 1), (2, 2), (3, 2), (3, 1)] {
                let maximum = bytes == 1 ? 255 : 65535
                let samples = TestImages.samples(count: width * height * planes, maximum: maximum, seed: UInt64(width + planes))
                let expected = reference(samples, width: width, height: height, planes: planes, bytes: bytes)
                let computed = samples.withUnsafeBufferPointer {
                    RawImageDigest.compute(
                        samples: $0, width: width, height: height, planes: planes, bytesPerSample: bytes,
                        threadCount: 2, kernel: kernel)
                }
                #expect(computed == expected, "\(kernel) on \(width)×\(height), \(planes) planes, \(bytes) bytes")
            }
        }
    }

    @Test func theBestKernelIsSupported() {
        #expect(RawImageDigest.Kernel.best.isSupported && RawImageDigest.Kernel.portable.isSupported)
    }

    @Test func theThreadCountDoesNotChangeTheDigest() {
        let samples = TestImages.samples(count: 700 * 530, maximum: 16383, seed: 5)
        let one = digest(samples, width: 700, height: 530, threads: 1)
        #expect(digest(samples, width: 700, height: 530, threads: 3) == one)
        #expect(digest(samples, width: 700, height: 530, threads: 16) == one)
    }
}
