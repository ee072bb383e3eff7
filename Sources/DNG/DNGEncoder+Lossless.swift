import LosslessJPEG

extension DNGEncoder {
    /// Encodes the raw samples as lossless JPEG tiles (DNG Compression 7) with the `LosslessJPEG` tiled encoder, on
    /// ``DNGOptions/threadCount`` threads.
    ///
    /// Predictor 1 (left neighbour) with Huffman tables per component from every 4th row (`sampledPerComponent`:
    /// within a fraction of a percent of optimal, and a quarter of the first pass). CFA data is coded as two JPEG
    /// components at half width, so each JPEG sample is a horizontal pair of photosites and the predictor compares
    /// a photosite with the one two columns to its left, of the same colour in a Bayer row (dng-facts.md fact 2;
    /// the DNG SDK's layout, which rawspeed, LibRaw and dcraw read). X-Trans rows repeat every 6 columns, so the
    /// neighbour is not always the same colour there: still lossless, slightly larger. LinearRaw data is coded as
    /// three components, one per colour. Edge tiles are padded by repeating the last column and row (TIFF 6.0 §15
    /// requires full tiles; readers ignore the padding).
    func losslessTiles(
        _ samples: [UInt16], width: Int, height: Int, planes: Int, bitsPerSample: Int, tileWidth: Int, tileHeight: Int
    ) throws(DNGError) -> [DNGImageChunk] {
        do throws(LJ92Error) {
            let tiler = try LJ92TiledEncoder(
                tileWidth: tileWidth, tileHeight: tileHeight, samplesPerPixel: planes, precision: bitsPerSample,
                components: planes == 1 ? 2 : planes, predictor: .left, tables: .sampledPerComponent(rowStep: 4),
                threadCount: options.threadCount)
            return try tiler.encode(samples, width: width, height: height).map(DNGImageChunk.init(bytes:))
        } catch {
            // The encoder rejects a sample above its precision without saying where; a frame with one gets the same
            // error, naming the sample, as an uncompressed write (the range is checked only on this rare path).
            try checkRange(samples, bitsPerSample: bitsPerSample)
            throw DNGError(.compressionFailed, "lossless JPEG encoding failed: \(error)")
        }
    }
}
