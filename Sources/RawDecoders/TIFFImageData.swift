import LosslessJPEG
import RawImage
import WireFormat

/// Reads the samples of one IFD's image from the file's bytes: strips or tiles, uncompressed (8/16-bit or
/// bit-packed 9…15-bit) or lossless JPEG, assembled into one row-major array of stored values.
///
/// Nothing is applied to the values: no linearization, no black subtraction, no scaling (the caller decides, see
/// ``DecodedRaw/linearizationTable``). Every size is checked against ``WireFormat/WireLimits`` and every strip or
/// tile against the file before anything is allocated or read.
enum TIFFImageData {
    /// The samples of `directory`'s image: `width × height × samplesPerPixel` values, interleaved, row-major.
    ///
    /// - Throws: ``DecodeError`` `.tooLarge` past ``WireFormat/WireLimits/maxImageDimension`` or
    ///   ``WireFormat/WireLimits/maxImagePixels``, `.unsupported` for layouts and compressions rawcap does not
    ///   read, `.truncated` when a strip or tile lies beyond the end of the file or holds too few bytes,
    ///   `.corrupt` when a strip or tile table does not match the image.
    static func samples(
        of directory: TIFFDirectory, in bytes: ArraySlice<UInt8>, byteOrder: ByteOrder
    ) throws(DecodeError) -> [UInt16] {
        try samplesAndMaximum(of: directory, in: bytes, byteOrder: byteOrder).samples
    }

