import RawImage

/// Turns a ``RawImage/RawFrame`` (or a demosaiced ``RawImage/LinearImage``) plus its previews into a ``DNGPlan``.
///
/// The layout is DESIGN.md's: IFD0 is the 8-bit RGB thumbnail (NewSubFileType 1) and carries the DNG colour and
/// profile tags and the EXIF IFD; SubIFD 0 is the raw image (NewSubFileType 0), CFA (PhotometricInterpretation 32803)
/// or LinearRaw (34892); SubIFD 1 is the JPEG preview when there is one. DNGVersion is 1.4.0.0 (ForwardMatrix,
/// ProfileToneCurve and NewRawImageDigest are DNG 1.2–1.4 tags) and DNGBackwardVersion 1.1.0.0 (ActiveArea needs 1.1;
/// nothing rawcap writes needs more, DNG 1.7 Appendix A).
///
/// Planning is pure: the same frame, previews and options always give the same plan, and with it the same file bytes
/// (no clock is read; times come from the frame's metadata).
public struct DNGEncoder: Sendable {
    /// The options this encoder applies.
    public let options: DNGOptions

    /// DNGVersion written to every file.
    public static let dngVersion: [UInt8] = [1, 4, 0, 0]
    /// DNGBackwardVersion written to every file.
    public static let dngBackwardVersion: [UInt8] = [1, 1, 0, 0]

    /// Whether lossless tiles are encoded in the background and written as they finish (``DNGWriter``'s fast path),
    /// rather than all encoded before the plan returns. A failing tile then surfaces when the plan is written.
    var streamsLosslessTiles = false

    /// Creates an encoder.
    public init(options: DNGOptions = DNGOptions()) {
        self.options = options
    }

    /// Plans a CFA DNG for `frame`.
    ///
    /// - Throws: ``DNGError/Code/sampleOutOfRange`` when a sample exceeds `frame.bitsPerSample` bits,
    ///   ``DNGError/Code/invalidInput`` for a non-RGB CFA, a bad preview or bad options, ``DNGError/Code/doesNotFit``
    ///   when the data cannot fit a classic TIFF, ``DNGError/Code/compressionFailed`` from the lossless encoder.
    public func plan(for frame: RawFrame, previews: DNGPreviews) throws(DNGError) -> DNGPlan {
        try plan(for: frame, previews: .ready(previews), digest: options.writesRawDigest ? .computed : .omitted)
    }

