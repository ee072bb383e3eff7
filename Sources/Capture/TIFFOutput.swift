import RawImage

/// Writes `--format tiff` files: a 16-bit RGB TIFF rendered from the raw.
enum TIFFOutput {
    /// Writes `image` as a new TIFF at `path`.
    static func write(_ image: RGBImage16, metadata: CaptureMetadata, to path: String) throws {
        throw CaptureError(.formatUnavailable, "--format tiff needs the DNG module's RGBTIFFWriter, not in this build")
    }
}
