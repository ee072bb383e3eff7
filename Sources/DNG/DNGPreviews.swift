import JPEG
import RawImage

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
