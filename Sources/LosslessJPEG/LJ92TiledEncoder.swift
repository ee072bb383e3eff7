import Dispatch
import Synchronization

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
/// right or bottom edge are padded to full size (TIFF 6.0 §15; readers ignore the padding) with samples that the
/// predictor predicts exactly (``paddedTile(origin:columns:rows:rowStride:into:)``), so the padding codes as
/// differences of 0. Each tile becomes one stream whose JPEG pixel holds ``components`` samples: by default 2
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
            let work = TileWork(
                tiler: self, plane: layout.base, width: width, height: height, rowStride: layout.rowStride,
                across: grid.across, tileCount: tileCount, workers: min(threadCount, tileCount),
                makeOutput: { LJ92ArrayOutput() }, deliver: { output[$0] = $1 }, shouldStop: { false })
            work.runAll()
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

    /// Starts encoding every tile of a contiguous plane on background threads (``threadCount`` of them) and returns
    /// at once: the stream hands out each tile as soon as it is done, in any order the caller asks for. The stream
    /// keeps `plane` alive until the last tile is encoded.
    ///
    /// - Throws: ``LJ92Error/Code/invalidInput`` when the geometry does not fit the plane; a sample above the
    ///   precision fails its tile, which the stream reports.
    public func encodeInBackground(_ plane: [UInt16], width: Int, height: Int) throws(LJ92Error) -> LJ92TileStream {
        _ = try plane.withUnsafeBufferPointer { buffer throws(LJ92Error) in
            try checkPlane(buffer, width: width, height: height, rowStride: nil)
        }
        let grid = tileGrid(width: width, height: height)
        let tileCount = grid.across * grid.down
        let stream = LJ92TileStream(tileCount: tileCount)
        let workers = min(threadCount, tileCount)
        let tiler = self
        DispatchQueue.global(qos: .userInitiated).async {
            plane.withUnsafeBufferPointer { buffer in
                // checkPlane accepted the plane, so it is not empty.
                guard let base = buffer.baseAddress else { return }
                let work = TileWork(
                    tiler: tiler, plane: base, width: width, height: height, rowStride: width * tiler.samplesPerPixel,
                    across: grid.across, tileCount: tileCount, workers: workers,
                    makeOutput: { LJ92ArenaCursor(arena: stream.arena) }, deliver: { stream.store($1, at: $0) },
                    shouldStop: { stream.isCancelled })
                work.runAll()
            }
        }
        return stream
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

    /// Encodes tile `index` into `output`: in place when it lies inside the plane, from a padded copy in `scratch`
    /// when it overhangs.
    fileprivate func encodeTile<Output: LJ92TileOutput>(
        _ index: Int, plane: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int, across: Int,
        scratch: inout [UInt16], workspace: inout LJ92EncoderWorkspace, output: inout Output
    ) -> Result<Output.Tile, LJ92Error> {
        let x0 = (index % across) * tileWidth
        let y0 = (index / across) * tileHeight
        let columns = min(tileWidth, width - x0)
        let rows = min(tileHeight, height - y0)
        let rowSamples = tileWidth * samplesPerPixel
        let origin = plane + y0 * rowStride + x0 * samplesPerPixel
        func makeSink(_ capacity: Int) throws(LJ92Error) -> LJ92BitSink { try output.sink(capacity: capacity) }
        do throws(LJ92Error) {
            let sink: LJ92BitSink
            if columns == tileWidth && rows == tileHeight {
                let span = (tileHeight - 1) * rowStride + rowSamples
                sink = try encoder.encode(
                    UnsafeBufferPointer(start: origin, count: span), samplesPerRow: rowSamples, rowCount: tileHeight,
                    rowStride: rowStride, workspace: &workspace, makeSink: makeSink)
            } else {
                paddedTile(origin: origin, columns: columns, rows: rows, rowStride: rowStride, into: &scratch)
                sink = try scratch.withUnsafeBufferPointer { padded throws(LJ92Error) in
                    try encoder.encode(
                        padded, samplesPerRow: rowSamples, rowCount: tileHeight, rowStride: rowSamples,
                        workspace: &workspace, makeSink: makeSink)
                }
            }
            return .success(try output.keep(sink))
        } catch {
            return .failure(error)
        }
    }

    /// Copies the `columns × rows` pixels at `origin` into `tile` and pads them to a full tile with samples that
    /// predictor 1 predicts exactly, so that the padding costs one Huffman code of category 0 per sample.
    ///
    /// Each row goes on to the right by repeating its last JPEG pixel (``components`` samples: the last two
    /// photosites of a CFA row), so each padding sample equals the one `components` to its left, its prediction.
    /// The rows below are filled, per component, with the first JPEG pixel of the last row: their first pixel is
    /// predicted from the row above (T.81 H.1.2.1), which holds the same values, and the rest from the left. (The
    /// DNG SDK pads with zeros, `dng_image::edge_zero`, which costs one large difference per padded row; repeating
    /// the last column and row instead makes the rows below cost as much as real rows.)
    func paddedTile(
        origin: UnsafePointer<UInt16>, columns: Int, rows: Int, rowStride: Int, into tile: inout [UInt16]
    ) {
        let rowSamples = tileWidth * samplesPerPixel
        let valid = columns * samplesPerPixel
        let period = components
        if tile.count != rowSamples * tileHeight {
            tile = [UInt16](repeating: 0, count: rowSamples * tileHeight)
        }
        tile.withUnsafeMutableBufferPointer { tile in
            guard let base = tile.baseAddress else { return }
            for row in 0..<rows {
                let target = base + row * rowSamples
                target.update(from: origin + row * rowStride, count: valid)
                for position in valid..<rowSamples {
                    // A row shorter than one JPEG pixel repeats its last sample up to the first whole pixel.
                    target[position] = position >= period ? target[position - period] : target[valid - 1]
                }
            }
            let last = base + (rows - 1) * rowSamples
            for row in rows..<tileHeight {
                let target = base + row * rowSamples
                for position in 0..<rowSamples { target[position] = last[position % period] }
            }
        }
    }
}

