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
