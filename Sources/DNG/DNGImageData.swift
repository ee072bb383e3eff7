import LosslessJPEG

/// The pixel data of one IFD, already in the bytes the file will hold: uncompressed samples or compressed tiles.
///
/// The chunks are strips or tiles in TIFF order (left to right, top to bottom). The libtiff adapter writes them with
/// `TIFFWriteRawStrip`/`TIFFWriteRawTile` and fills StripOffsets/StripByteCounts or TileOffsets/TileByteCounts itself.
public struct DNGImageData: Sendable {
    /// How the image is cut into chunks (TIFF 6.0 §3 strips, §15 tiles).
    public enum Layout: Hashable, Sendable, CustomStringConvertible {
        /// Strips of `rowsPerStrip` full-width rows (the last one may be shorter).
        case strips(rowsPerStrip: Int)
        /// Tiles of `width × height` pixels; edge tiles are padded to full size (TIFF 6.0 §15).
        case tiles(width: Int, height: Int)

        /// `strips of 23 rows` or `tiles of 256×256`.
        public var description: String {
            switch self {
            case .strips(let rows): "strips of \(rows) rows"
            case .tiles(let width, let height): "tiles of \(width)×\(height)"
            }
        }
    }

    /// The cut.
    public let layout: Layout
    /// The chunks in TIFF order.
    public let chunks: [DNGImageChunk]

    /// Creates image data; the directory that holds it checks the chunk count against its size tags.
    public init(layout: Layout, chunks: [DNGImageChunk]) {
        self.layout = layout
        self.chunks = chunks
    }

    /// The total of all chunk sizes (waits for tiles still being encoded).
    public var byteCount: Int { chunks.reduce(0) { $0 + $1.byteCount } }

    /// At least ``byteCount``, known without waiting: what the 4 GiB check uses while tiles are being encoded.
    var byteCountUpperBound: Int { chunks.reduce(0) { $0 + $1.byteCountUpperBound } }

    /// Blocks until every chunk's bytes exist (tiles encoded in the background are finished).
    func waitUntilEncoded() {
        for chunk in chunks { chunk.waitUntilEncoded() }
    }

    /// The number of chunks an image of `width × height` pixels needs in this layout, or `nil` for an invalid
    /// layout (zero or negative sizes, tiles not a multiple of 16).
    public func expectedChunkCount(width: Int, height: Int) -> Int? {
        switch layout {
        case .strips(let rows):
            guard rows > 0, width > 0, height > 0 else { return nil }
            return (height + rows - 1) / rows
        case .tiles(let tileWidth, let tileHeight):
            guard tileWidth > 0, tileHeight > 0, tileWidth % 16 == 0, tileHeight % 16 == 0, width > 0, height > 0
            else { return nil }
            return ((width + tileWidth - 1) / tileWidth) * ((height + tileHeight - 1) / tileHeight)
        }
    }
}

/// One strip or tile: bytes that go into the file unchanged.
///
/// 16-bit samples are kept as a slice of the frame's own `[UInt16]` (no copy) and written little-endian, the byte
/// order of every file rawcap writes; other data (8-bit samples, compressed tiles, thumbnails) is plain bytes. A
/// lossless tile may still be in the encoder's hands (``DeferredTiles``): reading its bytes waits for it, so the
/// writer can put the first tiles in the file while the later ones are being encoded. Previews may still be being
/// rendered (``PendingPreviews``): the preview JPEG is waited for in the same way, and the thumbnail, which comes
/// before the raw data, is written as zeros and overwritten once rendered (``DNGWriter``).
public struct DNGImageChunk: Sendable {
    enum Storage: Sendable {
        case bytes([UInt8])
        case samples16(ArraySlice<UInt16>)
        case deferred(DeferredTiles, index: Int)
        /// Zeros of the thumbnail's size now; the writer overwrites them with the rendered pixels.
        case pendingThumbnail(PendingPreviews, byteCount: Int)
        /// The rendered preview JPEG, checked against the preview IFD's planned `entries`.
        case pendingPreview(PendingPreviews, entries: [DNGEntry])
    }

    let storage: Storage

    /// Bytes as they go into the file.
    public init(bytes: [UInt8]) { storage = .bytes(bytes) }

    /// 16-bit samples, written little-endian.
    public init(littleEndianSamples samples: ArraySlice<UInt16>) { storage = .samples16(samples) }

    /// Tile `index` of tiles being encoded in the background.
    init(deferred tiles: DeferredTiles, index: Int) { storage = .deferred(tiles, index: index) }

