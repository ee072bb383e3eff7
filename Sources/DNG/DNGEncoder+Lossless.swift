import LosslessJPEG

extension DNGEncoder {
    /// Encodes the raw samples as lossless JPEG tiles (DNG Compression 7) with the `LosslessJPEG` tiled encoder, on
    /// ``DNGOptions/threadCount`` threads.
    ///
    /// Predictor 1 (left neighbour) with Huffman tables per component from every 3rd row (`sampledPerComponent`:
    /// within a fraction of a percent of optimal, and a third of the first pass; an odd step counts the rows of
    /// both CFA row colours). CFA data is coded as two JPEG
    /// components at half width, so each JPEG sample is a horizontal pair of photosites and the predictor compares
    /// a photosite with the one two columns to its left, of the same colour in a Bayer row (dng-facts.md fact 2;
    /// the DNG SDK's layout, which rawspeed, LibRaw and dcraw read). X-Trans rows repeat every 6 columns, so the
    /// neighbour is not always the same colour there: still lossless, slightly larger. LinearRaw data is coded as
    /// three components, one per colour. Edge tiles are padded to full tiles (TIFF 6.0 §15; readers ignore the padding)
    /// with samples the predictor predicts exactly, so the padding costs about a bit per sample
    /// (`LJ92TiledEncoder.paddedTile`).
    ///
    /// With ``streamsLosslessTiles`` the tiles are encoded in the background and the chunks wait for them when
    /// written, so the file write overlaps the encoding; an encoding failure then surfaces from the write.
    func losslessTiles(
        _ samples: [UInt16], width: Int, height: Int, planes: Int, bitsPerSample: Int, tileWidth: Int, tileHeight: Int
    ) throws(DNGError) -> [DNGImageChunk] {
        let encoder = self
        let failure = { @Sendable (error: LJ92Error) -> DNGError in
            // The encoder rejects a sample above its precision without saying where; a frame with one gets the same
            // error, naming the sample, as an uncompressed write (the range is checked only on this rare path).
            do throws(DNGError) {
                try encoder.checkRange(samples, bitsPerSample: bitsPerSample)
            } catch {
                return error
            }
            return DNGError(.compressionFailed, "lossless JPEG encoding failed: \(error)")
        }
        do throws(LJ92Error) {
            let tiler = try LJ92TiledEncoder(
                tileWidth: tileWidth, tileHeight: tileHeight, samplesPerPixel: planes, precision: bitsPerSample,
                components: planes == 1 ? 2 : planes, predictor: .left, tables: .sampledPerComponent(rowStep: 3),
                threadCount: options.threadCount)
            // A tile's stream is at most 8 bytes per sample (a 32-bit code + extra bits, doubled by 0xFF stuffing)
            // plus its headers: the 4 GiB check counts that until the tiles exist. Frames so large that the bound
            // does not fit are encoded up front and checked exactly.
            let bound = tileWidth * tileHeight * planes * 8 + 4096
            let grid = tiler.tileGrid(width: width, height: height)
            let tileCount = grid.across * grid.down
            let (total, overflow) = bound.multipliedReportingOverflow(by: tileCount)
            if streamsLosslessTiles, !overflow, total <= Int(UInt32.max) - DNGPlan.directoryAllowance {
                let tiles = DeferredTiles(
                    stream: try tiler.encodeInBackground(samples, width: width, height: height),
                    byteCountBoundPerTile: bound, failure: failure)
                return (0..<tileCount).map { DNGImageChunk(deferred: tiles, index: $0) }
            }
            return try tiler.encode(samples, width: width, height: height).map(DNGImageChunk.init(bytes:))
        } catch {
            throw failure(error)
        }
    }
}