/// One call of `encode` or `encodeInBackground`: what each worker needs. Each worker takes the next tile not yet
/// taken (an atomic counter), so the tiles finish roughly in order and a worker slowed by other work on its core
/// does not hold the others up. Each worker keeps its scratch (the padded edge tile, the encoder's tables) and its
/// output (`makeOutput`: a slab of the stream's arena, or a buffer copied out into arrays) from tile to tile.
private struct TileWork<Output: LJ92TileOutput>: @unchecked Sendable {
    let tiler: LJ92TiledEncoder
    let plane: UnsafePointer<UInt16>
    let width: Int
    let height: Int
    let rowStride: Int
    let across: Int
    let tileCount: Int
    let workers: Int
    /// Makes a worker's output, once per worker.
    let makeOutput: () -> Output
    /// Receives each tile's result (from the worker's thread).
    let deliver: (Int, Result<Output.Tile, LJ92Error>) -> Void
    /// Checked before each tile: when true, the remaining tiles are delivered as cancelled without encoding.
    let shouldStop: () -> Bool

    /// Runs the workers: on the calling thread for one, with `concurrentPerform` for more.
    func runAll() {
        if workers <= 1 {
            run(worker: 0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { run(worker: $0) }
        }
    }

    /// The next tile to take, shared by the workers.
    let next = TileCounter()

    func run(worker: Int) {
        var scratch: [UInt16] = []
        var workspace = LJ92EncoderWorkspace()
        var output = makeOutput()
        while true {
            let index = next.take()
            guard index < tileCount else { return }
            if shouldStop() {
                deliver(index, .failure(LJ92Error(.invalidInput, "cancelled before tile \(index) was encoded")))
            } else {
                deliver(
                    index,
                    tiler.encodeTile(
                        index, plane: plane, width: width, height: height, rowStride: rowStride, across: across,
                        scratch: &scratch, workspace: &workspace, output: &output))
            }
        }
    }
}

/// A counter the workers take tile indices from.
private final class TileCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// The next index (0, 1, 2, …), each handed out once.
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