    /// A placeholder of `byteCount` zero bytes for the thumbnail of `previews`.
    init(thumbnailOf previews: PendingPreviews, byteCount: Int) {
        storage = .pendingThumbnail(previews, byteCount: byteCount)
    }

    /// The preview JPEG of `previews`, for a preview IFD planned with `entries`.
    init(previewOf previews: PendingPreviews, entries: [DNGEntry]) {
        storage = .pendingPreview(previews, entries: entries)
    }

    /// The chunk's size in the file (for a tile still being encoded, once it is done; 0 for a tile that failed).
    public var byteCount: Int {
        switch storage {
        case .bytes(let bytes): bytes.count
        case .samples16(let samples): samples.count * 2
        case .deferred(let tiles, let index): (try? tiles.withBytes(index) { $0.count }) ?? 0
        case .pendingThumbnail(_, let byteCount): byteCount
        case .pendingPreview(let previews, let entries): (try? previews.previewBytes(entries: entries).count) ?? 0
        }
    }

    /// At least ``byteCount``, without waiting for a tile being encoded.
    var byteCountUpperBound: Int {
        switch storage {
        case .deferred(let tiles, _): return tiles.byteCountBoundPerTile
        case .pendingPreview(let previews, _): return previews.previewByteCountBound
        default: return byteCount
        }
    }

    /// Blocks until the bytes exist (for a tile being encoded: until its whole stream is done, so a failed or
    /// cancelled stream is not turned into errors tile by tile).
    func waitUntilEncoded() {
        if case .deferred(let tiles, _) = storage { tiles.stream.waitUntilFinished() }
    }

    /// Stops the background encoding of tiles not yet started (nothing for bytes already there).
    func cancelEncoding() {
        if case .deferred(let tiles, _) = storage { tiles.stream.cancel() }
    }

    /// Calls `body` with the chunk's file bytes. On a little-endian host 16-bit samples are passed without copying.
    public func withUnsafeFileBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(DNGError) -> Result
    ) throws(DNGError) -> Result {
        // The standard library's withUnsafeBytes rethrows untyped errors, so the typed error travels in a Result.
        func run(_ buffer: UnsafeRawBufferPointer) -> Swift.Result<Result, DNGError> {
            Swift.Result { () throws(DNGError) -> Result in try body(buffer) }
        }
        switch storage {
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes(run).get()
        case .deferred(let tiles, let index):
            return try tiles.withBytes(index, run).get()
        case .pendingThumbnail(_, let byteCount):
            return try [UInt8](repeating: 0, count: byteCount).withUnsafeBytes(run).get()
        case .pendingPreview(let previews, let entries):
            return try previews.previewBytes(entries: entries).withUnsafeBytes(run).get()
        case .samples16(let samples):
            if UInt16(littleEndian: 0x0102) == 0x0102 {
                return try samples.withUnsafeBytes(run).get()
            }
            let swapped = samples.map(\.littleEndian)
            return try swapped.withUnsafeBytes(run).get()
        }
    }

    /// A copy of the file bytes (tests and golden digests).
    public var fileBytes: [UInt8] {
        // The closure cannot throw, so neither can the call.
        (try? withUnsafeFileBytes { buffer throws(DNGError) in Array(buffer) }) ?? []
    }
}

/// Lossless JPEG tiles being encoded on background threads (`LJ92TileStream`), as the chunks of one IFD.
///
/// Reading a tile waits for it; a tile that failed throws the ``DNGError`` that `failure` makes of the encoder's
/// error. When the last chunk referring to these tiles goes away (the plan was written, or abandoned after an
/// error), the encoders skip whatever they have not started.
final class DeferredTiles: Sendable {
    let stream: LJ92TileStream
    /// An upper bound on one tile's size: what the 4 GiB check counts before the tiles exist.
    let byteCountBoundPerTile: Int
    let failure: @Sendable (LJ92Error) -> DNGError

    init(stream: LJ92TileStream, byteCountBoundPerTile: Int, failure: @escaping @Sendable (LJ92Error) -> DNGError) {
        self.stream = stream
        self.byteCountBoundPerTile = byteCountBoundPerTile
        self.failure = failure
    }

    deinit { stream.cancel() }

    /// Calls `body` with tile `index`'s stream, once encoded, in the encoder's memory (no copy).
    func withBytes<Value>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Value) throws(DNGError) -> Value {
        // The bytes live in the stream's arena, which this object keeps alive.
        try withExtendedLifetime(stream) { () throws(DNGError) -> Value in
            switch stream.tileBytes(index) {
            case .success(let bytes): return body(bytes)
            case .failure(let error): throw failure(error)
            }
        }
    }
}