    /// The samples, as ``samples(of:in:byteOrder:)``, and the largest of them, found while each block is still in
    /// the cache rather than in another pass over the image.
    static func samplesAndMaximum(
        of directory: TIFFDirectory, in bytes: ArraySlice<UInt8>, byteOrder: ByteOrder
    ) throws(DecodeError) -> (samples: [UInt16], maximum: UInt16) {
        let geometry = try Geometry(directory)
        try checkDataHoldsTheImage(directory, geometry: geometry, in: bytes)
        var failure: DecodeError?
        var maximum: UInt16 = 0
        // Not zeroed first: every block writes all of its visible samples or throws, the blocks cover the image, and
        // on a failure the array is thrown away. The blocks are independent, so each core takes a contiguous run
        // of them (faulting in fresh pages is most of the cost of a large uncompressed image).
        let samples = [UInt16](unsafeUninitializedCapacity: geometry.sampleCount) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            nonisolated(unsafe) let output = buffer
            let blocksPerPiece = max(1, parallelSampleMinimum / max(1, geometry.sampleCount / geometry.blockCount))
            let pieces = ParallelRanges.map(geometry.blockCount, minimum: blocksPerPiece) {
                blocks -> (failure: DecodeError?, maximum: UInt16) in
                var maximum: UInt16 = 0
                do throws(DecodeError) {
                    for block in blocks {
                        try decodeBlock(
                            block, of: directory, geometry: geometry, in: bytes, byteOrder: byteOrder, into: output)
                        maximum = max(maximum, largestSample(in: geometry.region(ofBlock: block), of: geometry, output))
                    }
                    return (nil, maximum)
                } catch {
                    return (error, maximum)
                }
            }
            // Each piece stops at its first failing block, so the first failure in piece order is the one a
            // block-by-block decode would have met first.
            failure = pieces.lazy.compactMap(\.failure).first
            maximum = pieces.map(\.maximum).max() ?? 0
            initialized = failure == nil ? geometry.sampleCount : 0
        }
        if let failure { throw failure }
        return (samples, maximum)
    }

    /// The fewest bytes a lossless JPEG block of `samples` samples can hold: every sample costs at least one bit
    /// (a Huffman code is never shorter, ITU T.81 Annex C).
    static func minimumLosslessJPEGBytes(samples: Int) -> Int { (samples + 7) / 8 }

    /// Refuses, before the image is allocated, data that cannot hold the image it claims, so that memory stays
    /// bounded by what the file really holds (issue 17: a 57 KB file of 6,096 lossless tiles that all point at one
    /// 8 KB tile claimed 32512×12288 pixels, 800 MB of samples, 8 GB once rendered):
    /// - every strip or tile lies inside the file (`.truncated`);
    /// - no two share bytes (`.corrupt`): each block's data is its own, as TIFF 6.0 §15 lays them out;
    /// - a lossless JPEG block has at least one bit per sample (`.corrupt`); an uncompressed one is checked for its
    ///   exact size when it is unpacked.
    static func checkDataHoldsTheImage(
        _ directory: TIFFDirectory, geometry: Geometry, in bytes: ArraySlice<UInt8>
    ) throws(DecodeError) {
        switch directory.compression {
        case .none: break
        case .jpeg:
            // Lossy JPEG tiles (a CinemaDNG's SOF1) are refused here, before anything is allocated, as what they
            // are: a form rawcap's reader does not decode (RawDecoder then hands the file to LibRaw).
            if let first = try? blockBytes(directory, index: 0, in: bytes) {
                do throws(LJ92Error) {
                    _ = try LJ92Decoder.frameHeader(of: first)
                } catch where error.code == .unsupportedProcess {
                    throw DecodeError(
                        .unsupported, at: error.offset,
                        "\(directory.path): lossless JPEG strip/tile at (0, 0): \(error.detail.isEmpty ? "\(error.code)" : error.detail)")
                } catch {
                    // Anything else wrong with it is reported where the block is decoded.
                }
            }
        default:
            throw DecodeError(
                .unsupported, "\(directory.path): compression \(directory.compression) is not read by rawcap")
        }
        var ranges: [(start: UInt64, end: UInt64, block: Int)] = []
        ranges.reserveCapacity(geometry.blockCount)
        let blockSamples = geometry.blockWidth * geometry.blockHeight * geometry.samplesPerPixel
        for block in 0..<geometry.blockCount {
            let offset = directory.dataOffsets[block]
            let count = directory.dataByteCounts[block]
            let (end, overflow) = offset.addingReportingOverflow(count)
            guard !overflow, end <= UInt64(bytes.count) else {
                throw DecodeError(
                    .truncated, at: Int(exactly: offset),
                    "\(directory.path): strip/tile \(block) (\(count) bytes at \(offset)) ends beyond the \(bytes.count)-byte file"
                )
            }
            if directory.compression == .jpeg {
                // Strips: the last one holds only the rows left.
                let samples =
                    geometry.isTiled ? blockSamples : geometry.region(ofBlock: block).storedHeight * geometry.width
                        * geometry.samplesPerPixel
                guard count >= UInt64(minimumLosslessJPEGBytes(samples: samples)) else {
                    throw DecodeError(
                        .corrupt, at: Int(exactly: offset),
                        "\(directory.path): strip/tile \(block) holds \(count) bytes, too few for \(samples) samples of lossless JPEG"
                    )
                }
            }
            if count > 0 { ranges.append((offset, end, block)) }
        }
        ranges.sort { $0.start < $1.start }
        for (previous, next) in zip(ranges, ranges.dropFirst()) where next.start < previous.end {
            throw DecodeError(
                .corrupt, at: Int(exactly: next.start),
                "\(directory.path): strips/tiles \(previous.block) and \(next.block) share bytes \(next.start)…; each must hold data of its own"
            )
        }
    }

    /// The largest sample of a block's visible part of `output`.
    private static func largestSample(
        in region: Region, of geometry: Geometry, _ output: UnsafeMutableBufferPointer<UInt16>
    ) -> UInt16 {
        guard let base = output.baseAddress else { return 0 }
        let spp = geometry.samplesPerPixel
        var largest: UInt16 = 0
        for row in region.y..<(region.y + region.visibleHeight) {
            let start = base + (row * geometry.width + region.x) * spp
            // A branch-free maximum vectorises.
            largest = UnsafeBufferPointer(start: start, count: region.visibleWidth * spp).reduce(largest) {
                Swift.max($0, $1)
            }
        }
        return largest
    }

    /// Images with fewer samples than twice this are unpacked by one thread.
    static let parallelSampleMinimum = 4 << 20

    /// Decodes strip or tile `block` into its place in `output`.
    private static func decodeBlock(
        _ block: Int, of directory: TIFFDirectory, geometry: Geometry, in bytes: ArraySlice<UInt8>,
        byteOrder: ByteOrder, into output: UnsafeMutableBufferPointer<UInt16>
    ) throws(DecodeError) {
        let data = try blockBytes(directory, index: block, in: bytes)
        let region = geometry.region(ofBlock: block)
        switch directory.compression {
        case .none:
            try Unpacker.unpack(data, geometry: geometry, region: region, byteOrder: byteOrder, into: output)
        case .jpeg:
            try LosslessJPEGBlock.decode(data, geometry: geometry, region: region, into: output)
        default:
            throw DecodeError(
                .unsupported, "\(directory.path): compression \(directory.compression) is not read by rawcap")
        }
    }

    /// The bytes of strip or tile `index`, checked against the file.
    private static func blockBytes(
        _ directory: TIFFDirectory, index: Int, in bytes: ArraySlice<UInt8>
    ) throws(DecodeError) -> ArraySlice<UInt8> {
        guard index < directory.dataOffsets.count, index < directory.dataByteCounts.count else {
            throw DecodeError(.corrupt, "\(directory.path): no offset or byte count for strip/tile \(index)")
        }
        let offset = directory.dataOffsets[index]
        let count = directory.dataByteCounts[index]
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= UInt64(bytes.count), let start = Int(exactly: offset), let length = Int(exactly: count)
        else {
            throw DecodeError(
                .truncated, at: Int(exactly: offset),
                "\(directory.path): strip/tile \(index) (\(count) bytes at \(offset)) ends beyond the \(bytes.count)-byte file"
            )
        }
        let base = bytes.startIndex + start
        return bytes[base..<base + length]
    }

    /// The image size, the strip or tile grid, and the sample format, validated.
    struct Geometry {
        let width: Int
        let height: Int
        let samplesPerPixel: Int
        let bitsPerSample: Int
        /// Width and height of one block as stored (a strip is the full width; edge tiles are stored whole).
        let blockWidth: Int
        let blockHeight: Int
        let blocksAcross: Int
        let blockCount: Int
        let isTiled: Bool
        let path: String

        var sampleCount: Int { width * height * samplesPerPixel }

        init(_ directory: TIFFDirectory) throws(DecodeError) {
            let path = directory.path
            self.path = path
            let (width, height) = (directory.width, directory.height)
            guard width >= 1, height >= 1 else {
                throw DecodeError(.corrupt, at: Int(exactly: directory.offset), "\(path): image is \(width)×\(height)")
            }
            guard width <= WireLimits.maxImageDimension, height <= WireLimits.maxImageDimension,
                width * height <= WireLimits.maxImagePixels
            else {
                throw DecodeError(
                    .tooLarge, at: Int(exactly: directory.offset),
                    "\(path): \(width)×\(height) exceeds \(WireLimits.maxImageDimension) per side or \(WireLimits.maxImagePixels) pixels"
                )
            }
            guard (1...4).contains(directory.samplesPerPixel) else {
                throw DecodeError(.unsupported, "\(path): \(directory.samplesPerPixel) samples per pixel")
            }
            guard directory.samplesPerPixel == 1 || directory.planarConfiguration == 1 else {
                throw DecodeError(.unsupported, "\(path): planar configuration \(directory.planarConfiguration)")
            }
            guard directory.sampleFormat == 1, (8...16).contains(directory.bitsPerSample) else {
                throw DecodeError(
                    .unsupported,
                    "\(path): \(directory.bitsPerSample)-bit samples of format \(directory.sampleFormat); rawcap reads 8 to 16-bit unsigned integers"
                )
            }
            guard directory.fillOrder == 1 || directory.bitsPerSample % 8 == 0 else {
                throw DecodeError(.unsupported, "\(path): FillOrder \(directory.fillOrder) for packed samples")
            }
            self.width = width
            self.height = height
            self.samplesPerPixel = directory.samplesPerPixel
            self.bitsPerSample = directory.bitsPerSample
            switch directory.layout {
            case .strips(let rowsPerStrip):
                blockWidth = width
                blockHeight = max(1, min(rowsPerStrip, height))
                blocksAcross = 1
                blockCount = (height + blockHeight - 1) / blockHeight
                isTiled = false
            case .tiles(let tileWidth, let tileHeight):
                guard (1...WireLimits.maxImageDimension).contains(tileWidth),
                    (1...WireLimits.maxImageDimension).contains(tileHeight)
                else {
                    throw DecodeError(.corrupt, "\(path): tiles of \(tileWidth)×\(tileHeight)")
                }
                blockWidth = tileWidth
                blockHeight = tileHeight
                blocksAcross = (width + tileWidth - 1) / tileWidth
                blockCount = blocksAcross * ((height + tileHeight - 1) / tileHeight)
                isTiled = true
            }
            guard directory.dataOffsets.count >= blockCount, directory.dataByteCounts.count >= blockCount else {
                throw DecodeError(
                    .corrupt,
                    "\(path): \(directory.dataOffsets.count) strip/tile offsets for \(blockCount) strips/tiles")
            }
        }

        /// Where block `index` lands in the image, and how much of it is inside the image.
        func region(ofBlock index: Int) -> Region {
            let x = (index % blocksAcross) * blockWidth
            let y = (index / blocksAcross) * blockHeight
            // A tile is stored whole even where it overhangs the image; the last strip holds only the rows left.
            let visibleHeight = min(blockHeight, height - y)
            return Region(
                x: x, y: y, storedWidth: blockWidth, storedHeight: isTiled ? blockHeight : visibleHeight,
                visibleWidth: min(blockWidth, width - x), visibleHeight: visibleHeight)
        }
    }

    /// One strip or tile: its place in the image, its size as stored and the part of it inside the image.
    struct Region {
        /// Column of the block's left edge in the image.
        let x: Int
        /// Row of the block's top edge in the image.
        let y: Int
        /// Pixels per stored row (tile width, or image width for strips).
        let storedWidth: Int
        /// Stored rows (a tile's full height; a strip's rows, fewer for the last strip).
        let storedHeight: Int
        /// Columns that fall inside the image (edge tiles are cropped).
        let visibleWidth: Int
        /// Rows that fall inside the image.
        let visibleHeight: Int
    }
}
