import JPEG
import RawImage

/// Making the thumbnail and preview that go into every DNG rawcap writes.
extension DNGPreviews {
    /// Long side of the IFD0 thumbnail, in pixels (what the DNG SDK writes: 256).
    public static let thumbnailLongSide = 256
    /// Long side of the JPEG preview rawcap renders, in pixels (Adobe's "medium size" preview).
    public static let previewLongSide = 1024
    /// JPEG quality of rendered previews.
    public static let previewQuality = 85

    /// Renders both images from raw data: a ``previewLongSide``-pixel JPEG preview (4:2:0, quality
    /// ``previewQuality``) and a ``thumbnailLongSide``-pixel RGB thumbnail shrunk from it, or the full default crop
    /// when the frame is smaller.
    ///
    /// Both use the fast rendering path (CFA blocks binned straight to preview size) with the filmic tone curve,
    /// and both are stored in the sensor's orientation, unrotated: the DNG's Orientation tag applies to every
    /// image in the file, as it does to a camera's own JPEG previews.
    public static func render(from frame: RawFrame) throws -> DNGPreviews {
        let preview = try frame.renderRGB8(RenderOptions(longSide: previewLongSide, appliesOrientation: false))
        return try DNGPreviews(
            thumbnail: preview.downscaled(toLongSide: thumbnailLongSide),
            preview: JPEGImage(encoding: preview, quality: previewQuality))
    }

    /// Renders both images from a LinearRaw image, like ``render(from:)-(RawFrame)``.
    public static func render(from image: LinearImage) throws -> DNGPreviews {
        let preview = try image.renderRGB8(RenderOptions(longSide: previewLongSide, appliesOrientation: false))
        return try DNGPreviews(
            thumbnail: preview.downscaled(toLongSide: thumbnailLongSide),
            preview: JPEGImage(encoding: preview, quality: previewQuality))
    }

    /// Uses a camera's own JPEG (RAW+JPEG capture) as the preview, byte for byte, and a thumbnail decoded from it
    /// at a reduced DCT scale and shrunk to ``thumbnailLongSide``.
    ///
    /// - Throws: ``JPEGError`` when the camera's JPEG cannot be decoded.
    public static func render(fromCameraJPEG jpeg: JPEGImage) throws -> DNGPreviews {
        let checked = try JPEGImage(validating: jpeg.bytes)
        let decoded = try checked.decoded(minimumLongSide: thumbnailLongSide)
        // The size follows the full image's aspect; the scaled decode's rounded-up sides can differ by a pixel.
        let size = try RenderOptions.outputSize(
            width: checked.width, height: checked.height, longSide: thumbnailLongSide)
        let thumbnail = try decoded.downscaled(
            toWidth: min(size.width, decoded.width), height: min(size.height, decoded.height))
        return DNGPreviews(thumbnail: thumbnail, preview: checked)
    }
}
