/// Resizing and orienting finished 8-bit images (thumbnails from previews or camera JPEGs).
extension RGBImage8 {
    /// The image shrunk so its longer side is `longSide` pixels (aspect kept, at least 1 pixel per side), by an
    /// area filter in linear light: sRGB decoded, averaged, re-encoded, so fine high-contrast detail keeps its
    /// brightness (averaging encoded values would darken it). Returned unchanged when already small enough.
    public func downscaled(toLongSide longSide: Int) throws(RawImageError) -> RGBImage8 {
        let (outWidth, outHeight) = try Renderer.outputSize(width: width, height: height, longSide: longSide)
        return try downscaled(toWidth: outWidth, height: outHeight)
    }

    /// The image shrunk to exactly `outWidth × outHeight` (each no larger than now) with the same linear-light
    /// area filter as ``downscaled(toLongSide:)``; for sizes computed from another image's aspect, such as a
    /// thumbnail of a JPEG decoded at a reduced scale.
    public func downscaled(toWidth outWidth: Int, height outHeight: Int) throws(RawImageError) -> RGBImage8 {
        guard (1...width).contains(outWidth), (1...height).contains(outHeight) else {
            throw RawImageError(.invalidSettings, "cannot shrink \(width)×\(height) to \(outWidth)×\(outHeight)")
        }
        guard outWidth != width || outHeight != height else { return self }
        let decode = SRGBTransfer.decodeTable8
        let linear = pixels.map { decode[Int($0)] }
        let resampled = AreaResampler.resample(linear, width: width, height: height, to: outWidth, outHeight)
        let encoded = OutputCurve(toneCurve: .linear).encode(resampled, as: UInt8.self) {
            $0.encode8($1, into: $2, count: $3)
        }
        return try RGBImage8(width: outWidth, height: outHeight, pixels: encoded)
    }

    /// The image rotated or flipped for display according to `orientation` (TIFF/EXIF Orientation).
    public func oriented(_ orientation: Orientation) -> RGBImage8 {
        let (displayWidth, displayHeight) = ImageOrientation.displaySize(width: width, height: height, orientation)
        let rearranged = ImageOrientation.apply(pixels, width: width, height: height, orientation)
        // Same pixel count and a size already validated (maybe swapped), so this cannot fail; keep the original
        // rather than trap if it ever did.
        return (try? RGBImage8(width: displayWidth, height: displayHeight, pixels: rearranged)) ?? self
    }
}
