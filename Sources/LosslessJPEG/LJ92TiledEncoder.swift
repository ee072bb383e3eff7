import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Encodes a whole image plane as lossless JPEG tiles, in parallel: the raw data of a DNG with Compression 7
/// (DNG 1.7 §Compression; TIFF 6.0 §15 tiles).
///
/// The plane is `width × height` pixels of ``samplesPerPixel`` interleaved samples (1 for CFA data, 3 for
/// LinearRaw RGB). It is cut into ``tileWidth`` × ``tileHeight`` tiles in row-major order; tiles that overhang the
/// right or bottom edge are padded by repeating the last column and the last row, as DNG writers do (readers
/// ignore the padding). Each tile becomes one stream whose JPEG pixel holds ``components`` samples: by default 2
/// for CFA data (each JPEG pixel is a horizontal pair of sensor pixels, so predictor 1 predicts from the same colour
/// two pixels to the left; Adobe's layout, which rawspeed and LibRaw read) and `samplesPerPixel` otherwise.
///
/// Tiles are encoded on ``threadCount`` threads (`DispatchQueue.concurrentPerform`); the result does not depend on
/// the thread count.
///
/// ```swift
/// let tiler = try LJ92TiledEncoder(tileWidth: 256, tileHeight: 256, samplesPerPixel: 1, precision: 14)
/// let tiles = try tiler.encode(frame.samples, width: frame.width, height: frame.height)
/// ```
public struct LJ92TiledEncoder: Sendable {
    /// Tile width in pixels.
    public let tileWidth: Int
    /// Tile height in rows.
    public let tileHeight: Int
    /// Interleaved samples per pixel in the plane: 1 (CFA) … 4.
    public let samplesPerPixel: Int
    /// The stream parameters every tile is encoded with.
    public let encoder: LJ92Encoder
    /// Threads that encode tiles at the same time; 1 encodes on the calling thread.
    public let threadCount: Int

    /// Bits per sample.
    public var precision: Int { encoder.precision }
    /// JPEG components per JPEG pixel.
    public var components: Int { encoder.components }

    /// Checks and stores the tiling.
    ///
    /// - Parameters:
    ///   - components: JPEG components per JPEG pixel; `nil` picks 2 for CFA planes (`samplesPerPixel` 1) and
    ///     `samplesPerPixel` otherwise. `tileWidth × samplesPerPixel` must be a multiple of it.
    ///   - threadCount: `nil` uses every active processor.
    /// - Throws: ``LJ92Error/Code/invalidInput`` for sizes that cannot make JPEG frames, or the encoder's errors.
    public init(
        tileWidth: Int, tileHeight: Int, samplesPerPixel: Int, precision: Int, components: Int? = nil,
        predictor: LJ92Predictor = .left, tables: LJ92Encoder.Tables = .optimalPerComponent, threadCount: Int? = nil
    ) throws(LJ92Error) {
        guard (1...4).contains(samplesPerPixel) else {
            throw LJ92Error(.invalidInput, "\(samplesPerPixel) samples per pixel; 1…4 are supported")
        }
        let components = components ?? (samplesPerPixel == 1 ? 2 : samplesPerPixel)
        guard tileWidth > 0, tileHeight > 0, tileHeight <= 65535 else {
            throw LJ92Error(.invalidInput, "tile size \(tileWidth)×\(tileHeight)")
        }
        let (rowSamples, overflow) = tileWidth.multipliedReportingOverflow(by: samplesPerPixel)
        guard !overflow, components > 0, rowSamples % components == 0, rowSamples / components <= 65535 else {
            throw LJ92Error(
                .invalidInput,
                "tile rows of \(tileWidth) × \(samplesPerPixel) samples do not make JPEG rows of \(components)")
        }
        let threads = threadCount ?? Self.activeProcessorCount
        guard threads >= 1 else { throw LJ92Error(.invalidInput, "thread count \(threads)") }
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.samplesPerPixel = samplesPerPixel
        self.encoder = try LJ92Encoder(
            precision: precision, components: components, predictor: predictor, tables: tables)
        self.threadCount = threads
    }

    /// The processors available to this process, the default ``threadCount``.
    public static var activeProcessorCount: Int {
        #if canImport(Glibc) || canImport(Darwin)
            return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 1
        #endif
    }

    /// Tiles across and down for a `width × height` plane (TIFF 6.0 §15 TilesAcross, TilesDown).
    public func tileGrid(width: Int, height: Int) -> (across: Int, down: Int) {
        ((width + tileWidth - 1) / tileWidth, (height + tileHeight - 1) / tileHeight)
    }

    /// Encodes every tile of the plane.
    ///
    /// - Parameters:
    ///   - plane: `height` rows of `width × samplesPerPixel` samples, row `r` starting at `r × rowStride`.
    ///   - rowStride: distance between rows in samples; `nil` means `width × samplesPerPixel`.
    /// - Returns: one complete JPEG stream per tile, left to right, then top to bottom.
    /// - Throws: ``LJ92Error/Code/invalidInput`` when the geometry does not fit the buffer or a sample is above
    ///   the precision.
    public func encode(
        _ plane: UnsafeBufferPointer<UInt16>, width: Int, height: Int, rowStride: Int? = nil
    ) throws(LJ92Error) -> [[UInt8]] {
        let layout = try checkPlane(plane, width: width, height: height, rowStride: rowStride)
        let grid = tileGrid(width: width, height: height)
        let tileCount = grid.across * grid.down
        var results = [Result<[UInt8], LJ92Error>](repeating: .success([]), count: tileCount)
        results.withUnsafeMutableBufferPointer { slots in
            guard let output = slots.baseAddress else { return }
            let workers = min(threadCount, tileCount)
            let work = TileWork(
                tiler: self, plane: layout.base, width: width, height: height, rowStride: layout.rowStride,
                across: grid.across, tileCount: tileCount, workers: workers, output: output)
            if workers <= 1 {
                work.run(worker: 0)
            } else {
                DispatchQueue.concurrentPerform(iterations: workers) { work.run(worker: $0) }
            }
        }
        var tiles: [[UInt8]] = []
        tiles.reserveCapacity(tileCount)
        for result in results {
            switch result {
            case .success(let bytes): tiles.append(bytes)
            case .failure(let error): throw error
            }
        }
        return tiles
    }

