import DNG
import JPEG
import OutputFiles
import RawDecoders
import RawImage

/// Saves a raw file's preview as a JPEG for `rawcap inspect --preview`: the largest embedded preview as stored (a
/// JPEG byte for byte, uncompressed RGB encoded), or, when the file has none, one rendered from the raw data.
enum PreviewExport {
    /// Where the JPEG came from.
    enum Source: String, Sendable {
        case embedded
        case rendered
    }

    /// What was written.
    struct Result: Sendable {
        let path: String
        let width: Int
        let height: Int
        let byteCount: Int
        let source: Source
    }

    /// Long side of a rendered preview: the size of the JPEG previews rawcap embeds in its DNGs.
    static let renderedLongSide = DNGPreviews.previewLongSide
    /// JPEG quality for encoded and rendered previews.
    static let quality = 90

    /// Writes the preview of the file whose bytes are `bytes` (decoded as `decoded`) to a new file at `path`.
    ///
    /// - Throws: ``CommandFailure``: 73 when `path` exists or its folder is missing or read-only, 74 when writing
    ///   fails part-way, 65 when the embedded preview is damaged and the raw data cannot be rendered either.
    static func write(bytes: [UInt8], decoded: DecodedRaw, to path: String) throws(CommandFailure) -> Result {
        let jpeg: JPEGImage
        let source: Source
        do {
            if let embedded = try? RawDecoder.embeddedPreview(bytes[...]), let stored = try? jpegImage(of: embedded) {
                (jpeg, source) = (stored, .embedded)
            } else {
                (jpeg, source) = (try render(decoded), .rendered)
            }
        } catch {
            throw CommandFailure(SysExit.dataError, "cannot make a preview: \(error)")
        }
        do {
            try OutputFile.write(jpeg.bytes, to: path)
        } catch {
            throw CommandFailure(Converter.status(for: error), "\(path): \(Converter.describe(error))")
        }
        return Result(path: path, width: jpeg.width, height: jpeg.height, byteCount: jpeg.bytes.count, source: source)
    }

    /// An embedded preview as a JPEG: a stored JPEG unchanged once it proves to be one, RGB pixels encoded.
    private static func jpegImage(of preview: EmbeddedPreview) throws -> JPEGImage {
        switch preview {
        case .jpeg(let bytes, _, _): try JPEGImage(validating: bytes)
        case .rgb(let image): try JPEGImage(encoding: image, quality: quality)
        }
    }

    /// A preview rendered from the raw data, upright (the orientation applied, since a bare JPEG carries none).
    private static func render(_ decoded: DecodedRaw) throws -> JPEGImage {
        let linear = try decoded.applyingLinearization()
        let options = RenderOptions(longSide: renderedLongSide)
        let image: RGBImage8
        switch linear.image {
        case .cfa(let frame): image = try frame.renderRGB8(options)
        case .linear(let picture): image = try picture.renderRGB8(options)
        }
        return try JPEGImage(encoding: image, quality: quality)
    }
}
