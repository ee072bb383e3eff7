import LosslessJPEG

/// Decodes one Compression 7 strip or tile of raw data: a lossless JPEG (ITU T.81 process 14) stream.
///
/// The JPEG frame need not have the block's shape: DNG only requires that "the total sample counts need to
/// match" (DNG 1.7 p.20). The decoded samples, in the JPEG's scan order with components interleaved, fill the
/// block's stored rows in order. That one rule covers every layout in use: Adobe's two components at half width
/// (each JPEG sample pair is two horizontally adjacent photosites, dng-facts fact 2), PiDNG's two sensor rows
/// per JPEG row, and the plain one-component block.
enum LosslessJPEGBlock {
    /// Decodes `data` into the block's place in `output`.
    ///
    /// A JPEG frame with the block's own shape that lies wholly inside the image is decoded straight into the
    /// image (``LosslessJPEG/LJ92Decoder``'s row-stride form); any other layout is decoded on its own and copied.
    ///
    /// - Throws: ``DecodeError``: the decoder's errors (`.truncated`, `.corrupt`, `.unsupported` for other JPEG
    ///   processes, `.tooLarge` past its limits) and ``place(_:frameWidth:frameHeight:components:precision:geometry:region:into:)``'s.
    static func decode(
        _ data: ArraySlice<UInt8>, geometry: TIFFImageData.Geometry, region: TIFFImageData.Region,
        into output: UnsafeMutableBufferPointer<UInt16>
    ) throws(DecodeError) {
        let spp = geometry.samplesPerPixel
        let image: LJ92Image
        do throws(LJ92Error) {
            let header = try LJ92Decoder.frameHeader(of: data)
            let sameShape = header.samplesPerRow == region.storedWidth * spp && header.height == region.storedHeight
            let inside = region.visibleWidth == region.storedWidth && region.visibleHeight == region.storedHeight
            if sameShape, inside, header.precision <= geometry.bitsPerSample {
                let start = (region.y * geometry.width + region.x) * spp
                _ = try LJ92Decoder.decode(
                    data, into: UnsafeMutableBufferPointer(rebasing: output[start...]), rowStride: geometry.width * spp)
                return
            }
            image = try LJ92Decoder.decode(data)
        } catch {
            let code: DecodeError.Code =
                switch error.code {
                case .truncated: .truncated
                case .unsupportedProcess: .unsupported
                case .limitExceeded: .tooLarge
                default: .corrupt
                }
            let detail = error.detail.isEmpty ? "\(error.code)" : error.detail
            throw DecodeError(
                code, at: error.offset,
                "\(geometry.path): lossless JPEG strip/tile at (\(region.x), \(region.y)): \(detail)")
        }
        try image.samples.withUnsafeBufferPointer { (samples) throws(DecodeError) in
            try place(
                samples, frameWidth: image.width, frameHeight: image.height, components: image.components,
                precision: image.precision, geometry: geometry, region: region, into: output)
        }
    }

    /// Copies decoded JPEG samples (`frameWidth × frameHeight × components`, scan order) into the block's place.
    ///
    /// - Throws: ``DecodeError`` `.corrupt` when the JPEG holds a different number of samples than the block, or
    ///   more bits per sample than the IFD declares.
    static func place(
        _ samples: UnsafeBufferPointer<UInt16>, frameWidth: Int, frameHeight: Int, components: Int, precision: Int,
        geometry: TIFFImageData.Geometry, region: TIFFImageData.Region, into output: UnsafeMutableBufferPointer<UInt16>
    ) throws(DecodeError) {
        let spp = geometry.samplesPerPixel
        let stored = region.storedWidth * region.storedHeight * spp
        let (frameSamples, overflow) = (frameWidth * frameHeight).multipliedReportingOverflow(by: components)
        guard !overflow, frameSamples == stored, samples.count == stored else {
            throw DecodeError(
                .corrupt,
                "\(geometry.path): JPEG frame \(frameWidth)×\(frameHeight)×\(components) does not hold the \(region.storedWidth)×\(region.storedHeight)×\(spp) samples of its strip/tile"
            )
        }
        guard precision <= geometry.bitsPerSample else {
            throw DecodeError(
                .corrupt, "\(geometry.path): \(precision)-bit JPEG in a \(geometry.bitsPerSample)-bit image")
        }
        guard let source = samples.baseAddress, let destination = output.baseAddress else { return }
        let rowSamples = region.storedWidth * spp
        let visibleSamples = region.visibleWidth * spp
        let outputStride = geometry.width * spp
        for row in 0..<region.visibleHeight {
            (destination + (region.y + row) * outputStride + region.x * spp)
                .update(from: source + row * rowSamples, count: visibleSamples)
        }
    }
}
