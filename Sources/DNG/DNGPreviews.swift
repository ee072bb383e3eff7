import RawImage

/// A JPEG file held in memory with its pixel size: a camera's own JPEG or one rendered from raw data.
public struct JPEGImage: Sendable, Hashable {
    /// The complete JPEG file (SOI … EOI).
    public let bytes: [UInt8]
    /// Columns, as the JPEG's frame header says.
    public let width: Int
    /// Rows, as the JPEG's frame header says.
    public let height: Int

    /// Wraps JPEG bytes whose size is already known (the caller read the frame header or encoded it).
    public init(bytes: [UInt8], width: Int, height: Int) {
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// The images a DNG carries besides the raw data: IFD0's small RGB thumbnail and, optionally, a larger JPEG
/// preview in its own SubIFD (DESIGN.md, DNG layout).
public struct DNGPreviews: Sendable {
    /// The IFD0 thumbnail (NewSubFileType 1), uncompressed 8-bit RGB, about 256 pixels on the long side.
    public var thumbnail: RGBImage8
    /// The full preview (NewSubFileType 1, JPEG), at least 1024 pixels on the long side when rendered by rawcap,
    /// or the camera's own JPEG.
    public var preview: JPEGImage?

    /// Creates a preview set.
    public init(thumbnail: RGBImage8, preview: JPEGImage?) {
        self.thumbnail = thumbnail
        self.preview = preview
    }
}