    func plan(for frame: RawFrame, previews: PlannedPreviews, digest: DigestHandling) throws(DNGError) -> DNGPlan {
        try checkOptions()
        guard (8...16).contains(frame.bitsPerSample) else {
            throw DNGError(.unsupportedBitDepth, "\(frame.bitsPerSample) bits per sample; DNG raw data here is 8…16")
        }
        guard frame.cfa.colors.allSatisfy({ $0.rawValue <= CFAColor.blue.rawValue }),
            Set(frame.cfa.colors) == [.red, .green, .blue]
        else {
            throw DNGError(.invalidInput, "CFA \(frame.cfa) is not an RGB pattern; rawcap's colour tags are 3×3")
        }
        // The lossless encoder finds the largest sample in its first pass anyway, and checks it (losslessTiles).
        if options.compression == .none { try checkRange(frame.samples, bitsPerSample: frame.bitsPerSample) }

        let cfa = frame.cfa
        let crop = frame.defaultCrop
        let active = frame.activeArea
        var entries = try rawImageEntries(
            width: frame.width, height: frame.height, bitsPerSample: frame.bitsPerSample, samplesPerPixel: 1,
            photometric: 32803)
        entries += [
            try DNGEntry(.cfaRepeatPatternDim, .shorts([UInt16(cfa.height), UInt16(cfa.width)])),
            try DNGEntry(.cfaPattern, .bytes(cfa.colors.map(\.rawValue))),
            try DNGEntry(.cfaPlaneColor, .bytes([0, 1, 2])),
            try DNGEntry(.cfaLayout, .short(1)),
        ]
        entries += try blackLevelEntries(frame.blackLevels, cfa: cfa)
        entries += try scaleEntries(pixelAspectRatio: frame.pixelAspectRatio)
        entries += [
            try DNGEntry(.whiteLevel, .longs([UInt32(frame.whiteLevel)])),
            try DNGEntry(.defaultCropOrigin, .rationals([Double(crop.x), Double(crop.y)])),
            try DNGEntry(.defaultCropSize, .rationals([Double(crop.width), Double(crop.height)])),
            try DNGEntry(.activeArea, .longs(try longs([active.y, active.x, active.bottom, active.right]))),
        ]
        if cfa.isBayer {
            // Both greens of a Bayer pair are assumed to track (0), and a Bayer sensor is assumed to have an
            // optical low-pass filter (1.0): the spec's defaults, written so readers need not guess.
            entries.append(try DNGEntry(.bayerGreenSplit, .long(0)))
            entries.append(try DNGEntry(.antiAliasStrength, .rational(1)))
        } else if cfa == .xTrans {
            // X-Trans sensors have no optical low-pass filter; 0 tells the demosaic not to expect one.
            entries.append(try DNGEntry(.antiAliasStrength, .rational(0)))
        }
        let image = try rawImageData(
            frame.samples, width: frame.width, height: frame.height, planes: 1, bitsPerSample: frame.bitsPerSample,
            entries: &entries)
        let raw = try DNGDirectory(entries: entries, image: image)

        return try assemble(
            raw: raw, digests: digest.values(pendingDigest(for: frame)), metadata: frame.metadata,
            color: frame.color, toneCurve: nil, previews: previews)
    }

    /// Plans a LinearRaw DNG (PhotometricInterpretation 34892, three samples per pixel) for `image`.
    ///
    /// - Throws: as ``plan(for:previews:)-(RawFrame,_)``; also ``DNGError/Code/doesNotFit`` for a LinearizationTable
    ///   longer than libtiff can pass (65535 entries).
    public func plan(for image: LinearImage, previews: DNGPreviews) throws(DNGError) -> DNGPlan {
        try plan(for: image, previews: .ready(previews), digest: options.writesRawDigest ? .computed : .omitted)
    }

    func plan(for image: LinearImage, previews: PlannedPreviews, digest: DigestHandling) throws(DNGError) -> DNGPlan {
        try checkOptions()
        guard (8...16).contains(image.bitsPerSample) else {
            throw DNGError(.unsupportedBitDepth, "\(image.bitsPerSample) bits per sample; DNG raw data here is 8…16")
        }
        if options.compression == .none { try checkRange(image.samples, bitsPerSample: image.bitsPerSample) }
        let crop = image.defaultCrop
        var entries = try rawImageEntries(
            width: image.width, height: image.height, bitsPerSample: image.bitsPerSample, samplesPerPixel: 3,
            photometric: 34892)
        if let table = image.linearizationTable {
            entries.append(try DNGEntry(.linearizationTable, .shorts(table)))
        }
        entries += [
            try DNGEntry(.blackLevelRepeatDim, .shorts([1, 1])),
            try DNGEntry(.blackLevel, .rationals(image.blackLevels)),
            try DNGEntry(.whiteLevel, .longs(try longs(image.whiteLevels))),
        ]
        // DefaultScale applies to LinearRaw data as to CFA data (DNG 1.7.1 p.30, usage "Raw IFD"): a demosaiced
        // Kodak DC120 keeps its wide pixels.
        entries += try scaleEntries(pixelAspectRatio: image.pixelAspectRatio)
        entries += [
            try DNGEntry(.defaultCropOrigin, .rationals([Double(crop.x), Double(crop.y)])),
            try DNGEntry(.defaultCropSize, .rationals([Double(crop.width), Double(crop.height)])),
        ]
        let data = try rawImageData(
            image.samples, width: image.width, height: image.height, planes: 3, bitsPerSample: image.bitsPerSample,
            entries: &entries)
        let raw = try DNGDirectory(entries: entries, image: data)

        return try assemble(
            raw: raw, digests: digest.values(pendingDigest(for: image)), metadata: image.metadata,
            color: image.color, toneCurve: image.profileToneCurve, previews: previews)
    }