    /// Encodes every tile of a contiguous plane; see ``encode(_:width:height:rowStride:)-(UnsafeBufferPointer<UInt16>,_,_,_)``.
    public func encode(_ plane: [UInt16], width: Int, height: Int) throws(LJ92Error) -> [[UInt8]] {
        try plane.withUnsafeBufferPointer { buffer throws(LJ92Error) in
            try encode(buffer, width: width, height: height, rowStride: nil)
        }
    }

    /// Encodes the whole plane as one stream, with no tiling and no padding: the payload of a single-strip (or
    /// single-tile) DNG. `width × samplesPerPixel` must be a multiple of ``components``. Runs on the calling thread.
    public func encodeAsOneStream(
        _ plane: UnsafeBufferPointer<UInt16>, width: Int, height: Int, rowStride: Int? = nil
    ) throws(LJ92Error) -> [UInt8] {
        let layout = try checkPlane(plane, width: width, height: height, rowStride: rowStride)
        return try encoder.encode(
            UnsafeBufferPointer(start: layout.base, count: plane.count), samplesPerRow: width * samplesPerPixel,
            rowCount: height, rowStride: layout.rowStride)
    }

    /// Encodes a contiguous plane as one stream; see ``encodeAsOneStream(_:width:height:rowStride:)``.
    public func encodeAsOneStream(_ plane: [UInt16], width: Int, height: Int) throws(LJ92Error) -> [UInt8] {
        try plane.withUnsafeBufferPointer { buffer throws(LJ92Error) in
            try encodeAsOneStream(buffer, width: width, height: height, rowStride: nil)
        }
    }

    private func checkPlane(
        _ plane: UnsafeBufferPointer<UInt16>, width: Int, height: Int, rowStride: Int?
    ) throws(LJ92Error) -> (base: UnsafePointer<UInt16>, rowStride: Int) {
        guard width > 0, height > 0 else { throw LJ92Error(.invalidInput, "plane size \(width)×\(height)") }
        let (rowSamples, overflow) = width.multipliedReportingOverflow(by: samplesPerPixel)
        let stride = rowStride ?? rowSamples
        guard !overflow, stride >= rowSamples else {
            throw LJ92Error(.invalidInput, "row stride \(stride) is shorter than a row of \(width) pixels")
        }
        let (span, spanOverflow) = (height - 1).multipliedReportingOverflow(by: stride)
        guard !spanOverflow, span <= plane.count - rowSamples, let base = plane.baseAddress else {
            throw LJ92Error(.invalidInput, "\(height) rows at stride \(stride) overrun \(plane.count) samples")
        }
        return (base, stride)
    }

    /// Encodes tile `index`: in place when it lies inside the plane, from a padded copy when it overhangs.
    fileprivate func encodeTile(
        _ index: Int, plane: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int, across: Int,
        scratch: inout [UInt16]
    ) -> Result<[UInt8], LJ92Error> {
        let x0 = (index % across) * tileWidth
        let y0 = (index / across) * tileHeight
        let columns = min(tileWidth, width - x0)
        let rows = min(tileHeight, height - y0)
        let rowSamples = tileWidth * samplesPerPixel
        let origin = plane + y0 * rowStride + x0 * samplesPerPixel
        do throws(LJ92Error) {
            if columns == tileWidth && rows == tileHeight {
                let span = (tileHeight - 1) * rowStride + rowSamples
                return .success(
                    try encoder.encode(
                        UnsafeBufferPointer(start: origin, count: span), samplesPerRow: rowSamples,
                        rowCount: tileHeight, rowStride: rowStride))
            }
            // Edge tile: copy the valid part, repeat the last pixel of each row to the right and the last row
            // downwards.
            let pixel = samplesPerPixel
            scratch.removeAll(keepingCapacity: true)
            scratch.reserveCapacity(rowSamples * tileHeight)
            for row in 0..<tileHeight {
                let source = origin + min(row, rows - 1) * rowStride
                scratch.append(contentsOf: UnsafeBufferPointer(start: source, count: columns * pixel))
                let last = source + (columns - 1) * pixel
                for _ in columns..<tileWidth {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: last, count: pixel))
                }
            }
            return .success(try encoder.encode(scratch, samplesPerRow: rowSamples))
        } catch {
            return .failure(error)
        }
    }
}

/// One call of `encode`: what each worker needs. Workers take tiles `worker`, `worker + workers`, … so the tiles
/// spread evenly and no two workers write the same result slot.
private struct TileWork: @unchecked Sendable {
    let tiler: LJ92TiledEncoder
    let plane: UnsafePointer<UInt16>
    let width: Int
    let height: Int
    let rowStride: Int
    let across: Int
    let tileCount: Int
    let workers: Int
    let output: UnsafeMutablePointer<Result<[UInt8], LJ92Error>>

    func run(worker: Int) {
        var scratch: [UInt16] = []
        var index = worker
        while index < tileCount {
            output[index] = tiler.encodeTile(
                index, plane: plane, width: width, height: height, rowStride: rowStride, across: across,
                scratch: &scratch)
            index += workers
        }
    }
}
