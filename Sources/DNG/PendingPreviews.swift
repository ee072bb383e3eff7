import JPEG
import OutputFiles
import RawImage

/// A DNG's thumbnail and preview being rendered on a background thread while its raw data is written
/// (``DNGWriter/write(_:previews:options:to:)-(RawFrame,PendingPreviews,_,_)``).
///
/// The preview SubIFD comes last in the file, so the writer needs its JPEG only after the raw data; the IFD0
/// thumbnail comes first, so it is written as zeros of the expected size and overwritten in place once rendered.
/// The plan is made from the ``expected`` shape; when the rendering turns out different (a frame the colour renderer
/// refused, whose caller fell back to another thumbnail), the writer starts the file again with what was rendered,
/// so the result is always the file that planning with the finished previews would give.
public final class PendingPreviews: Sendable {
    /// The sizes a rendering will have, known before it is done.
    public struct Shape: Sendable, Hashable {
        /// The IFD0 thumbnail's size.
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int
        /// The preview JPEG's size, 4:2:0 baseline as ``JPEGImage/init(encoding:quality:subsampling:)`` writes it by
        /// default, or `nil` for no preview.
        public var previewWidth: Int?
        public var previewHeight: Int?

        /// Creates a shape.
        public init(thumbnailWidth: Int, thumbnailHeight: Int, previewWidth: Int?, previewHeight: Int?) {
            self.thumbnailWidth = thumbnailWidth
            self.thumbnailHeight = thumbnailHeight
            self.previewWidth = previewWidth
            self.previewHeight = previewHeight
        }

        /// What ``DNGPreviews/render(from:)-(RawFrame)`` makes of `frame`: the preview at
        /// ``DNGPreviews/previewLongSide`` and the thumbnail shrunk from it to ``DNGPreviews/thumbnailLongSide``.
        public init(renderingFrom frame: RawFrame) throws(RawImageError) {
            let display = RenderOptions.displaySize(of: frame.defaultCrop, pixelAspectRatio: frame.pixelAspectRatio)
            let preview = try RenderOptions.outputSize(
                width: display.width, height: display.height, longSide: DNGPreviews.previewLongSide)
            let thumbnail = try RenderOptions.outputSize(
                width: preview.width, height: preview.height, longSide: DNGPreviews.thumbnailLongSide)
            self.init(
                thumbnailWidth: thumbnail.width, thumbnailHeight: thumbnail.height, previewWidth: preview.width,
                previewHeight: preview.height)
        }

        var preview: (width: Int, height: Int)? {
            guard let previewWidth, let previewHeight else { return nil }
            return (previewWidth, previewHeight)
        }
    }

    /// The shape the plan is made for.
    public let expected: Shape
    private let job: BackgroundJob<Result<DNGPreviews, any Error>>

    /// Starts `render` on a background thread.
    public init(expecting expected: Shape, render: @escaping @Sendable () throws -> DNGPreviews) {
        self.expected = expected
        job = BackgroundJob { Result { try render() } }
    }

    /// Waits for the rendering and returns it, or rethrows its error.
    public func wait() throws -> DNGPreviews {
        try job.wait().get()
    }

    /// The preview JPEG as the file stores it (up to its EOI), once rendered.
    ///
    /// - Throws: ``DNGError/Code/invalidPlan`` when the rendering failed, has no preview, or its JPEG would need
    ///   other preview IFD entries than the planned `entries` (the writer then starts again, see the type).
    func previewBytes(entries: [DNGEntry]) throws(DNGError) -> [UInt8] {
        guard let preview = matching()?.preview else { throw Self.changed }
        let directory = try DNGEncoder().previewDirectory(preview)
        guard directory.entries == entries, let chunk = directory.image?.chunks.first else { throw Self.changed }
        return chunk.fileBytes
    }

    /// Whether the rendering can fill a plan made for ``expected``: it succeeded, has the expected sizes, and its
    /// JPEG needs the preview IFD entries planned for it.
    func fitsPlan() -> Bool {
        guard let previews = matching() else { return false }
        guard let preview = previews.preview, let size = expected.preview else { return true }
        let encoder = DNGEncoder()
        guard let planned = try? encoder.previewDirectory(pending: self, width: size.width, height: size.height),
            let rendered = try? encoder.previewDirectory(preview)
        else { return false }
        return planned.entries == rendered.entries
    }

    /// The thumbnail's pixels, once rendered; `nil` when the rendering failed or came out different.
    func thumbnailPixels() -> [UInt8]? {
        matching()?.thumbnail.pixels
    }

    /// More than the preview JPEG can take, known before it exists: what the 4 GiB check counts (libjpeg-turbo's
    /// worst case, `tjBufSize`, is below 6 bytes per pixel of the padded image plus 2 KiB).
    var previewByteCountBound: Int {
        guard let preview = expected.preview else { return 0 }
        return (preview.width + 16) * (preview.height + 16) * 6 + 65536
    }

    static let changed = DNGError(.invalidPlan, "the rendered previews differ from the planned ones")

    /// The rendering when it has the expected shape; `nil` when it failed or came out different (the writer then
    /// starts again without the pending previews).
    func matching() -> DNGPreviews? {
        guard case .success(let previews) = job.wait(), previews.thumbnail.width == expected.thumbnailWidth,
            previews.thumbnail.height == expected.thumbnailHeight,
            previews.preview?.width == expected.previewWidth, previews.preview?.height == expected.previewHeight
        else { return nil }
        return previews
    }
}