    // MARK: - Shared parts

    /// BlackLevelRepeatDim and BlackLevel: one value with a 1×1 repeat when every CFA position has the same level,
    /// as the DNG SDK writes it (its validator fails on an 8-bit white level with a 2×2 repeat: "Overflow in
    /// Round_int32", issue 17), else one value per CFA position with the pattern's size.
    func blackLevelEntries(_ levels: [Double], cfa: CFAPattern) throws(DNGError) -> [DNGEntry] {
        if let first = levels.first, levels.allSatisfy({ $0 == first }) {
            return [
                try DNGEntry(.blackLevelRepeatDim, .shorts([1, 1])),
                try DNGEntry(.blackLevel, .rationals([first])),
            ]
        }
        return [
            try DNGEntry(.blackLevelRepeatDim, .shorts([UInt16(cfa.height), UInt16(cfa.width)])),
            try DNGEntry(.blackLevel, .rationals(levels)),
        ]
    }

    /// DefaultScale and BestQualityScale for pixels `pixelAspectRatio` times as wide as they are tall (DNG 1.7
    /// p.29-30): the width is scaled by the ratio and the height kept, and BestQualityScale undoes a shrinking
    /// scale, so that narrow pixels (Nikon D1X, ratio 0.5) keep their resolution as the SDK writes them (0.5/1,
    /// best quality 2) and wide ones (Kodak DC120, ratio 1.535) widen the picture.
    func scaleEntries(pixelAspectRatio ratio: Double) throws(DNGError) -> [DNGEntry] {
        guard ratio.isFinite, ratio > 0 else {
            throw DNGError(.invalidInput, "pixel aspect ratio \(ratio) is not a positive number")
        }
        return [
            try DNGEntry(.defaultScale, .rationals([ratio, 1])),
            try DNGEntry(.bestQualityScale, .rational(ratio < 1 ? 1 / ratio : 1)),
        ]
    }

    private func checkOptions() throws(DNGError) {
        guard options.tileSize >= 16, options.tileSize % 16 == 0, options.tileSize <= 4096 else {
            throw DNGError(.invalidInput, "tile size \(options.tileSize) is not a multiple of 16 in 16…4096")
        }
        guard options.threadCount >= 1 else {
            throw DNGError(.invalidInput, "thread count \(options.threadCount) is below 1")
        }
    }

