import JPEG
import WireFormat

extension DNGEncoder {
    /// The preview SubIFD: the JPEG stored unchanged as one strip, Compression 7 with PhotometricInterpretation
    /// YCbCr (6), NewSubFileType 1 (DNG 1.7 p.19-20: baseline DCT JPEG is allowed for 8-bit YCbCr previews).
    ///
    /// - Throws: ``DNGError/Code/invalidInput`` unless the JPEG is an 8-bit baseline (SOF0) or extended (SOF1)
    ///   3-component file whose frame header matches the size the preview claims, with chroma sampled 1×1 and luma
    ///   1×1, 2×1 or 2×2 (what YCbCrSubSampling can say), and that has an EOI marker (a cut-off file is refused
    ///   rather than stored). Bytes some cameras append after EOI are not part of the JPEG and are left out.
    func previewDirectory(_ preview: JPEGImage) throws(DNGError) -> DNGDirectory {
        let bytes = preview.bytes
        // The last FFD9: FF in entropy-coded data is always followed by 00 or RSTn, so this is the final EOI.
        guard let end = bytes.indices.dropLast().last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }) else {
            throw DNGError(.invalidInput, "the preview JPEG has no EOI marker (FFD9): it is cut off")
        }
        let jpeg = Array(bytes[...(end + 1)])
        let header: JPEGFrameHeader
        do {
            header = try JPEGFrameHeader(parsing: jpeg)
        } catch {
            throw DNGError(.invalidInput, "the preview is not a readable JPEG: \(error)")
        }
        guard header.marker == 0xC0 || header.marker == 0xC1, header.precision == 8,
            header.samplingFactors.count == 3
        else {
            throw DNGError(
                .invalidInput,
                "the preview must be an 8-bit baseline YCbCr JPEG (SOF0/SOF1, 3 components), "
                    + "not marker 0x\(String(header.marker, radix: 16)) with \(header.samplingFactors.count) "
                    + "components at \(header.precision) bits")
        }
        guard header.width == preview.width, header.height == preview.height, header.width > 0, header.height > 0
        else {
            throw DNGError(
                .invalidInput,
                "the preview claims \(preview.width)×\(preview.height) but its frame header says "
                    + "\(header.width)×\(header.height)")
        }
        let luma = header.samplingFactors[0]
        let chroma = header.samplingFactors.dropFirst()
        guard chroma.allSatisfy({ $0.horizontal == 1 && $0.vertical == 1 }),
            [(1, 1), (2, 1), (2, 2)].contains(where: { $0 == (luma.horizontal, luma.vertical) })
        else {
            throw DNGError(.invalidInput, "preview chroma subsampling \(header.samplingFactors) has no TIFF form")
        }
        return try DNGDirectory(
            entries: try previewEntries(width: header.width, height: header.height, luma: luma),
            image: DNGImageData(
                layout: .strips(rowsPerStrip: header.height), chunks: [DNGImageChunk(bytes: jpeg)]))
    }

    /// The preview SubIFD of a JPEG that is still being rendered, planned for the 4:2:0 JPEG of `width × height`
    /// that ``JPEGImage/init(encoding:quality:subsampling:)`` makes by default; the JPEG is checked against these
    /// entries when the writer reaches it (``PendingPreviews``).
    func previewDirectory(pending previews: PendingPreviews, width: Int, height: Int) throws(DNGError)
        -> DNGDirectory
    {
        let entries = try DNGDirectory.sortedUnique(
            try previewEntries(width: width, height: height, luma: (2, 2)), name: "preview IFD")
        return try DNGDirectory(
            entries: entries,
            image: DNGImageData(
                layout: .strips(rowsPerStrip: height),
                chunks: [DNGImageChunk(previewOf: previews, entries: entries)]))
    }

    /// The entries of a preview SubIFD holding a `width × height` YCbCr JPEG whose luma is sampled `luma` times as
    /// densely as its chroma.
    private func previewEntries(width: Int, height: Int, luma: (horizontal: Int, vertical: Int)) throws(DNGError)
        -> [DNGEntry]
    {
        [
            try DNGEntry(.newSubfileType, .long(1)),
            try DNGEntry(.imageWidth, .long(UInt32(width))),
            try DNGEntry(.imageLength, .long(UInt32(height))),
            try DNGEntry(.bitsPerSample, .shorts([8, 8, 8])),
            try DNGEntry(.compression, .short(7)),
            try DNGEntry(.photometricInterpretation, .short(6)),
            try DNGEntry(.samplesPerPixel, .short(3)),
            try DNGEntry(.rowsPerStrip, .long(UInt32(height))),
            try DNGEntry(.planarConfiguration, .short(1)),
            try DNGEntry(.yCbCrSubSampling, .shorts([UInt16(luma.horizontal), UInt16(luma.vertical)])),
            try DNGEntry(.previewColorSpace, .long(2)),
        ]
    }
}