    /// Throws unless every sample fits `bitsPerSample` bits (16-bit data always does).
    func checkRange(_ samples: [UInt16], bitsPerSample: Int) throws(DNGError) {
        guard bitsPerSample < 16 else { return }
        let limit = UInt16((1 << bitsPerSample) - 1)
        // A branch-free maximum vectorises (one pass over the frame, split across the threads); the slow search for
        // the offender runs only when something is wrong.
        let pieces = min(options.threadCount, max(1, samples.count >> 20))
        var maxima = [UInt16](repeating: 0, count: pieces)
        samples.withUnsafeBufferPointer { all in
            maxima.withUnsafeMutableBufferPointer { results in
                nonisolated(unsafe) let results = results
                let length = (all.count + pieces - 1) / pieces
                ParallelLoop.run(iterations: pieces, threads: pieces) { piece in
                    let start = min(all.count, piece * length)
                    let part = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + length)])
                    results[piece] = part.reduce(0) { Swift.max($0, $1) }
                }
            }
        }
        guard let maximum = maxima.max(), maximum > limit else { return }
        let index = samples.firstIndex { $0 > limit } ?? 0
        throw DNGError(
            .sampleOutOfRange, "sample \(index) is \(samples[index]), above the \(bitsPerSample)-bit maximum \(limit)")
    }

    /// NewSubFileType, size, sample layout and compression tags of the raw IFD, before the data layout is chosen.
    private func rawImageEntries(
        width: Int, height: Int, bitsPerSample: Int, samplesPerPixel: Int, photometric: UInt16
    ) throws(DNGError) -> [DNGEntry] {
        // Uncompressed: 8-bit data in bytes, 9–16-bit data in 16-bit containers (no bit packing; README). Lossless:
        // the JPEG precision, which readers take from the tiles, is the real bit depth.
        let storedBits: Int
        switch options.compression {
        case .none: storedBits = bitsPerSample <= 8 ? 8 : 16
        case .lossless: storedBits = bitsPerSample
        }
        return [
            try DNGEntry(.newSubfileType, .long(0)),
            try DNGEntry(.imageWidth, .long(UInt32(width))),
            try DNGEntry(.imageLength, .long(UInt32(height))),
            try DNGEntry(.bitsPerSample, .shorts(Array(repeating: UInt16(storedBits), count: samplesPerPixel))),
            try DNGEntry(.compression, .short(options.compression == .none ? 1 : 7)),
            try DNGEntry(.photometricInterpretation, .short(photometric)),
            try DNGEntry(.samplesPerPixel, .short(UInt16(samplesPerPixel))),
            try DNGEntry(.planarConfiguration, .short(1)),
        ]
    }

    /// The pixel data in the chosen layout, adding RowsPerStrip or TileWidth/TileLength to `entries`.
    private func rawImageData(
        _ samples: [UInt16], width: Int, height: Int, planes: Int, bitsPerSample: Int, entries: inout [DNGEntry]
    ) throws(DNGError) -> DNGImageData {
        switch options.compression {
        case .none:
            // One strip, as the DNG SDK writes uncompressed raw data: LibRaw 0.20 and dcraw cannot read uncompressed
            // tiles (dng-facts.md fact 1), and dcraw reads only the first StripOffsets entry.
            entries.append(try DNGEntry(.rowsPerStrip, .long(UInt32(height))))
            let chunk =
                bitsPerSample <= 8
                ? DNGImageChunk(bytes: samples.map { UInt8(truncatingIfNeeded: $0) })
                : DNGImageChunk(littleEndianSamples: samples[...])
            return DNGImageData(layout: .strips(rowsPerStrip: height), chunks: [chunk])
        case .lossless:
            let tiling = losslessTiling(width: width, height: height)
            entries.append(try DNGEntry(.tileWidth, .long(UInt32(tiling.width))))
            entries.append(try DNGEntry(.tileLength, .long(UInt32(tiling.height))))
            let tiles = try losslessTiles(
                samples, width: width, height: height, planes: planes, bitsPerSample: bitsPerSample,
                tileWidth: tiling.width, tileHeight: tiling.height)
            return DNGImageData(layout: .tiles(width: tiling.width, height: tiling.height), chunks: tiles)
        }
    }

    /// The lossless tile size: ``DNGOptions/tileSize``, narrowed for small images.
    ///
    /// A tile must never be wider than the image: LibRaw and dcraw (`lossless_dng_load_raw`) wrap a tile's rows at
    /// `min(tile width, image width)`, so a 48-wide tile on a 37-wide image comes out scrambled (seen with LibRaw 0.20
    /// and 0.22 and dcraw 9.28). The width is therefore the largest multiple of 16 that fits (16 for images narrower
    /// than that, which those readers cannot read tiled at all). Height has no such problem: it is the image height
    /// rounded up to 16 when that is smaller than the tile size.
    func losslessTiling(width: Int, height: Int) -> (width: Int, height: Int) {
        let fittingWidth = max(16, width / 16 * 16)
        return (min(options.tileSize, fittingWidth), min(options.tileSize, (height + 15) / 16 * 16))
    }

    private func longs(_ values: [Int]) throws(DNGError) -> [UInt32] {
        var result: [UInt32] = []
        for value in values {
            guard let long = UInt32(exactly: value) else { throw DNGError(.doesNotFit, "\(value) does not fit LONG") }
            result.append(long)
        }
        return result
    }
}
